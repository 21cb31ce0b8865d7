"""Checks on what players type about themselves."""

import unicodedata
import zoneinfo

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .lookalikes import character_name, odd_character, read_as_latin, skeleton

# Line and paragraph breaks, control characters, and every bidirectional control: none belongs in
# a name that mail subjects and pages show on one line. The embeddings and overrides (U+202A to
# U+202E) and the isolates (U+2066 to U+2069) can make a name read backwards; the marks (U+061C,
# U+200E, U+200F) move its digits and punctuation about, enough to pass for another player's.
# (Usernames take letters, digits and @.+-_ only: Django's UnicodeUsernameValidator.)
BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_control(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in BIDI_CONTROLS


def validate_one_line(value: str) -> None:
    if any(is_control(char) for char in value):
        raise ValidationError(
            _("Use letters, digits, spaces and punctuation: no line breaks or control characters."),
            code="control_characters",
        )


def one_line(value: str) -> str:
    """`value` with every control character or line break turned into a space, spaces folded."""
    return " ".join("".join(" " if is_control(c) else c for c in value).split())


def fold_name(name: str) -> str:
    """`name` as it reads, for telling names apart: "Alice", "ALICE", "Alice" in full-width letters,
    "Al\u200bice" (an invisible space), "alice " and "\u0430lice" (a Cyrillic a) are one name. NFKC
    folds widths and compatibility forms, casefold the cases, the skeleton the look-alikes
    (lookalikes.skeleton, UTS #39), over again until nothing changes; format characters (Cf:
    zero-width spaces and joiners, soft hyphens) show nothing, so they count for nothing, and
    runs of spaces for one. The database holds one account to each (User.name_key)."""
    folded = "".join(char for char in name if unicodedata.category(char) != "Cf")
    for _round in range(4):
        before = folded
        folded = skeleton(unicodedata.normalize("NFKC", folded).casefold())
        if folded == before:
            break
    return " ".join(unicodedata.normalize("NFKC", folded).split())


def name_shape(name: str) -> str:
    """`name` folded after its look-alikes are taken as they look in its own case: "AIice" (a
    capital I) reads as "Alice", though folding its case first makes it "aiice". Compared with
    the other accounts' folded names as well as fold_name (names.name_taken)."""
    visible = unicodedata.normalize(
        "NFKC", "".join(c for c in name if unicodedata.category(c) != "Cf")
    )
    return fold_name(skeleton(visible))


def validate_one_script(value: str) -> None:
    """A name in one script, or in scripts that people write together: no Cyrillic or Greek
    letter among Latin ones, where it passes for a Latin letter (lookalikes.odd_character); and
    not a name wholly in letters of another script that pass for Latin ones, which reads as a
    Latin name whatever the look-alike letters fold to (lookalikes.read_as_latin)."""
    odd = odd_character(value)
    if odd is not None:
        raise ValidationError(
            _("%(character)s is from another alphabet than the rest of the name: write it in one."),
            code="mixed_scripts",
            params={"character": character_name(odd)},
        )
    passing = read_as_latin(value)
    if passing:
        raise ValidationError(
            _(
                "The whole name reads as one in Latin letters: %(characters)s can pass for other "
                "letters. Write it in Latin letters, or choose another."
            ),
            code="reads_as_latin",
            params={"characters": ", ".join(character_name(c) for c in passing)},
        )


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("Choose a time zone from the list, such as Europe/Prague."), code="time_zone"
        )
