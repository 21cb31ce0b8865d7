"""Email: what is recorded, what is sent (once), to whom, what it says, and the one-click
unsubscribe. The worker's part is played by calling the send service or task directly."""

import email.policy
import re
import smtplib
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.urls import reverse
from django.utils import timezone

from accounts.models import Preferences
from accounts.selectors import preferences_of
from accounts.services import preferences_update
from games import invitations, services, tasks
from games.engine import GameState, Rules
from games.errors import GameError
from games.models import Game, Notification, Seat
from games.notifications import compose, outbox, policy, presence, previews, tokens
from games.presentation import card_info
from tests.factories import UserFactory, play_one, started_game

pytestmark = pytest.mark.django_db


def two_people(**options):
    users = [UserFactory(), UserFactory()]
    game = started_game(users, **options)
    return game, users


def seat_to_move(game) -> Seat:
    game.refresh_from_db()
    return game.seats.select_related("user").get(index=game.to_move_seat)


def send_all(kind=None) -> list[str]:
    rows = Notification.objects.filter(status="pending")
    if kind:
        rows = rows.filter(kind=kind)
    return [
        outbox.notification_send(notification_id=pk) for pk in rows.values_list("pk", flat=True)
    ]


def play_turn(game):
    users = {s.index: s.user for s in game.seats.select_related("user")}
    play_one(game, users)
    play_one(game, users)


def html_of(message) -> str:
    return next(body for body, mimetype in message.alternatives if mimetype == "text/html")


def links_in(text: str) -> list[str]:
    return re.findall(r"https?://[^\s\"<>]+", text)


def local(url: str) -> str:
    return url.removeprefix("http://127.0.0.1:8000")


# -- 'your turn' -----------------------------------------------------------------------------


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


def test_the_your_turn_email_shows_the_players_own_table_and_links_back():
    game, _users = two_people(time_per_move_days=3)
    seat = seat_to_move(game)
    send_all()
    message = mail.outbox[0]
    assert message.subject == f"Your turn in game #{game.pk}"
    html, text = html_of(message), message.body
    state = GameState.from_dict(game.state)
    mine = {card_info(c).label for c in state.hands[seat.index]}
    theirs = {card_info(c).label for c in state.hands[1 - seat.index]}
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand"))
    assert set(hand_line.split(": ")[1].split()) == mine
    for label in theirs:  # one deck: no card of theirs can be shown as one of mine
        assert label not in text and label not in html
    assert "Round 1 of 11" in text and "3s are wild" in text and "due by" in text
    play_url = f"http://127.0.0.1:8000/games/{game.pk}/"
    assert play_url in text and f'href="{play_url}"' in html


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


def test_presence_is_written_at_most_every_ten_seconds():
    game, _users = two_people()
    seat = seat_to_move(game)
    now = timezone.now()
    presence.seat_record_presence(seat=seat, now=now)
    presence.seat_record_presence(seat=seat, now=now + timedelta(seconds=5))
    seat.refresh_from_db()
    assert seat.last_seen_at == now
    presence.seat_record_presence(seat=seat, now=now + timedelta(seconds=11))
    seat.refresh_from_db()
    assert seat.last_seen_at == now + timedelta(seconds=11)
    # Seen 31 s ago is not watching any more.
    assert not presence.is_watching(seat, now + timedelta(seconds=42))


def test_a_your_turn_mail_is_not_sent_once_the_player_has_moved():
    game, _users = two_people()
    play_turn(game)
    assert send_all() == ["moved_on", "sent"]


def test_your_turn_follows_the_preference_and_needs_an_address():
    host, guest = UserFactory(), UserFactory(email="")
    preferences_update(user=host, turn_mail=Preferences.TurnMail.DIGEST)
    started_game([host, guest])
    assert not Notification.objects.exists()


def test_no_mail_for_a_bot_and_the_bot_move_is_queued_instead():
    human = UserFactory()
    game = started_game([human], seat_count=2, bots="easy")
    rows = Notification.objects.filter(kind="your_turn")
    assert list(rows.values_list("user", flat=True)) == (
        [human.pk] if seat_to_move(game).user == human else []
    )


# -- sending: retries, headers, unsubscribe --------------------------------------------------


class FlakyBackend(EmailBackend):
    """A mail server that fails the first `failures` times (SMTP lies outside the machine)."""

    failures = 0

    def send_messages(self, messages):
        if FlakyBackend.failures > 0:
            FlakyBackend.failures -= 1
            raise smtplib.SMTPServerDisconnected("try later")
        return super().send_messages(messages)


@pytest.fixture
def flaky_mail(settings):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.FlakyBackend"}}
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


def test_every_mail_has_list_unsubscribe_headers_whose_one_click_post_works(client):
    game, _users = two_people()
    seat = seat_to_move(game)
    send_all()
    message = mail.outbox[0]
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert url in message.body and url in html_of(message)
    # A GET (a link scanner, say) changes nothing.
    page = client.get(local(url))
    assert page.status_code == 200 and "emails about your turns" in page.content.decode()
    assert preferences_of(seat.user).turn_mail == "each"
    # The mail client's one-click POST: no session, no CSRF token.
    client.logout()
    client.handler.enforce_csrf_checks = True
    response = client.post(
        local(url), "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert preferences_of(seat.user).turn_mail == "off"
    # And the next turn of theirs brings no mail.
    play_turn(game)
    play_turn(game)
    assert not Notification.objects.filter(user=seat.user, turn__gt=0).exists()


def test_the_list_unsubscribe_header_stays_readable_with_a_real_site_address(settings):
    settings.SITE_URL = "https://threethirteen-by-post.example.org"
    two_people()
    send_all()
    raw = mail.outbox[0].message(policy=email.policy.SMTP).as_bytes().decode()
    header = re.search(r"^List-Unsubscribe:(.*\r\n(?:[ \t].*\r\n)*)", raw, re.MULTILINE)[1]
    assert "=?" not in header
    assert header.strip() == mail.outbox[0].extra_headers["List-Unsubscribe"]
    assert header.strip().startswith("<https://threethirteen-by-post.example.org/u/")


def test_a_tampered_or_foreign_unsubscribe_token_does_nothing(client):
    user = UserFactory()
    token = tokens.unsubscribe_token(user, "reminders")
    tampered = reverse("unsubscribe", kwargs={"token": token[:-2] + "xx"})
    assert client.get(tampered).status_code == 404
    assert client.post(reverse("unsubscribe", kwargs={"token": "junk"})).status_code == 404
    user_id, _topic, mac = token.split(".")
    flipped = mac[:-1] + ("1" if mac.endswith("0") else "0")
    for forged in (f"{user_id}.t.{mac}", f"{user_id}.r.{flipped}", f"{UserFactory().pk}.r.{mac}"):
        with pytest.raises(GameError):
            tokens.unsubscribe(token=forged)
    assert preferences_of(user).reminders is True
    tokens.unsubscribe(token=token)
    assert preferences_of(user).reminders is False


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


def test_a_pending_mail_whose_task_was_lost_is_queued_again_once_in_a_while():
    two_people()
    row = Notification.objects.get()
    later = timezone.now() + timedelta(minutes=11)
    assert outbox.notifications_requeue_stale(now=later) == 1
    assert outbox.notifications_requeue_stale(now=later) == 0
    row.refresh_from_db()
    assert row.enqueued_at == later


# -- invitations, game over, digest ----------------------------------------------------------


def test_the_host_invites_a_player_by_name_or_email_once_and_the_link_opens_the_game(client):
    host, friend = UserFactory(), UserFactory(username="Friend")
    game = services.game_create(creator=host, rules=Rules(), seat_count=3, time_per_move_days=2)
    client.force_login(host)
    response = client.post(reverse("game_invite", kwargs={"game_id": game.pk}), {"who": "friend"})
    assert response.status_code == 302
    assert invitations.game_invite(game_id=game.pk, user=host, who="FRIEND") is None  # again
    again = invitations.game_invite(game_id=game.pk, user=host, who=friend.email)
    nobody = invitations.game_invite(game_id=game.pk, user=host, who="nobody@example.com")
    assert again.invitee is None and nobody.invitee is None  # recorded alike; no mail
    assert Notification.objects.filter(kind="invitation").count() == 1
    send_all()
    message = mail.outbox[0]
    assert message.to == [friend.email] and host.name in message.subject
    assert "2 days per move" in message.body
    join = next(link for link in links_in(message.body) if "/invite/" in link)
    client.force_login(friend)
    page = client.get(local(join), follow=True)
    assert page.status_code == 200 and "Take a seat" in page.content.decode()
    services.game_join(game_id=game.pk, user=friend)
    with pytest.raises(GameError, match="creator"):
        invitations.game_invite(game_id=game.pk, user=friend, who=host.username)


def test_an_invitation_to_a_seated_player_or_to_someone_who_declines_them_is_not_sent():
    host, guest, shy = UserFactory(), UserFactory(), UserFactory()
    preferences_update(user=shy, invitations=False)
    game = services.game_create(creator=host, rules=Rules(), seat_count=3)
    services.game_join(game_id=game.pk, user=guest)
    assert invitations.game_invite(game_id=game.pk, user=host, who=guest.username) is None
    # No mail for who wants none; the invitation still waits on their dashboard.
    assert invitations.game_invite(game_id=game.pk, user=host, who=shy.username).invitee == shy
    assert not Notification.objects.exists()


def test_an_invitation_mail_is_not_sent_once_the_player_declined():
    host, friend = UserFactory(), UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=3)
    invitation = invitations.game_invite(game_id=game.pk, user=host, who=friend.username)
    invitations.invitation_decline(invitation_id=invitation.pk, user=friend)
    assert send_all() == ["declined"] and not mail.outbox


def test_game_over_sends_each_person_the_ranking_and_the_scoresheet():
    game, users = two_people()
    loser = seat_to_move(game).user
    Notification.objects.all().delete()
    services.game_resign(game_id=game.pk, user=loser)
    rows = Notification.objects.filter(kind="game_over")
    assert sorted(rows.values_list("user", flat=True)) == sorted(u.pk for u in users)
    send_all()
    assert len(mail.outbox) == 2
    winner = next(u for u in users if u != loser)
    to_winner = next(m for m in mail.outbox if m.to == [winner.email])
    assert f"{winner.name} won" in to_winner.subject
    assert "you came 1st" in to_winner.body and "Scoresheet" in to_winner.body
    assert "(resigned)" in to_winner.body
    assert f"/games/{game.pk}/replay/" in html_of(to_winner)


def test_the_game_over_mail_says_1_point_not_1_points():
    user = UserFactory()
    context = previews.sample_context("game_over", user)
    context["my_total"] = 1
    for entry, total in zip(context["ranking"], (1, 2, 0), strict=True):
        entry["total"] = total
    _subject, text, html = compose.render_email("game_over", context)
    for body in (text, html):
        assert "1 points" not in body
        assert "with 1 point." in body and "2 points" in body and "0 points" in body


def test_a_daily_digest_replaces_per_turn_mail_and_goes_out_once_a_day(settings):
    settings.DIGEST_HOUR = 7
    player = UserFactory()
    preferences_update(user=player, turn_mail="digest")
    games = [started_game([player, UserFactory()]) for _ in range(3)]
    assert not Notification.objects.filter(user=player, kind="your_turn").exists()
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
        assert f"/games/{game.pk}/" in digest.body
    assert outbox.digests_queue(now=morning + timedelta(days=1, minutes=2)) == 1


# -- previews --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", Notification.Kind.values)
def test_each_email_renders_as_a_preview_in_the_browser_for_staff(client, kind):
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    html = client.get(reverse("mail_preview", kwargs={"kind": kind}))
    assert html.status_code == 200 and b"<html" in html.content
    assert "style-src 'self' 'unsafe-inline'" in html.headers["Content-Security-Policy"]
    text = client.get(reverse("mail_preview", kwargs={"kind": kind}) + "?format=text")
    assert text["Content-Type"].startswith("text/plain") and b"Unsubscribe" in text.content
    assert client.get(reverse("mail_preview_index")).status_code == 200


def test_previews_are_not_for_everyone(client):
    client.force_login(UserFactory())
    assert client.get(reverse("mail_preview", kwargs={"kind": "digest"})).status_code == 404
    client.force_login(UserFactory(is_staff=True))
    assert client.get(reverse("mail_preview", kwargs={"kind": "nonsense"})).status_code == 404


def test_a_notification_is_once_per_turn_by_constraint():
    game, users = two_people()
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Notification.objects.create(user=users[0], kind="reminder", game=game, turn=0, threshold=50)
        Notification.objects.create(user=users[0], kind="reminder", game=game, turn=0, threshold=50)
    with pytest.raises(IntegrityError), transaction.atomic():
        Notification.objects.create(user=users[0], kind="digest", game=game)
    assert Game.objects.filter(pk=game.pk).exists()


# -- mail that cannot go out -----------------------------------------------------------------


def test_a_name_with_a_line_break_from_before_the_check_still_gets_its_mail():
    game, users = two_people()
    mover = seat_to_move(game).user
    bob = next(u for u in users if u.pk != mover.pk)
    type(bob).objects.filter(pk=bob.pk).update(display_name="Bob\nSmith")
    services.game_resign(game_id=game.pk, user=mover)  # Bob wins: every subject names him
    send_all(kind="game_over")
    assert Notification.objects.filter(kind="game_over", status="sent").count() == 2
    assert [m.subject for m in mail.outbox] == [f"Game #{game.pk} is over: Bob Smith won"] * 2


def test_a_mail_no_retry_can_send_is_marked_failed_at_once():
    game, _users = two_people()
    to_move = seat_to_move(game).user
    type(to_move).objects.filter(pk=to_move.pk).update(email="a@example.com\nBcc: x@example.com")
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
