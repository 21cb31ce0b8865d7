"""The outbox (games/notifications/outbox.py): each mail recorded once, sent by its task with
retries and backoff, marked failed when it cannot go, and queued again when its task was lost.
The worker's part is played by calling the send service or task directly."""

import smtplib
from datetime import UTC, datetime, timedelta

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.utils import timezone

from accounts.services import preferences_update
from games import tasks
from games.models import Game, Notification
from games.notifications import outbox, policy
from games.notifications.reply_tokens import TurnRef, reply_address
from tests.factories import UserFactory, play_on, play_one, started_game
from tests.notifications.helpers import play_turn, seat_to_move, send_all, two_people

pytestmark = pytest.mark.django_db


def test_your_turn_is_recorded_when_a_persons_turn_begins_and_sent_once():
    game, _users = two_people()
    first = seat_to_move(game)
    row = Notification.objects.get(kind="your_turn")
    assert (row.user, row.game, row.turn, row.status) == (first.user, game, 0, "pending")
    assert send_all() == ["sent"]
    assert outbox.notification_send(notification_id=row.pk) == "done"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [first.user.email]
    play_one(game, {first.index: first.user})  # drawing does not start a new turn
    assert Notification.objects.filter(kind="your_turn").count() == 1
    play_one(game, {first.index: first.user})
    second = seat_to_move(game)
    assert list(
        Notification.objects.filter(kind="your_turn", status="pending").values_list("user", "turn")
    ) == [(second.user_id, 2)]


def test_no_mail_for_a_bot_and_the_bot_move_is_queued_instead():
    human = UserFactory()
    game = started_game([human], seat_count=2, bots="easy")
    rows = Notification.objects.filter(kind="your_turn")
    assert list(rows.values_list("user", flat=True)) == (
        [human.pk] if seat_to_move(game).user == human else []
    )


class FlakyBackend(EmailBackend):
    """A mail server that fails the first `failures` times (SMTP lies outside the machine)."""

    failures = 0

    def send_messages(self, messages):
        if FlakyBackend.failures > 0:
            FlakyBackend.failures -= 1
            raise smtplib.SMTPServerDisconnected("try later")
        return super().send_messages(messages)


@pytest.fixture
def flaky_mail(settings, monkeypatch):
    """The flaky server, taking every mail until the test sets how many times it fails (the count
    is put back after the test, so no failure is left over for the next one)."""
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.FlakyBackend"}}
    monkeypatch.setattr(FlakyBackend, "failures", 0)
    return FlakyBackend


def test_the_send_task_retries_with_backoff_until_the_server_takes_the_mail(flaky_mail):
    two_people()
    row = Notification.objects.get()
    flaky_mail.failures = 2
    result = tasks.send_notification.apply(args=(row.pk,))
    assert result.get() == "sent"
    row.refresh_from_db()
    assert row.status == "sent" and len(mail.outbox) == 1
    delays = [policy.retry_delay(n) for n in range(10)]
    assert delays[0] < delays[3] < delays[9] <= 3600 * 1.2


def test_a_mail_the_server_never_takes_is_marked_failed(flaky_mail):
    two_people()
    row = Notification.objects.get()
    flaky_mail.failures = 100
    result = tasks.send_notification.apply(args=(row.pk,))
    assert isinstance(result.result, smtplib.SMTPServerDisconnected)
    row.refresh_from_db()
    assert (row.status, row.reason) == ("failed", "SMTPServerDisconnected")
    assert not mail.outbox


def test_a_pending_mail_whose_task_was_lost_is_queued_again_once_in_a_while():
    two_people()
    row = Notification.objects.get()
    later = timezone.now() + timedelta(minutes=11)
    assert outbox.notifications_requeue_stale(now=later) == 1
    assert outbox.notifications_requeue_stale(now=later) == 0
    row.refresh_from_db()
    assert row.enqueued_at == later


def test_a_daily_digest_replaces_per_turn_mail_and_goes_out_once_a_day(settings):
    settings.DIGEST_HOUR = 7
    player = UserFactory()
    preferences_update(user=player, turn_mail="digest")
    games = [started_game([player, UserFactory()]) for _ in range(3)]
    turns = Notification.objects.filter(user=player, kind="your_turn")
    assert set(turns.values_list("status", "reason")) <= {("skipped", "preference")}
    waiting = [g for g in games if seat_to_move(g).user == player]
    for game in games:
        if game not in waiting:
            play_turn(game)
    morning = datetime.now(UTC).replace(hour=6, minute=59)
    assert outbox.digests_queue(now=morning) == 0
    assert outbox.digests_queue(now=morning + timedelta(minutes=2)) == 1
    assert outbox.digests_queue(now=morning + timedelta(hours=5)) == 0
    send_all("digest")
    digest = next(m for m in mail.outbox if m.to == [player.email])
    assert digest.subject == "3 games are waiting for your move"
    for game in games:
        game.refresh_from_db()
        assert f"/games/{game.pk}/" in digest.body
        # each game with the address that plays its turn by mail (games/mailplay/)
        address = reply_address(TurnRef(game.pk, game.to_move_seat, game.version))
        assert f"Or write your move to {address}" in digest.body
    assert outbox.digests_queue(now=morning + timedelta(days=1, minutes=2)) == 1


def test_a_notification_is_once_per_turn_by_constraint():
    game, users = two_people()
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Notification.objects.create(user=users[0], kind="reminder", game=game, turn=0, threshold=50)
        Notification.objects.create(user=users[0], kind="reminder", game=game, turn=0, threshold=50)
    with pytest.raises(IntegrityError), transaction.atomic():
        Notification.objects.create(user=users[0], kind="digest", game=game)
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_mail_no_retry_can_send_is_marked_failed_at_once():
    game, _users = two_people()
    to_move = seat_to_move(game).user
    bad = "a@example.com\nBcc: x@example.com"
    type(to_move).objects.filter(pk=to_move.pk).update(email=bad)
    EmailAddress.objects.filter(user=to_move).update(email=bad)
    row = Notification.objects.get(kind="your_turn")
    with pytest.raises(ValueError):
        tasks.send_notification.apply(args=[row.pk], throw=True)
    row.refresh_from_db()
    assert row.status == "failed" and row.reason and not mail.outbox


def test_a_killed_workers_mail_is_queued_again_about_a_minute_after_it_was_due(settings):
    """A worker killed holding a 'your turn' task (held until its countdown, unacknowledged)
    returns it only after the broker's visibility timeout (an hour): the sweep, every 30 s,
    takes up a mail a minute overdue, so it still goes out while the turn is the player's."""
    settings.YOUR_TURN_MAIL_DELAY_SECONDS = 15
    two_people()
    row = Notification.objects.get(kind="your_turn")
    due = row.created_at + timedelta(seconds=15)
    assert abs((row.enqueued_at - due).total_seconds()) < 2
    assert outbox.notifications_requeue_stale(now=due + timedelta(seconds=30)) == 0
    assert outbox.notifications_requeue_stale(now=due + timedelta(seconds=61)) == 1
    assert send_all() == ["sent"]


def test_a_mail_waiting_out_a_retry_is_not_queued_again_by_the_sweep_meanwhile():
    two_people()
    row = Notification.objects.get(kind="your_turn")
    outbox.notification_postpone(notification_id=row.pk, seconds=1800)
    later = timezone.now() + timedelta(minutes=20)
    assert outbox.notifications_requeue_stale(now=later) == 0


def test_no_game_over_mail_to_the_player_whose_resignation_ended_the_game():
    from games import services

    me = UserFactory()
    practice = services.game_practice_create(user=me)
    services.game_resign(game_id=practice.pk, user=me)
    game, (a, b) = two_people()
    services.game_resign(game_id=game.pk, user=b)
    send_all()
    assert [m.to for m in mail.outbox] == [[a.email]]  # the one still playing hears the end
    own = Notification.objects.filter(kind="game_over", user__in=[me, b])
    assert sorted(own.values_list("status", "reason")) == [("skipped", "own_action")] * 2


def test_the_host_hears_who_joined_or_declined_unless_at_the_waiting_room():
    from games import invitations, services
    from games.engine import Rules

    host, joiner, shy = UserFactory(), UserFactory(display_name="Joan"), UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=3, is_public=False)
    invitation = invitations.game_invite(game_id=game.pk, user=host, who=shy.username)
    services.game_join(game_id=game.pk, user=joiner, invite_code=game.invite_code)
    Notification.objects.filter(kind="invitation").delete()
    assert send_all() == ["sent"]
    assert mail.outbox[-1].to == [host.email]
    assert mail.outbox[-1].subject == f"Joan took a seat at game #{game.pk}"
    assert "2 of 3 seats are taken." in mail.outbox[-1].body
    # The host at the waiting room (its poll is their presence) sees it there: no mail.
    game.seats.filter(user=host).update(last_seen_at=timezone.now())
    invitations.invitation_decline(invitation_id=invitation.pk, user=shy)
    assert send_all() == ["seen"]
    row = Notification.objects.get(kind="declined", channel="mail")
    assert (row.user, row.player) == (host, shy)


def test_the_host_of_a_full_game_that_waits_for_them_is_told_to_start_it():
    from games import services
    from games.engine import Rules

    host = UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=2, start_when_full=False)
    services.game_join(game_id=game.pk, user=UserFactory(), invite_code=game.invite_code)
    assert send_all() == ["sent"]
    assert "Every seat is taken: the game waits for you to start it." in mail.outbox[0].body


@pytest.mark.slow  # a whole game
def test_a_game_played_to_its_end_sends_its_summary_to_every_person_the_last_mover_too():
    """A resignation is its author's own end; a game played out is everyone's, and its summary
    (the final ranking and scoresheet) is a record worth a mail, whoever made the last move."""
    game, _users = two_people()
    play_on(game)
    assert game.end_reason == "completed"
    rows = dict(Notification.objects.filter(kind="game_over").values_list("user", "reason"))
    assert rows == {seat.user_id: "" for seat in game.seats.all()}
