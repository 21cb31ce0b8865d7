"""A game's review as a page shows it (games/reviews.py makes it): a seat's decisions that cost
most first (with why the hard bot's choice was the stronger, and a link to the move in the
replay), each round's figures and hands after it ended, and the game's accuracy; and a player's
accuracy over their latest reviewed games, for the profile.

The figures (engine bots/review.py): a decision's cost is what it was expected to cost in the
player's own penalty points; a round's points given up are those costs added up, at most the
penalty it ended with, so the game's are at most the penalty of the rounds reviewed.

Who sees what: a person's review is shown to them from the end of each round (their own cards
at their own decisions, and the round's hands, which everyone saw at its end); to anyone else
only once the game is over, and only if it is listed (public). Bots are not reviewed."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum
from django.utils.translation import gettext as _

from accounts.models import User

from ..engine import Action, Card, Discard, Draw, RoundResult, Rules, action_from_dict
from ..models import PRICED_BEFORE, Game, RoundReview, Seat
from ..presentation import (
    card_info,
    cards_info,
    rank_plural,
    round_summary,
    round_wild_rank,
    sort_hand,
)
from .hints import choice_reasons
from .ratings import line_chart

COSTLY_SHOWN = 10  # the costliest decisions listed first
COSTLY_FROM = 1.0  # points: a decision that cost less is not listed (it counts as accurate)
CHART_GAMES = 30  # the profile's accuracy chart: the latest reviewed games


def may_see(game: Game, shown: Seat, viewer: Seat | None) -> bool:
    """Whether the viewer (their seat in the game, if any) may see `shown`'s review."""
    if shown.user.is_bot:
        return False
    if viewer is not None and viewer.pk == shown.pk:
        return True
    return game.status == Game.Status.FINISHED and game.is_public


def accuracy(judged: int, accurate: int) -> int | None:
    """The share of decisions within a point of the best, in percent (None: none judged)."""
    return round(100 * accurate / judged) if judged else None


def action_words(action: Action, wild_rank: int, top: Card | None) -> str:
    """A decision in words: "Took the 7 of hearts" (`top`: the discard it was offered), "Drew
    from the stock", "Threw the 9 of spades"."""
    if isinstance(action, Draw):
        if action.source == "stock":
            return _("Drew from the stock")
        assert top is not None, "a draw's decision keeps the top discard"
        return _("Took the %(card)s") % {"card": card_info(top, wild_rank).name}
    name = card_info(action.card, wild_rank).name
    if isinstance(action, Discard):
        return _("Threw the %(card)s") % {"card": name}
    return _("Went out, throwing the %(card)s") % {"card": name}


def _decision(data: dict[str, Any], rules: Rules, round_index: int) -> dict[str, Any]:
    """A stored decision as the page shows it; "move" is its number in the game (the replay's
    "Move n of N" after it), "why" is filled for the costliest (_with_reasons)."""
    wild = round_wild_rank(rules, round_index)
    chosen, best = action_from_dict(data["chosen"]), action_from_dict(data["best"])
    top = Card.from_token(data["top"]) if data["top"] else None
    hand = [Card.from_token(token) for token in data["hand"]]
    return {
        "move": data["i"] + 1,
        "round": round_index + 1,
        "wild": rank_plural(wild),
        "wild_rank": wild,
        "cards": hand,
        "best_action": best,
        "top_card": top,
        "hand": cards_info(sort_hand(hand, None, wild), wild),
        "top": card_info(top, wild) if top else None,
        "chosen": action_words(chosen, wild, top),
        "best": action_words(best, wild, top),
        "cost": data["cost"],
        "points": round(data["cost"]),
        "passed_out": data.get("out", False),
        "why": [],
    }


def _costly(decision: dict[str, Any]) -> bool:
    return bool(decision["cost"] >= COSTLY_FROM or decision["passed_out"])


def _with_reasons(decision: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The decision, with why the hard bot's choice was the stronger, in a sentence or two."""
    why = choice_reasons(
        decision["best_action"], decision["cards"], decision["top_card"], decision["wild_rank"],
        rules,
    )  # fmt: skip
    return {**decision, "why": why[:2]}


def review_page(game: Game, shown: Seat) -> dict[str, Any]:
    """What the review page shows of `shown`'s review (the caller checked may_see); the game
    as viewer.game_for_viewer reads it."""
    rules = Rules.from_dict(game.rules)
    names = [s.user.name for s in game.seats.all()]
    # A round stored priced the old way is waiting: the page asks for it again.
    stored = list(
        RoundReview.objects.filter(seat=shown).exclude(PRICED_BEFORE).order_by("round_index")
    )
    # The round results alone: the rest of the state (hands, stock, piles) is not read here.
    results = [RoundResult.from_dict(r) for r in (game.state or {}).get("round_results", ())]
    rounds, costly = [], []
    penalty = expected = 0.0
    for review in stored:
        decisions = [_decision(d, rules, review.round_index) for d in review.decisions]
        costly += [d for d in decisions if _costly(d)]
        result = next((r for r in results if r.round_index == review.round_index), None)
        round_penalty = result.penalties[shown.index] if result else None
        round_expected = sum(d["cost"] for d in decisions)
        penalty += round_penalty or 0
        expected += round_expected
        rounds.append(
            {
                "number": review.round_index + 1,
                "judged": review.judged,
                "accuracy": accuracy(review.judged, review.accurate),
                "lost": round(review.lost),
                "expected": round(round_expected),
                "penalty": round_penalty,
                "costly": [d for d in decisions if _costly(d)],
                "summary": round_summary(result, names) if result else None,
            }
        )
    costly.sort(key=lambda d: (-d["cost"], -d["passed_out"], d["move"]))
    judged = sum(r.judged for r in stored)
    return {
        "shown": shown,
        "rounds": rounds,
        "costly": [_with_reasons(d, rules) for d in costly[:COSTLY_SHOWN]],
        "judged": judged,
        "accurate": (accurate := sum(r.accurate for r in stored)),
        "accuracy": accuracy(judged, accurate),
        "lost": round(sum(r.lost for r in stored)),
        "expected": round(expected),
        "penalty": round(penalty),
        "waiting": len(results) - len(stored),
        "reviewable": [s for s in game.seats.all() if not s.user.is_bot],
    }


def accuracy_history(user: User, viewer: User) -> dict[str, Any]:
    """The player's accuracy in their latest reviewed finished games (listed games only, unless
    the viewer is the player), oldest first, with its chart: one query."""
    seats = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED, reviews__isnull=False)
    if viewer.pk != user.pk:
        seats = seats.filter(game__is_public=True)
    rows = list(
        seats.values("game_id", "index", "game__finished_at")
        .annotate(judged=Sum("reviews__judged"), accurate=Sum("reviews__accurate"))
        .order_by("-game__finished_at", "-game_id")[:CHART_GAMES]
    )
    rows.reverse()
    games = [
        {"game_id": row["game_id"], "seat": row["index"], "accuracy": share}
        for row in rows
        if (share := accuracy(row["judged"], row["accurate"])) is not None
    ]
    values: list[int] = [game["accuracy"] for game in games]
    return {
        "reviewed": games[::-1][:5],
        "accuracy_chart": line_chart(values),
        "accuracy_average": round(sum(values) / len(values)) if values else None,
    }
