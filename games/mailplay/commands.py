"""A turn written as words, the way a player answers a turn mail: `stock, discard 7h`,
`take, out Q♠`, `draw`, `harten 7` (Dutch), `pik dáma` (Czech). One reading for every language at
once: a Dutch player may write English, and cards may be named as the site prints them ("7♥",
"V♠" in Dutch), as its tokens ("7h", "qs", "10d", "jk") or in words, in either order ("7 of
hearts", "harten 7"). Anything not understood is refused with the word that was not, rather than
guessed at: a misread move cannot be taken back.

A command is a draw (from the stock or the discard pile), then a discard or a going out with a
card; a draw alone is a turn half played (the mail answering it shows the card drawn)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from ..engine.cards import JOKER_RANK, JOKER_SUIT, LABEL_RANKS, SUITS
from ..presentation import RANK_NAMES, RANK_WORDS, SUIT_NAMES, SUIT_SYMBOLS

# Each translation lists the words for one thing, separated by "|"; a word may be two words.
WORDS = {
    "stock": pgettext_lazy("mail command words, separated by |", "stock|draw|deck"),
    "take": pgettext_lazy("mail command words, separated by |", "take|pick up|pick"),
    "discard": pgettext_lazy("mail command words, separated by |", "discard|throw|drop"),
    "out": pgettext_lazy("mail command words, separated by |", "out|go out"),
    # Words a player may write around the commands, read as nothing.
    "filler": pgettext_lazy(
        "mail command words, separated by |",
        "from|the|pile|discard pile|top|card|a|and|then|of|with|please|i|i'll|will|my",
    ),
    "joker": pgettext_lazy("mail command words, separated by |", "joker|jk"),
}
ASCII_SUITS = {letter.lower(): letter for letter in SUITS}
SYMBOL_SUITS = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items() if suit != JOKER_SUIT}
ASCII_RANKS = {label.lower(): rank for label, rank in LABEL_RANKS.items()}
NUMBERS = {str(n): n for n in range(2, 11)}
SEPARATORS = re.compile(r"[,;.:!?()\[\]\"/]+|\s+")


@dataclass(frozen=True)
class Command:
    """One step of a turn: kind "stock" or "take" (a draw), or "discard" / "out" with `card`, a
    (rank, suit) pair (the engine's: rank 1 is the ace, (0, "J") a joker)."""

    kind: str
    card: tuple[int, str] | None = None


class CommandError(ValueError):
    """What a player wrote cannot be read as a turn; the message says why, in their language."""


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


@dataclass(frozen=True)
class Vocabulary:
    phrases: dict[
        tuple[str, ...], str
    ]  # words -> "stock", "take", "discard", "out", "filler", "joker"
    longest: int
    suits: dict[str, str]  # a suit's word in any language, or symbol -> the engine's letter
    ranks: dict[str, int]  # a rank's number, word or corner letter ("v": a Dutch queen) -> rank


@cache
def vocabulary() -> Vocabulary:
    """Every language's words at once (built once per process)."""
    phrases: dict[tuple[str, ...], str] = {}
    suits: dict[str, str] = dict(SYMBOL_SUITS)
    ranks: dict[str, int] = dict(NUMBERS) | {word: rank for word, rank in ASCII_RANKS.items()}
    corners: dict[str, int] = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for kind, word_list in WORDS.items():
                for word in str(word_list).split("|"):
                    if word.strip():
                        phrases.setdefault(tuple(_fold(word).split()), kind)
            for suit, name in SUIT_NAMES.items():
                suits[_fold(_(name))] = suit
                suits[_fold(name)] = suit
            for rank, word in RANK_WORDS.items():
                ranks.setdefault(_fold(_(word)), rank)
                ranks.setdefault(_fold(word), rank)
            for rank, letter in RANK_NAMES.items():
                corners.setdefault(_fold(str(letter)), rank)
    longest = max(len(words) for words in phrases)
    return Vocabulary(phrases, longest, suits, corners | ranks)


def _words(text: str) -> list[str]:
    """The text's words, a suit symbol split off its rank ("7♥" -> "7", "♥"), a joker's star
    dropped ("JK★")."""
    spaced = _fold(text).replace(SUIT_SYMBOLS[JOKER_SUIT], " ")
    for symbol in SYMBOL_SUITS:
        spaced = spaced.replace(symbol, f" {symbol} ")
    return [word for word in SEPARATORS.split(spaced) if word]


def _phrase_at(words: list[str], at: int, vocab: Vocabulary) -> tuple[str, int] | None:
    """The longest phrase of the vocabulary starting at `at`: its kind and its length."""
    for length in range(min(vocab.longest, len(words) - at), 0, -1):
        kind = vocab.phrases.get(tuple(words[at : at + length]))
        if kind is not None:
            return kind, length
    return None


def _compact_card(word: str, vocab: Vocabulary) -> tuple[int, str] | None:
    """A card in one word as the site's tokens write it: "7h", "qs", "10d", "jk"."""
    if word in ("jk", "joker"):
        return (JOKER_RANK, JOKER_SUIT)
    rank, suit = word[:-1], word[-1:]
    if suit in ASCII_SUITS and (rank in NUMBERS or rank in ASCII_RANKS):
        return (NUMBERS.get(rank) or ASCII_RANKS[rank], ASCII_SUITS[suit])
    return None


def _card_at(words: list[str], at: int, vocab: Vocabulary) -> tuple[tuple[int, str], int] | None:
    """The card named from `at` on, and how many words it took: one word ("7h"), a rank and a
    suit in either order ("7 ♥", "V ♠", "queen of spades", "harten 7"), or a joker."""
    if at >= len(words):
        return None
    first, rest = words[at], words[at + 1 : at + 4]
    suit_of, rank_of = vocab.suits, vocab.ranks
    if rest and first in suit_of and rest[0] in rank_of:  # "harten 7"
        return (rank_of[rest[0]], suit_of[first]), 2
    if rest and first in rank_of:  # "7 ♥", "7 hearts", "7 of hearts", "As sekop" (not "as")
        skip = 1 if vocab.phrases.get((rest[0],)) == "filler" else 0  # "of", "van"
        if len(rest) > skip and rest[skip] in suit_of:
            return (rank_of[first], suit_of[rest[skip]]), 2 + skip
    if (card := _compact_card(first, vocab)) is not None:
        return card, 1
    phrase = _phrase_at(words, at, vocab)
    if phrase is not None and phrase[0] == "joker":
        return (JOKER_RANK, JOKER_SUIT), phrase[1]
    return None


def _card_after(words: list[str], at: int, vocab: Vocabulary) -> tuple[tuple[int, str], int] | None:
    """The card named after a verb, past any words read as nothing ("discard the 7♥"): the card
    and the position after it."""
    while at < len(words):
        found = _card_at(words, at, vocab)
        if found is not None:
            return found[0], at + found[1]
        phrase = _phrase_at(words, at, vocab)
        if phrase is None or phrase[0] != "filler":
            return None
        at += phrase[1]
    return None


def parse_turn(text: str) -> list[Command]:
    """The commands in `text`, in order: at most one draw, then at most one discard or going
    out, and at least one of them. A take may name the card taken ("take 7♥"): the move is then
    refused if that is not the top of the pile. Raises CommandError, saying what was not read."""
    vocab = vocabulary()
    words = _words(text)
    commands: list[Command] = []
    at = 0
    while at < len(words):
        phrase = _phrase_at(words, at, vocab)
        if phrase is None or phrase[0] == "joker":
            if _card_at(words, at, vocab) is not None:
                raise CommandError(_("Say what to do with the card: discard it or go out with it."))
            raise CommandError(_("We could not read “%(word)s”.") % {"word": words[at]})
        kind, length = phrase
        at += length
        if kind == "filler":
            continue
        found = _card_after(words, at, vocab)
        if kind == "stock":
            commands.append(Command(kind))
        elif kind == "take":
            commands.append(Command(kind, found[0] if found else None))
            at = found[1] if found else at
        elif found is not None:
            commands.append(Command(kind, found[0]))
            at = found[1]
        elif kind == "discard" and commands and commands[-1].kind == "take":
            continue  # "take discard": the pile, not a discard
        else:
            raise CommandError(_("Name the card, as in “discard 7h” or “out qs”."))
    return _in_order(commands)


def _in_order(commands: list[Command]) -> list[Command]:
    draws = [c for c in commands if c.kind in ("stock", "take")]
    ends = [c for c in commands if c.kind in ("discard", "out")]
    if not commands:
        raise CommandError(_("Write a move, as in “stock, discard 7h” or “take, out qs”."))
    if len(draws) > 1 or len(ends) > 1 or (draws and ends and commands[0] not in draws):
        raise CommandError(
            _("A turn is one draw, then one discard or going out, as in “stock, discard 7h”.")
        )
    return commands
