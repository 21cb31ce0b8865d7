"""The sending policy (games/notifications/policy.py): which mail a player wants, whether it is
still wanted when its task runs, and how long a 'your turn' mail waits while its player watches."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import Preferences
from accounts.selectors import preferences_of
from accounts.services import preferences_update
from games import invitations, services
from games.engine import Rules
from games.models import Notification, Seat
from games.notifications import outbox, policy
from tests.factories import UserFactory, started_game
from tests.notifications.helpers import play_turn, seat_to_move, send_all, two_people

pytestmark = pytest.mark.django_db


def test_no_your_turn_mail_to_someone_watching_the_table_unless_they_asked_for_it(client):
    game, _users = two_people()
    seat = seat_to_move(game)
    client.force_login(seat.user)
    poll = reverse("game_table", kwargs={"game_id": game.pk}) + f"?v={game.version}"
    assert client.get(poll).status_code == 204
    seat.refresh_from_db()
    assert seat.last_seen_at is not None
    assert send_all() == ["watching"]
    assert not mail.outbox
    # Asking for it anyway: the next turn's mail goes out though they are looking.
    play_turn(game)
    other = seat_to_move(game)
    preferences_update(user=other.user, turn_mail_while_watching=True)
    Seat.objects.filter(pk=other.pk).update(last_seen_at=timezone.now())
    assert sorted(send_all()) == ["moved_on", "sent"]  # the first waited, and its turn passed


def test_a_your_turn_mail_to_a_watching_player_waits_pending_and_goes_out_when_they_leave(
    django_capture_on_commit_callbacks,
):
    game, _users = two_people()
    seat = seat_to_move(game)
    row = Notification.objects.get(kind="your_turn")
    now = timezone.now()
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=now)
    with django_capture_on_commit_callbacks() as queued:
        assert outbox.notification_send(notification_id=row.pk, now=now) == "watching"
    assert len(queued) == 1, "checked again later, by a new task"
    row.refresh_from_db()
    assert (row.status, row.reason) == ("pending", "watching") and not mail.outbox
    assert row.enqueued_at > now + timedelta(seconds=30)  # after the presence window
    # The sweep leaves it alone while its own check is due; the check then finds them gone.
    assert outbox.notifications_requeue_stale(now=now + timedelta(minutes=1)) == 0
    later = now + timedelta(seconds=31)
    assert outbox.notification_send(notification_id=row.pk, now=later) == "sent"
    row.refresh_from_db()
    assert (row.status, row.reason) == ("sent", "") and mail.outbox[0].to == [seat.user.email]
    assert outbox.notification_send(notification_id=row.pk, now=later) == "done"


def test_a_waiting_your_turn_mail_is_dropped_if_the_player_moves_meanwhile():
    game, _users = two_people()
    seat = seat_to_move(game)
    row = Notification.objects.get(kind="your_turn")
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=timezone.now())
    assert outbox.notification_send(notification_id=row.pk) == "watching"
    play_turn(game)
    later = timezone.now() + timedelta(minutes=1)
    assert outbox.notification_send(notification_id=row.pk, now=later) == "moved_on"
    row.refresh_from_db()
    assert row.status == "skipped" and not mail.outbox


def test_a_player_who_keeps_watching_is_checked_less_and_less_often_up_to_a_cap(settings):
    settings.PRESENCE_SECONDS = 30
    since = timezone.now()
    seat = Seat(last_seen_at=since)
    delay = policy.watching_recheck_delay
    assert delay(seat=seat, since=since, now=since) == 31  # the window, then one second
    waits = []
    now = since
    for _check in range(12):  # the player polls on, always seen just now
        seat.last_seen_at = now
        waits.append(delay(seat=seat, since=since, now=now))
        now += timedelta(seconds=waits[-1])
    assert waits == sorted(waits) and waits[3] > 2 * waits[0]
    assert max(waits) == policy.WATCHING_RECHECK_MAX.total_seconds()


def test_a_your_turn_mail_is_not_sent_once_the_player_has_moved():
    game, _users = two_people()
    play_turn(game)
    assert send_all() == ["moved_on", "sent"]


def test_your_turn_follows_the_preference_and_needs_an_address():
    host, guest = UserFactory(), UserFactory(email="")
    preferences_update(user=host, turn_mail=Preferences.TurnMail.DIGEST)
    started_game([host, guest])
    # Recorded (the notice centre lists it), not sent: whoever is to move wants no such mail.
    (row,) = Notification.objects.filter(kind="your_turn")
    assert (row.status, row.reason) in {("skipped", "preference"), ("skipped", "no_address")}


def test_the_preferences_page_saves_each_kind(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get(reverse("notification_preferences")).status_code == 200
    response = client.post(
        reverse("notification_preferences"),
        {"turn_mail": "digest", "reminders": "on", "game_over": "on"},
    )
    assert response.status_code == 302
    saved = preferences_of(user)
    assert (saved.turn_mail, saved.reminders, saved.invitations, saved.game_over) == (
        "digest",
        True,
        False,
        True,
    )
    bad = client.post(reverse("notification_preferences"), {"turn_mail": "hourly"})
    assert bad.status_code == 400


def test_an_invitation_to_a_seated_player_or_to_someone_who_declines_them_is_not_sent():
    host, guest, shy = UserFactory(), UserFactory(), UserFactory()
    preferences_update(user=shy, invitations=False)
    game = services.game_create(creator=host, rules=Rules(), seat_count=3)
    services.game_join(game_id=game.pk, user=guest)
    assert invitations.game_invite(game_id=game.pk, user=host, who=guest.username) is None
    # No mail for who wants none; the invitation still waits on their dashboard.
    assert invitations.game_invite(game_id=game.pk, user=host, who=shy.username).invitee == shy
    rows = Notification.objects.filter(kind="invitation").values_list("user", "status", "reason")
    assert list(rows) == [(shy.pk, "skipped", "preference")]


def test_an_invitation_mail_is_not_sent_once_the_player_declined():
    host, friend = UserFactory(), UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=3)
    invitation = invitations.game_invite(game_id=game.pk, user=host, who=friend.username)
    invitations.invitation_decline(invitation_id=invitation.pk, user=friend)
    assert send_all(kind="invitation") == ["declined"] and not mail.outbox
