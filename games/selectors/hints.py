"""The reasons behind a hint, in a sentence each, for the table's hint (table.py), the hard
bot's advice (advice.py) and a game's review (reviews.py): which cards a throw keeps together,
what a card taken goes with, what drawing from the stock keeps."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from ..engine import Action, Draw, GoOut, arrange
from ..engine.bots.base import discard_order
from ..engine.cards import Card
from ..engine.rules import Rules
from ..presentation import card_info


def related(a: Card, b: Card) -> str | None:
    """ "set" when two cards are a set in the making (one rank), "run" when they are a run in the
    making (one suit, one or two ranks apart), else None."""
    if a.rank == b.rank:
        return "set"
    if a.suit == b.suit and abs(a.rank - b.rank) <= 2:
        return "run"
    return None


def throw_reasons(
    discard: Card, kept: list[Card], deadwood: list[Card], wild_rank: int | None, rules: Rules
) -> list[str]:
    """The reasons to throw `discard`, in a sentence each (the hint's, and the hard bot's
    advice): that it goes with none of the others, and which two left-over cards the throw keeps
    towards a meld (the costliest pair). Wild cards and jokers go with anything, so they are no
    reason."""
    natural = [c for c in kept if not rules.is_wild(c, wild_rank)]

    def name(card: Card) -> str:
        return card_info(card, wild_rank).name

    reasons = []
    if not rules.is_wild(discard, wild_rank) and not any(related(discard, c) for c in natural):
        reasons.append(
            _("The %(card)s goes with none of your other cards.") % {"card": name(discard)}
        )
    loose = [c for c in deadwood if not rules.is_wild(c, wild_rank)]
    pairs = [
        (kind, a, b) for i, a in enumerate(loose) for b in loose[i + 1 :] if (kind := related(a, b))
    ]
    if pairs:
        kind, a, b = max(pairs, key=lambda p: rules.penalty(p[1], None) + rules.penalty(p[2], None))
        both = _("%(a)s and %(b)s") % {"a": name(a), "b": name(b)}
        if kind == "run":
            reasons.append(_("It keeps the %(cards)s towards a run.") % {"cards": both})
        else:
            reasons.append(_("It keeps the %(cards)s towards a set.") % {"cards": both})
    return reasons


def take_reasons(top: Card, hand: list[Card], wild_rank: int | None, rules: Rules) -> list[str]:
    """Why to take the top discard, in a sentence: the card of the hand it goes with towards a
    meld (the costliest; none when it is a wild, which goes with anything)."""
    if rules.is_wild(top, wild_rank):
        return []
    mates = [
        (kind, c) for c in hand if not rules.is_wild(c, wild_rank) and (kind := related(top, c))
    ]
    if not mates:
        return []
    kind, mate = max(mates, key=lambda m: rules.penalty(m[1], None))
    name = card_info(mate, wild_rank).name
    if kind == "run":
        return [_("It goes with your %(card)s towards a run.") % {"card": name}]
    return [_("It goes with your %(card)s towards a set.") % {"card": name}]


def choice_reasons(
    action: Action, hand: Sequence[Card], top: Card | None, wild_rank: int, rules: Rules
) -> list[str]:
    """Why a choice (the hard bot's, at the table's advice and in a game's review) is the
    stronger one, in a sentence each, from the seat's hand and the top discard it was offered:
    what a card taken goes with, what a throw keeps together, what drawing from the stock keeps
    that taking the top would break, that going out ends the round."""
    if isinstance(action, GoOut):
        return [_("Going out ends the round: you score 0 and the others keep what they hold.")]
    if isinstance(action, Draw):
        if top is None:
            return []
        if action.source == "discard":
            return take_reasons(top, list(hand), wild_rank, rules)
        return _stock_reasons(top, hand, wild_rank, rules)
    kept = list(hand)
    kept.remove(action.card)
    deadwood = arrange(kept, wild_rank, rules).deadwood
    return throw_reasons(action.card, kept, deadwood, wild_rank, rules)


def _stock_reasons(top: Card, hand: Sequence[Card], wild_rank: int, rules: Rules) -> list[str]:
    """Why to leave the top discard: it goes with none of the hand's cards, or taking it would
    mean throwing a card that is on its way to a meld with another (the throw that would leave
    the least)."""
    if rules.is_wild(top, wild_rank):
        return []
    natural = [c for c in hand if not rules.is_wild(c, wild_rank)]
    if not any(related(top, c) for c in natural):
        return [_("The %(card)s goes with none of your cards.") % {"card": _name(top, wild_rank)}]
    ranked = discard_order((*hand, top), wild_rank, rules, barred=(top.rank, top.suit))
    thrown = ranked[0][1]
    if rules.is_wild(thrown, wild_rank):
        return []
    mates = [(kind, c) for c in natural if c != thrown and (kind := related(thrown, c))]
    if not mates:
        return []
    kind, mate = max(mates, key=lambda m: rules.penalty(m[1], None))
    both = _("%(a)s and %(b)s") % {"a": _name(thrown, wild_rank), "b": _name(mate, wild_rank)}
    if kind == "run":
        return [_("Drawing from the stock keeps the %(cards)s towards a run.") % {"cards": both}]
    return [_("Drawing from the stock keeps the %(cards)s towards a set.") % {"cards": both}]


def _name(card: Card, wild_rank: int | None) -> str:
    return card_info(card, wild_rank).name
