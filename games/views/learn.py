"""Learning the game: the How to play page, its pictures drawn with the site's own cards and its
scores counted by the engine; and a practice game against an easy bot, one click away."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from .. import services
from ..engine import Rules, arrange, parse_cards
from ..forms import GameCreateForm
from ..presentation import cards_info

# (what the picture shows, its cards, the round's wild rank); tests/views/test_learn.py checks each
# against the engine.
MELD_EXAMPLES = [
    (_("A set: three or more cards of one rank."), "7S 7H 7D", None),
    (_("A run: three or more cards of one suit in sequence."), "4H 5H 6H 7H", None),
    (_("In the 5s round every 5 is wild: here it stands for the 10 of clubs."), "9C 5D JC", 5),
    (_("A wild completes a set too (the 3s round)."), "QS QD 3H", 3),
]
NOT_MELDS = [
    (_("Not a run: K-A-2 does not wrap around."), "KS AS 2S", None),
    (_("Not a run: the suits differ."), "8H 9S 10H", None),
]
# A hand at the end of a round (the 9s round): melds are taken out, the rest costs points.
SCORED_HAND = ("6D 7D 8D 9C QH QS QC 2S KD", 9)


def _pictures(examples) -> list[dict]:
    return [
        {"caption": caption, "cards": cards_info(parse_cards(text), wild_rank)}
        for caption, text, wild_rank in examples
    ]


def how_to_play(request):
    text, wild_rank = SCORED_HAND
    hand = parse_cards(text)
    scored = arrange(hand, wild_rank=wild_rank, rules=Rules())
    context = {
        "melds": _pictures(MELD_EXAMPLES),
        "not_melds": _pictures(NOT_MELDS),
        "scored_hand": cards_info(hand, wild_rank),
        "scored_melds": [cards_info(meld, wild_rank) for meld in scored.melds],
        "scored_left": cards_info(scored.deadwood, wild_rank),
        "scored_penalty": scored.penalty,
        "variants": GameCreateForm().variant_fields(),
    }
    return render(request, "games/how_to_play.html", context)


@login_required
@require_POST
def practice_start(request):
    """A two-player game against the easy bot, unlisted, without a clock, started at once."""
    game = services.game_practice_create(user=request.user)
    return redirect("game", game.pk)
