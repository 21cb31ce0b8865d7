"""Characters that read alike, from Unicode's security data (UTS #39), as the kept library
confusable-homoglyphs ships it: each character's script, and the classes of confusable
characters and sequences (Cyrillic "\u0430" and Latin "a", "I" and "l", "m" and "rn").

`skeleton` maps every member of a class to one representative, so that two strings that could
be taken for each other have the same skeleton (UTS #39's skeleton; the library gives the
classes, not the table's direction, so the representative is the class's prototype where the
data shows it: a sequence, else the member every other one points to)."""

import functools
import unicodedata
from collections import Counter, defaultdict

from confusable_homoglyphs import categories
from confusable_homoglyphs.utils import load

# Right-to-left characters come wrapped in these marks in the library's data, for display.
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.cache
def _representatives() -> dict[str, str]:
    """Each confusable character -> its class's representative (itself left out)."""
    data = {
        key.translate(_DIRECTION_MARKS): [
            entry["c"].translate(_DIRECTION_MARKS) for entry in entries
        ]
        for key, entries in load("confusables.json").items()
    }
    parent: dict[str, str] = {}

    def root(text: str) -> str:
        parent.setdefault(text, text)
        while parent[text] != text:
            parent[text] = parent[parent[text]]
            text = parent[text]
        return text

    for key, others in data.items():
        for other in others:
            parent[root(key)] = root(other)
    classes = defaultdict(list)
    for text in list(parent):
        classes[root(text)].append(text)
    table = {}
    for members in classes.values():
        sequences = [m for m in members if len(m) > 1]
        if sequences:  # only a prototype is ever a sequence (a source is one character)
            chosen = min(sequences, key=lambda m: (len(m), m))
        else:  # the prototype lists every source; a source lists its prototype alone
            chosen = min(members, key=lambda m: (-len(data.get(m, ())), m))
        table.update({m: chosen for m in members if len(m) == 1 and m != chosen})
    return table


def passes_for_another(char: str) -> bool:
    """`char` reads as another character, in its own case and in small letters alike (the
    Cyrillic "\u0430", the digit "1" for "l"; not "I", whose small letter is "i")."""
    shown = unicodedata.normalize("NFKC", char)
    return skeleton(shown) != shown and skeleton(shown.casefold()) != shown.casefold()


def skeleton(text: str) -> str:
    """`text` with every character replaced by its class's representative, decomposed first (so
    that an accent on a look-alike letter is an accent on the letter it looks like)."""
    table = _representatives()
    for _ in range(4):  # a representative sequence may hold characters that map on
        mapped = unicodedata.normalize(
            "NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
        )
        if mapped == text:
            break
        text = mapped
    return text


# Scripts that are written together (UTS #39's "highly restrictive" sets); besides these, a name
# may mix Latin with one other script, but not Cyrillic or Greek, whose letters pass for Latin.
_WRITTEN_TOGETHER = (
    {"LATIN", "HAN", "HIRAGANA", "KATAKANA"},
    {"LATIN", "HAN", "BOPOMOFO"},
    {"LATIN", "HAN", "HANGUL"},
)
_PASS_FOR_LATIN = {"CYRILLIC", "GREEK"}
_ANY_SCRIPT = {"COMMON", "INHERITED"}  # digits, spaces, punctuation; combining marks


def script(char: str) -> str:
    return categories.alias(char)


def odd_character(text: str) -> str | None:
    """A character of `text` from a script that does not go with the rest (one of the fewest
    letters': the Cyrillic "\u0430" of "\u0430lice"), or None when its scripts go together (one
    script, or a mix that people write, such as Latin with Han and Kana)."""
    letters = [(char, name) for char in text if (name := script(char)) not in _ANY_SCRIPT]
    counts = Counter(name for _char, name in letters)
    if len(counts) < 2 or _goes_together(set(counts)):
        return None
    main = max(counts, key=lambda name: (counts[name], name == "LATIN"))
    return next(char for char, name in letters if name != main)


def _goes_together(scripts: set[str]) -> bool:
    if any(scripts <= allowed for allowed in _WRITTEN_TOGETHER):
        return True
    others = scripts - {"LATIN"}
    return "LATIN" in scripts and len(others) == 1 and not others & _PASS_FOR_LATIN


@functools.cache
def _reads_as_ascii(char: str) -> bool:
    """`char` has a look-alike in plain Latin letters or digits (the Cyrillic "\u0440" is "p")."""
    entries = load("confusables.json").get(char, ())
    return any(entry["c"].isascii() and entry["c"].isalnum() for entry in entries)


def read_as_latin(text: str) -> list[str]:
    """The letters of `text` from another script than Latin, when every letter of it is Latin or
    passes for a plain Latin letter or digit: "\u0430\u04cf\u0456\u0441\u0435", all
    Cyrillic, reads "alice" (UTS #39's whole-script confusables, towards Latin). Else []: a
    name with a letter that reads as itself ("\u0411\u043e\u0440\u0438\u0441") is not
    taken for a Latin one. The letters are decomposed first, so that an accent is no letter."""
    letters = [c for c in unicodedata.normalize("NFD", text) if script(c) not in _ANY_SCRIPT]
    foreign = [c for c in dict.fromkeys(letters) if script(c) != "LATIN"]
    if foreign and all(_reads_as_ascii(c) for c in foreign):
        return foreign
    return []


def character_name(char: str) -> str:
    """How a message names a character: itself, then its Unicode name ("\u0430" CYRILLIC
    SMALL LETTER A)."""
    return f"“{char}” ({unicodedata.name(char, f'U+{ord(char):04X}')})"
