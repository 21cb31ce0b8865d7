"""The hard bot's advice at the table (games/selectors/advice.py): asked for on the player's
turn in a game against bots, it is the review's judge from the seat's own view; anywhere else it
is refused with a message, and asking changes nothing."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import Discard, GameState, GoOut
from games.engine.bots.review import ACCURATE_WITHIN, judge
from games.models import Game
from games.presentation import card_info
from games.selectors.advice import _hint_choice
from tests.factories import UserFactory, play_on, play_one, started_game
from tests.hidden import check

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def unlimited(settings):
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "move": (10**6, 60),
        "advice": (10**6, 60),
    }


def ask(client, game, version=None):
    url = reverse("game_advice", args=[game.pk])
    return client.get(
        url, {"v": game.version if version is None else version}, HTTP_HX_REQUEST="true"
    )


def named(html: str) -> set[str]:
    """The cards an answer names ("the 7 of hearts")."""
    found = re.findall(r"the (\w+ of \w+|(?:red|black) joker)", html, flags=re.I)
    return {name.lower() for name in found}


def test_the_advice_is_the_hard_levels_choice_and_names_only_what_the_seat_sees():
    person = UserFactory()
    game = started_game([person], bots="easy", seat_count=2)
    client = Client()
    client.force_login(person)
    seat = game.seats.get(user=person).index
    asked = agreed = reasoned = costed = 0
    while game.round_index < 3:
        game.refresh_from_db()
        if game.to_move_seat != seat:
            play_on(game, until=lambda g: g.to_move_seat == seat or g.round_index >= 3)
            continue
        view = GameState.from_dict(game.state).view(seat)
        response = ask(client, game)
        assert response.status_code == 200, response.content.decode()
        html = response.content.decode()
        assert check(response, game, seat, one_deck=True) > 0  # the hidden-information scan's
        decision = judge(view, _hint_choice(view))
        best = decision.best if decision else _hint_choice(view)
        card = best.card if isinstance(best, (Discard, GoOut)) else view.top_discard
        if getattr(best, "source", "") != "stock":
            assert card_info(card, view.wild_rank).name in html
        seen = [*view.hand, view.top_discard]
        visible = {card_info(c, None).name.lower() for c in seen if c}
        assert named(html) <= visible, (html, visible)
        agreed += "The hint agrees." in html
        reasoned += "goes with" in html or "keeps the" in html  # why, where the hint differs
        # What the hint's choice costs, in the review's words and measure (plain: no "after
        # your next draw"): the judge's cost of the hint's choice, in the seat's own points.
        assert "next draw" not in html
        cost = re.search(r"is expected to cost you about (\d+) points? this round", html)
        if (
            decision is not None
            and decision.cost >= ACCURATE_WITHIN
            and decision.best != decision.chosen
        ):
            assert cost and int(cost[1]) == round(decision.cost), html
            costed += 1
        else:
            assert cost is None
        asked += 1
        version = game.version
        play_one(game, {seat: person}, choose=lambda _legal, best=best: best)
        game.refresh_from_db()
        assert game.version == version + 1  # asking changed nothing; the move went in
    assert asked > 20 and 0 < agreed < asked and reasoned > 0 and costed > 0


@pytest.fixture
def duel():
    person = UserFactory()
    game = started_game([person], bots="easy", seat_count=2)
    game.refresh_from_db()
    if game.seats.get(index=game.to_move_seat).user != person:
        play_on(game, until=lambda g: g.seats.get(index=g.to_move_seat).user == person)
    client = Client()
    client.force_login(person)
    return game, person, client


def test_asking_is_refused_with_a_message_and_changes_nothing(duel, settings):
    game, person, client = duel
    before = game.version
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "advice": (1, 60)}
    assert ask(client, game).status_code == 200
    limited = ask(client, game)
    assert limited.status_code == 429 and "wait a minute" in limited.content.decode()
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "advice": (10**6, 60)}
    version = game.version
    stale = ask(client, game, version=version - 1)
    assert stale.status_code == 409 and "out of date" in stale.content.decode()
    assert ask(client, game, version="junk").status_code == 409

    people = started_game([UserFactory(), UserFactory()])
    mover = people.seats.get(index=people.to_move_seat).user
    other = Client()
    other.force_login(mover)
    refused = ask(other, people)
    assert refused.status_code == 403 and "in a game against bots" in refused.content.decode()
    game.refresh_from_db()
    assert game.version == before  # none of these changed the game
    assert "Ask the hard bot" not in other.get(reverse("game", args=[people.pk])).content.decode()

    play_one(game, {game.to_move_seat: person})  # drew
    game.refresh_from_db()
    play_one(game, {game.to_move_seat: person}, choose=lambda legal: legal[0])  # threw
    game.refresh_from_db()
    if game.seats.get(index=game.to_move_seat).user != person:
        waiting = ask(client, game)
        assert waiting.status_code == 409 and "not your turn" in waiting.content.decode()

    assert Client().get(reverse("game_advice", args=[game.pk])).status_code == 302  # log in
    stranger = Client()
    stranger.force_login(UserFactory())
    watching = ask(stranger, game)  # a listed game: they may watch it, not ask
    assert watching.status_code == 403 and "own turn" in watching.content.decode()


def test_the_table_offers_it_on_the_players_turn_in_a_game_against_bots(duel):
    game, _person, client = duel
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Ask the hard bot" in page and f"/games/{game.pk}/advice/?v={game.version}" in page
    play_on(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "Ask the hard bot" not in client.get(reverse("game", args=[game.pk])).content.decode()
    assert ask(client, game).status_code == 403
