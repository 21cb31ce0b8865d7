"""How cards, moves and results are put into words and marks, for pages and mails alike: no
queries here, only what a caller passes in (a viewer's cards, a record already filtered for them,
the seats it loaded)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.humanize.templatetags.humanize import ordinal
from django.utils.translation import get_language, gettext, gettext_noop, ngettext, pgettext_lazy
from django.utils.translation import gettext as _

from .engine import Rules
from .engine.cards import Card
from .engine.results import redact_record
from .engine.view import PILE_RESHUFFLED, PILE_THREW, PILE_TOOK, PILE_TURNED
from .models import Game, Seat

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "J": "★"}
SUIT_NAMES = {
    "S": gettext_noop("spades"),
    "H": gettext_noop("hearts"),
    "D": gettext_noop("diamonds"),
    "C": gettext_noop("clubs"),
}
# The letter in a card's corner, as decks of each language print it (pgettext: "card corner").
RANK_NAMES = {
    1: pgettext_lazy("card corner: ace", "A"), 11: pgettext_lazy("card corner: jack", "J"),
    12: pgettext_lazy("card corner: queen", "Q"), 13: pgettext_lazy("card corner: king", "K"),
}  # fmt: skip
RANK_WORDS = {
    1: gettext_noop("ace"), 11: gettext_noop("jack"), 12: gettext_noop("queen"),
    13: gettext_noop("king"),
}  # fmt: skip
RANK_PLURALS = {
    1: gettext_noop("Aces"), 2: gettext_noop("2s"), 3: gettext_noop("3s"), 4: gettext_noop("4s"),
    5: gettext_noop("5s"), 6: gettext_noop("6s"), 7: gettext_noop("7s"), 8: gettext_noop("8s"),
    9: gettext_noop("9s"), 10: gettext_noop("10s"), 11: gettext_noop("Jacks"),
    12: gettext_noop("Queens"), 13: gettext_noop("Kings"),
}  # fmt: skip


@dataclass(frozen=True)
class CardInfo:
    token: str
    rank: str
    suit: str
    symbol: str
    red: bool
    wild: bool
    label: str  # "7♥"
    name: str  # "7 of hearts, wild": the card in words, as a screen reader speaks it


def card_info(card: Card, wild_rank: int | None = None) -> CardInfo:
    if card.is_joker:
        return CardInfo(card.token, "JK", "J", "★", False, True, "JK★", _("joker, wild"))
    rank = str(RANK_NAMES.get(card.rank, card.rank))
    symbol = SUIT_SYMBOLS[card.suit]
    spoken_rank = _(RANK_WORDS[card.rank]) if card.rank in RANK_WORDS else rank
    name = _("%(rank)s of %(suit)s") % {"rank": spoken_rank, "suit": _(SUIT_NAMES[card.suit])}
    wild = card.rank == wild_rank
    return CardInfo(
        token=card.token,
        rank=rank,
        suit=card.suit,
        symbol=symbol,
        red=card.suit in "HD",
        wild=wild,
        label=f"{rank}{symbol}",
        name=_("%(card)s, wild") % {"card": name} if wild else name,
    )


def cards_info(cards, wild_rank=None) -> list[CardInfo]:
    return [card_info(card, wild_rank) for card in cards]


def rank_plural(rank: int) -> str:
    return _(RANK_PLURALS[rank])


def hand_sort_mode(seat: Seat | None, round_index: int | None) -> str:
    """How the seat's hand is shown in round `round_index`: "manual" (the player's own order) in
    the round it was made in, else the sort the player last chose, "suit" or "rank"."""
    if seat is None:
        return "suit"
    if seat.hand_order_round is not None and seat.hand_order_round == round_index:
        return "manual"
    return "rank" if seat.hand_sort == "rank" else "suit"


def sort_hand(
    hand, seat: Seat | None, wild_rank: int, round_index: int | None = None
) -> list[Card]:
    """The player's order in round `round_index`: by suit, by rank, or their own in the round
    they made it (cards new since at the end). Wilds last in a sort."""
    mode = hand_sort_mode(seat, round_index)
    if mode == "manual" and seat is not None:
        position = {token: i for i, token in enumerate(seat.hand_order)}
        return sorted(hand, key=lambda c: position.get(c.token, len(position)))

    def key(card: Card):
        wild = card.is_joker or card.rank == wild_rank
        suit = "SHCDJ".index(card.suit)
        return (wild, suit, card.rank) if mode == "suit" else (wild, card.rank, suit)

    return sorted(hand, key=key)


def round_wild_rank(rules: Rules, round_index: int) -> int:
    return rules.wild_rank_for(rules.hand_sizes[round_index])


def describe_move(record: dict, names: list[str], wild_rank: int | None = None) -> str:
    """One line of history, from a record already filtered for its viewer (public_for). Cards
    are named in words ("the 7 of hearts, wild"), so the line reads the same aloud."""
    who = names[record["seat"]]
    card = record["card"]
    named = _sentence_name(Card.from_token(card), wild_rank) if card else None
    if record["type"] == "draw":
        if record["source"] == "discard":
            return _("%(who)s took the %(card)s from the discard pile") % {
                "who": who,
                "card": named,
            }
        if named:
            return _("%(who)s drew the %(card)s from the stock") % {"who": who, "card": named}
        return _("%(who)s drew from the stock") % {"who": who}
    if record["type"] == "go_out":
        return _("%(who)s went out, discarding the %(card)s") % {"who": who, "card": named}
    return _("%(who)s discarded the %(card)s") % {"who": who, "card": named}


def since_lines(moves, names: list[str], view) -> list[dict]:
    """The moves listed under "Since your last visit", in words as `view.seat` may see them:
    `moves` are Move rows, oldest first, read up to the version `view` was built at (so the list
    and the table describe the same moment). Where a round ended between them, or after the
    last of them, a line says so and names the round that began. `past`: a move of a round
    already over."""
    ended = {result.round_index: result for result in view.round_results}
    lines: list[dict] = []
    last_round = None

    def rounds_ended(until: int) -> None:
        for index in range(last_round, until):
            text = round_change(ended[index], names, view.rules)
            lines.append({"text": text, "past": False, "round_change": True})

    for move in moves:
        if last_round is not None and move.round_index > last_round:
            rounds_ended(move.round_index)
        record = redact_record(move.record, view.seat)
        text = describe_move(record, names, round_wild_rank(view.rules, move.round_index))
        lines.append({"text": text, "past": move.round_index < view.round_index})
        last_round = move.round_index
    if last_round is not None and last_round < view.round_index:
        rounds_ended(view.round_index)
    return lines


def pile_log(view, names: list[str]) -> list[str]:
    """This round's discard pile as everyone at the table saw it, oldest first, in words: the
    view's pile log, public cards only (a draw from the stock is in no log, so none shows)."""
    went_out = None
    if view.went_out is not None:  # the going-out seat's last throw is the card it went out on
        throws = [i for i, (seat, kind, _card) in enumerate(view.pile_events)
                  if seat == view.went_out and kind == PILE_THREW]  # fmt: skip
        went_out = throws[-1] if throws else None
    lines = []
    for i, (seat, kind, card) in enumerate(view.pile_events):
        named = {"card": _sentence_name(card, view.wild_rank)}
        if kind == PILE_TURNED:
            lines.append(_("The %(card)s was turned up to start the pile") % named)
        elif kind == PILE_RESHUFFLED:
            lines.append(_("The pile under the %(card)s was shuffled into a new stock") % named)
        else:  # in the words of the move history
            record = {"seat": seat, "card": card.token, "source": "discard"}
            record["type"] = {PILE_TOOK: "draw"}.get(kind, "go_out" if i == went_out else "discard")
            lines.append(describe_move(record, names, view.wild_rank))
    return lines


def round_change(result, names: list[str], rules: Rules) -> str:
    """'Round 3 ended: Sam went out; round 4 began (4s wild).'"""
    words = {
        "n": result.round_index + 1,
        "next": result.round_index + 2,
        "wild": rank_plural(round_wild_rank(rules, result.round_index + 1)),
    }
    if result.went_out is None:
        text = _("Round %(n)d ended at the turn limit; round %(next)d began (%(wild)s wild).")
        return text % words
    words["who"] = names[result.went_out]
    return _("Round %(n)d ended: %(who)s went out; round %(next)d began (%(wild)s wild).") % words


def round_summary(result, names: list[str]) -> dict:
    """A round as it ended (an engine RoundResult): every seat's melds, lay-offs, left-over
    cards and penalty, for the table's round summary and a game's review."""
    wild = result.wild_rank
    return {
        "number": result.round_index + 1,
        "wild": rank_plural(wild),
        "went_out": names[result.went_out] if result.went_out is not None else None,
        "seats": [
            {"name": names[i], "penalty": r.penalty,
             "melds": [cards_info(m, wild) for m in r.melds],
             "deadwood": cards_info(sort_hand(r.deadwood, None, wild), wild),
             "layoffs": [cards_info(lo.cards, wild) for lo in r.layoffs]}
            for i, r in enumerate(result.seats)
        ],
    }  # fmt: skip


def _sentence_name(card: Card, wild_rank: int | None) -> str:
    """A card's name inside a sentence: "the queen of hearts (wild) from the pile"."""
    if card.is_joker:
        return _("joker")
    name = card_info(card, None).name
    return _("%(card)s (wild)") % {"card": name} if card.rank == wild_rank else name


def rules_summary(rules: Rules) -> list[str]:
    """The switches that differ from the defaults, in words."""
    words = []
    if rules.rounds == "extended":
        words.append(_("Extended: 13 rounds, aces then 2s wild"))
    if rules.rounds == "up_and_down":
        words.append(_("Up and down: 22 rounds"))
    if rules.aces_high:
        words.append(_("Aces high or low"))
    if rules.face_cards_by_rank:
        words.append(_("J Q K cost 11 12 13"))
    if rules.wild_penalty:
        words.append(_("Left-over wilds cost %(n)s") % {"n": rules.wild_penalty})
    if rules.max_wilds_per_meld == 1:
        words.append(_("One wild per meld"))
    if rules.all_wild_melds:
        words.append(_("All-wild melds"))
    if rules.jokers:
        words.append(_("Jokers"))
    if rules.double_face_rounds:
        words.append(_("Double face rounds"))
    if rules.redemption:
        words.append(_("Redemption"))
    return words or [_("Standard rules")]


def scoresheet(view) -> dict:
    rows = []
    running = [0] * view.players
    for result in view.round_results:
        running = [a + b for a, b in zip(running, result.penalties, strict=True)]
        rows.append(
            {
                "number": result.round_index + 1,
                "wild": rank_plural(result.wild_rank),
                "cells": [
                    {"penalty": p, "out": result.went_out == i, "total": running[i]}
                    for i, p in enumerate(result.penalties)
                ],
            }
        )
    return {"rows": rows, "totals": list(view.totals)}


def ranking(game: Game, seats: list[Seat]) -> list[dict]:
    ordered = sorted(seats, key=lambda s: (s.final_rank or 99, s.index))
    return [
        {"rank": s.final_rank, "name": s.user.name, "total": s.final_total, "resigned": s.resigned,
         "dropped": s.dropped, "winner": s.final_rank == 1}
        for s in ordered
    ]  # fmt: skip


def per_move(days: int | None) -> str:
    """A game's clock in words, the same on every page, in every mail and in the new-game form:
    "3 days per move", or "no time limit" (the filter `per_move`, templatetags/clock.py)."""
    if not days:
        return gettext("no time limit")
    return ngettext("%(n)d day per move", "%(n)d days per move", days) % {"n": days}


# By language; English (and any language not named) takes humanize's 1st, 2nd, 3rd, 11th.
PLACE_FORMATS = {"cs": "{}.", "hu": "{}.", "is": "{}.", "nl": "{}e", "id": "ke-{}"}


def place(rank: int) -> str:
    """A place in a ranking as the active language writes it: 1st in English, 1. in Czech,
    Hungarian and Icelandic, 1e in Dutch, ke-1 in Indonesian (the filter `place`,
    templatetags/places.py). Django's humanize `ordinal` wrote "1st" in every language but
    English: their catalogues miss the case of 1."""
    written = PLACE_FORMATS.get(get_language())
    return written.format(rank) if written else ordinal(rank)
