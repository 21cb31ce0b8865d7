"""Whole games played through the pages, every response scanned for cards its viewer may not see:
the other players' hands, the stock, the discard pile below its top card (but for the cards
everyone saw go by this round)."""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import reviews, services
from games.engine import GameState, Rules, get_bot
from games.models import Game
from tests.factories import UserFactory, play_on, started_game
from tests.hidden import check
from tests.views.helpers import TABLE_ASKS, marks

pytestmark = [pytest.mark.hidden_info, pytest.mark.django_db]


def check_review(response, game: Game, viewer: int, one_deck: bool) -> int:
    """A review in play: the viewer's own, of rounds that have ended only (its decisions and the
    ended rounds' hands are data-past: everyone saw those hands at the round's end, and the
    decisions are the viewer's own), and nothing else of the page shows a hidden card."""
    assert response.status_code == 200
    shown = {int(n) for n in re.findall(r'data-round="(\d+)"', response.content.decode())}
    assert all(n <= game.round_index for n in shown), (shown, game.round_index)
    assert shown, "a review of the ended rounds"
    return check(response, game, viewer, one_deck)


@pytest.mark.slow  # a whole game, in three parts that run side by side under xdist
@pytest.mark.parametrize(
    ("rules", "players", "bots"),
    [(Rules(), 2, None), (Rules(jokers=True, redemption=True), 3, "easy")],
)
@pytest.mark.parametrize(("first", "last"), [(0, 3), (4, 7), (8, 10)], ids=lambda r: f"r{r}")
def test_no_response_carries_a_card_its_viewer_may_not_see(
    rules, players, bots, first, last, settings
):
    """Each part is a game of its own: its rounds before `first` are played through the services
    unscanned, then every response of rounds `first` to `last` is scanned."""
    # A whole game in seconds is far past the moves a person makes a minute (games/ratelimit.py).
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": (10**6, 60)}
    humans = [UserFactory() for _ in range(2)]
    game = started_game(humans, rules=rules, bots=bots, seat_count=players)
    play_on(game, until=lambda game: game.round_index >= first, level="medium")
    rounds = rules.round_count
    one_deck = rules.deck_count(players) == 1 and not rules.jokers
    clients = {}
    held = {}  # what each player's page holds (#table-marks), which it sends as a browser does
    parts = []  # the answers that were the table's parts

    def asked(seat, response):
        if response.get("HX-Reswap") == "none":
            parts.append(response)
        held[seat] = marks(response) or held.get(seat, {})
        return response

    for seat in game.seats.select_related("user"):
        if not seat.user.is_bot:
            clients[seat.index] = Client()
            clients[seat.index].force_login(seat.user)
    spectator = Client()
    spectator.force_login(UserFactory())
    table, poll = reverse("game", args=[game.pk]), reverse("game_table", args=[game.pk])
    history = reverse("game_history", args=[game.pk])
    review = reverse("game_review", args=[game.pk])
    advice = reverse("game_advice", args=[game.pk])
    reviewed_round = game.round_index
    checked = 0
    rng = random.Random(players)

    for step in range(100_000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or game.round_index > last:
            break
        for seat, client in clients.items():  # everyone looks, as a player would between turns
            # (The mover's own moves are checked at every step: their answers, below.)
            if step % 7 == 0 or (seat == game.to_move_seat and step % 4 == 0):
                checked += check(asked(seat, client.get(table)), game, seat, one_deck)
            if step % 11 == 0:
                checked += check(client.get(poll, {"v": 0}), game, seat, one_deck)
            if step % 5 == 0 and held.get(seat):  # the table's own poll: its parts
                response = asked(seat, client.get(poll, held[seat], **TABLE_ASKS))
                checked += check(response, game, seat, one_deck)
            if step % 10 == 0:  # the history holds every move so far: a later look sees it too
                checked += check(client.get(history), game, seat, one_deck)
        if step % 13 == 0:
            checked += check(spectator.get(table), game, None, one_deck)
        if game.round_index != reviewed_round:  # a round ended: its review, as the task makes it
            reviewed_round = game.round_index
            reviews.game_review(game_id=game.pk)
            for seat, client in clients.items():
                checked += check_review(client.get(review), game, seat, one_deck)
            assert spectator.get(review).status_code == 403  # no one else's, while it is on
        mover = game.to_move_seat
        if step % 9 == 0 and mover in clients:  # the hard bot's advice: not in a game of people
            refused = clients[mover].get(advice, {"v": game.version})
            assert refused.status_code == 403
            checked += check(refused, game, mover, one_deck)
        if mover not in clients:
            assert services.bot_play_turn(game_id=game.pk, version=game.version)
            continue
        # Mostly good play, so rounds end by going out; now and then any legal action.
        state = GameState.from_dict(game.state)
        if step % 8:
            choice = get_bot("medium").choose(state.view(mover), rng).to_dict()
        else:
            choice = rng.choice(state.legal_actions()).to_dict()
        name = {"draw": "move_draw", "discard": "move_discard", "go_out": "move_go_out"}
        data = {**held.get(mover, {}), "version": game.version,
                "source": choice.get("source", ""), "card": choice.get("card", "")}  # fmt: skip
        response = clients[mover].post(
            reverse(name[choice["type"]], args=[game.pk]), data, **TABLE_ASKS
        )
        asked(mover, response)
        assert response.status_code == 200, response.content.decode()[:500]
        checked += check(response, game, mover, one_deck)
    game.refresh_from_db()
    assert game.status == (Game.Status.FINISHED if last >= rounds - 1 else Game.Status.ACTIVE)
    assert checked > 1000  # the scan saw many hidden cards, so it could have caught a leak
    assert len(parts) > 50  # and many answers in parts
