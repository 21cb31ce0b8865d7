"""The notice centre (games/selectors/notices.py, /notices/): what happened in the player's games
since they last looked, from the outbox's mail rows and the others' moves; the bar's count; a
fixed number of queries."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import preferences_update
from games import invitations
from games.engine import Rules
from games.models import Notification, RoundScore
from games.notifications.outbox import game_over_queue, timed_out_queue
from games.selectors.notices import _count_rows, last_looked, notice_count, notices
from tests.factories import GameFactory, UserFactory, play_on, play_one, started_game
from tests.notifications.helpers import play_turn, seat_to_move
from tests.views.helpers import a_game_where_the_other_moved

pytestmark = pytest.mark.django_db


def bar_count(client) -> int:
    page = client.get(reverse("lobby")).content.decode()
    found = re.search(r'href="/notices/">[^<]*<span class="count">(\d+)', page)
    return int(found.group(1)) if found else 0


def test_the_others_moves_and_my_turn_are_news_until_i_look(client):
    me, other = UserFactory(), UserFactory()
    game = a_game_where_the_other_moved(me, other)
    client.force_login(me)
    # One line for the game: the others' moves, saying it is my turn (no 'your turn' line
    # beside it, though the mail rows are there).
    assert Notification.objects.filter(user=me, kind="your_turn").exists()
    assert bar_count(client) == 1
    page = " ".join(client.get(reverse("notices")).content.decode().split())
    assert f"Game #{game.pk}: The others have played." in page and "your turn" in page
    assert "Your turn in game" not in page
    assert "Nothing new." not in page and "Earlier this week" not in page
    # Looked at: no count on the bar; the same news is now 'earlier'.
    assert bar_count(client) == 0
    again = " ".join(client.get(reverse("notices")).content.decode().split())
    new, earlier = again.split("Earlier this week")
    assert "Nothing new." in new and f"Game #{game.pk}: The others have played." in earlier


def test_a_turn_with_no_moves_before_it_is_told_by_its_your_turn_line_the_latest_only(client):
    game = started_game([UserFactory(), UserFactory()])
    first = seat_to_move(game).user
    client.force_login(first)
    assert bar_count(client) == 1
    assert f"Your turn in game #{game.pk}." in client.get(reverse("notices")).content.decode()
    # Reminders: only this turn's latest.
    for threshold in (50, 90):
        Notification.objects.create(
            user=first, game=game, kind="reminder", turn=0, threshold=threshold, status="skipped"
        )
    client.force_login(first)
    first.refresh_from_db()
    reminders = [n for n in notices(first)["new"] if n.kind == "reminder"]
    assert [n.detail for n in reminders] == [90] and notice_count(first) == 1


def test_my_own_moves_are_no_news_to_me():
    game = started_game([UserFactory(), UserFactory()])
    mover = seat_to_move(game).user
    play_turn(game)  # a draw and a discard
    waiting = seat_to_move(game).user
    assert [n for n in notices(mover)["new"] if n.kind == "moves"] == []
    (moves,) = [n for n in notices(waiting)["new"] if n.kind == "moves"]
    assert (moves.game, moves.rounds, moves.your_turn) == (game, (), True)


def test_a_games_news_is_the_rounds_over_and_who_went_out_not_a_count_of_moves(client):
    me, other = UserFactory(display_name="Mia"), UserFactory(display_name="Olga")
    game = started_game([me, other])
    play_on(game, until=lambda game: game.round_index == 2)
    outs = dict(
        RoundScore.objects.filter(game=game, went_out=True).values_list("round_index", "user")
    )
    said = {me.pk: "you went out", other.pk: "Olga went out"}
    client.force_login(me)
    page = " ".join(client.get(reverse("notices")).content.decode().split())
    assert (
        f"Game #{game.pk}: Round 1 is over: {said[outs[0]]}. Round 2 is over: {said[outs[1]]}."
        in page
    )
    assert "move" not in page.split("<main", 1)[-1].split("</main>")[0]


def test_invitations_timeouts_and_game_ends_are_listed_even_with_their_mail_turned_off(client):
    me, host = UserFactory(), UserFactory()
    preferences_update(user=me, invitations=False, reminders=False, game_over=False)
    open_game = GameFactory(created_by=host, seat_count=3)
    invitations.game_invite(game_id=open_game.pk, user=host, who=me.username)
    game = started_game([me, host])
    seat = game.seats.get(user=me)
    timed_out_queue(game=game, seat=seat)
    game_over_queue(game=game)
    assert not Notification.objects.filter(user=me, status="pending", kind="invitation")
    client.force_login(me)
    page = client.get(reverse("notices")).content.decode()
    assert f"{host.name} invited you to game #{open_game.pk}." in page
    assert f"/invite/{open_game.invite_code}/" in page
    assert f"Your time ran out in game #{game.pk}" in page
    assert f"Game #{game.pk} is over." in page


def test_news_from_before_the_week_before_the_last_look_is_gone():
    me, other = UserFactory(), UserFactory()
    a_game_where_the_other_moved(me, other)
    later = timezone.now() + timedelta(days=30)
    me.notices_seen_at = later - timedelta(days=1)
    assert notices(me, now=later) == {"new": [], "earlier": [], "seen": me.notices_seen_at}
    assert notice_count(me) == 0


def test_the_notice_centre_needs_a_login(client):
    response = client.get(reverse("notices"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.slow  # five rounds played
def test_many_rounds_over_are_told_as_a_span_then_the_last_two(client):
    """A player away for a whole game reads one line, not eleven sentences."""
    me, other = UserFactory(display_name="Mia"), UserFactory(display_name="Olga")
    game = started_game([me, other])
    play_on(game, until=lambda game: game.round_index == 5)
    client.force_login(me)
    page = " ".join(client.get(reverse("notices")).content.decode().split())
    assert f"Game #{game.pk}: Rounds 1\N{EN DASH}3 are over. Round 4 is over:" in page
    assert "Round 5 is over:" in page and "Round 3 is over" not in page


def test_a_round_that_ends_at_the_turn_limit_is_told_too(client):
    """Nobody went out: the round is over all the same, and the rounds after it follow on
    (round 2 was left out of "Round 1 … Round 3" when nobody went out in it)."""
    me, other = UserFactory(display_name="Mia"), UserFactory(display_name="Olga")
    game = started_game([me, other], rules=Rules(turn_limit=1))
    users = {seat.index: seat.user for seat in game.seats.select_related("user")}
    never_out = lambda actions: next(a for a in actions if type(a).__name__ != "GoOut")  # noqa: E731
    while game.round_index < 2:
        play_one(game, users, choose=never_out)
    assert not RoundScore.objects.filter(game=game, went_out=True).exists()
    client.force_login(me)
    page = " ".join(client.get(reverse("notices")).content.decode().split())
    assert (
        f"Game #{game.pk}: Round 1 is over: nobody went out before the turn limit. "
        "Round 2 is over: nobody went out before the turn limit." in page
    )


def test_the_bars_count_compiled_once_counts_as_the_orms_own_query_for_everyone():
    """notice_count runs a query compiled once with marks for the player and the last look: for
    players with news of both sources, with none, and before and after a look, it finds what
    the ORM's own query of the same sources finds."""
    me, other, idle = UserFactory(), UserFactory(), UserFactory()
    for _ in range(3):
        a_game_where_the_other_moved(me, other)
    game = started_game([idle, UserFactory()])
    Notification.objects.create(user=me, game=game, kind="reminder", turn=0, threshold=90)
    found = []
    for user in (me, other, idle):
        for look in (None, timezone.now() - timedelta(hours=1), timezone.now()):
            user.notices_seen_at = look
            expected = sum(_count_rows(user.pk, last_looked(user)).get())
            assert notice_count(user) == expected, (user, look)
            found.append(expected)
    assert max(found) >= 3 and min(found) == 0  # the marks were filled, and differently
