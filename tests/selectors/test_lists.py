"""The dashboard: what each row says (opponents, round, place and score, deadline), the tab title,
pages of finished games, and a fixed number of queries that never read a game's state."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, RoundScore, Seat
from games.selectors import lists
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def dashboard(client, user, **params):
    client.force_login(user)
    response = client.get(reverse("home"), params)
    assert response.status_code == 200
    return response.content.decode()


def title(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S)[1].strip()


def waiting_on(player, opponent, **options) -> Game:
    """A started two-player game whose first turn is `player`'s."""
    while True:
        game = started_game([player, opponent], **options)
        if game.seats.get(index=game.to_move_seat).user == player:
            return game
        services.game_resign(game_id=game.pk, user=opponent)  # not this one: finish it


def test_a_row_names_the_opponents_the_round_my_place_and_score_and_the_deadline(client):
    me = UserFactory(display_name="Me")
    sam = UserFactory(display_name="Sam")
    game = waiting_on(me, sam, time_per_move_days=2)
    Game.objects.filter(pk=game.pk).update(round_index=3)  # the column is what the row reads
    for user, penalty in ((me, 12), (sam, 5)):
        RoundScore.objects.create(
            game=game, round_index=0, seat=game.seats.get(user=user).index, user=user,
            hand_size=3, wild_rank=3, penalty=penalty, went_out=False, melds=[], deadwood=[],
        )  # fmt: skip
    html = dashboard(client, me)
    row = html[html.index(f'href="{reverse("game", args=[game.pk])}"') :]
    row = row[: row.index("</a>")]
    assert "Sam" in row and "Me" not in row
    assert "Round 4 of 11" in row
    assert "2nd, 12 points" in row
    assert "due 1\xa0day" in row
    assert title(html) == "(1) Your turn · 3·13"
    RoundScore.objects.filter(user=me).update(penalty=1)
    assert "1st, 1 point<" in dashboard(client, me)  # one point, not "1 points"


def test_no_zero_badge_when_nothing_waits_and_the_title_counts_the_games_waiting(client):
    me = UserFactory()
    html = dashboard(client, me)
    assert 'class="count"' not in html and title(html) == "My games"
    for _ in range(3):
        waiting_on(me, UserFactory())
    html = dashboard(client, me)
    assert title(html).startswith("(3) Your turn")
    assert '<span class="count">3</span>' in html
    assert f'href="{reverse("game_next")}">Next game (3 waiting on you)</a>' in html


def test_finished_games_come_twenty_a_page_and_junk_pages_are_never_a_500(client):
    me = UserFactory()
    for _ in range(23):
        game = started_game([me, UserFactory()])
        services.game_resign(game_id=game.pk, user=me)
    rematch = 'action="/games/'
    first = dashboard(client, me)
    assert first.count(rematch) == 20 and "Page 1 of 2" in first
    second = dashboard(client, me, page=2)
    assert second.count(rematch) == 3 and "Page 2 of 2" in second
    for junk in ("abc", "-1", "0", "99999", "1.5", "\uff12"):
        client.force_login(me)
        response = client.get(reverse("home"), {"page": junk})
        assert response.status_code in (200, 404)


def test_the_dashboard_says_when_no_turn_mail_can_come(client):
    """An older account without an address, and a new one whose address is not yet confirmed,
    are told that no mail will call them; a confirmed address hears nothing of it."""
    no_address = UserFactory(email="")
    assert "You have given no email address" in dashboard(client, no_address)
    unconfirmed = UserFactory(verified=False)
    html = dashboard(client, unconfirmed)
    assert f"Confirm your address {unconfirmed.email}" in html
    assert "Send the link again" in html
    confirmed = UserFactory()
    html = dashboard(client, confirmed)
    assert "Confirm your address" not in html and "no email address" not in html


# -- the next game waiting on the player -----------------------------------------------------


def test_the_next_game_is_the_most_urgent_waiting_on_the_player_besides_this_one():
    me = UserFactory()
    soon, later, old_turn, new_turn = (waiting_on(me, UserFactory()) for _ in range(4))
    not_mine = waiting_on(UserFactory(), me)  # the other player's turn
    now = timezone.now()
    for game, deadline, started in ((soon, 1, 5), (later, 2, 1), (old_turn, None, 3),
                                    (new_turn, None, 2), (not_mine, 0.5, 9)):  # fmt: skip
        Game.objects.filter(pk=game.pk).update(
            deadline=deadline and now + timedelta(days=deadline),
            turn_started_at=now - timedelta(days=started),
        )
    assert lists.next_game(me) == (soon.pk, 4)
    assert lists.next_game(me, besides=soon.pk) == (later.pk, 3)
    Game.objects.filter(pk__in=[soon.pk, later.pk]).update(deadline=None)
    assert lists.next_game(me, besides=old_turn.pk) == (soon.pk, 3)  # its turn the oldest
    assert lists.next_game(me, besides=soon.pk) == (old_turn.pk, 3)
    for game in (soon, later, old_turn, new_turn):
        services.game_resign(game_id=game.pk, user=me)
    assert lists.next_game(me) == (None, 0)


def test_the_dashboard_and_the_next_game_count_the_same_games_waiting_on_the_player():
    """A seat on autopilot is the bot's to move (it moves within seconds): neither the
    dashboard's "Your turn" nor the next game counts it."""
    me = UserFactory()
    mine, on_autopilot = (waiting_on(me, UserFactory()) for _ in range(2))
    Seat.objects.filter(game=on_autopilot, user=me).update(autopilot=True)
    dashboard = lists.dashboard(me, page=None)
    assert [row["game"].pk for row in dashboard["my_turn"]] == [mine.pk]
    assert lists.next_game(me) == (mine.pk, 1)
