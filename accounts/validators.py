"""Checks on what players type about themselves."""

import unicodedata
import zoneinfo

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

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
    "Al\u200bice" (an invisible space) and "alice " are one name. NFKC folds widths and
    compatibility forms, casefold the cases; format characters (Cf: zero-width spaces and
    joiners, soft hyphens) show nothing, so they count for nothing, and runs of spaces for one."""
    visible = "".join(char for char in name if unicodedata.category(char) != "Cf")
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", visible).casefold())
    return " ".join(folded.split())


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("Choose a time zone from the list, such as Europe/Prague."), code="time_zone"
        )
