"""Pushes through the outbox (games/notifications/push.py): recorded beside the mail, a row per
channel, sent once, under the same preferences and presence rules, to a fake push service served
on 127.0.0.1 by the test. The push service's answers decide: 201 delivered, 410 gone (the device
is forgotten), 503 busy (the task tries again). The requests are not decrypted: what is asserted
is that they were made, where, how often and signed how."""

import base64
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import PushSubscription
from accounts.services import preferences_update, push_subscription_save
from config.vapid import b64url, vapid_keys_new
from games import invitations, services, tasks
from games.deadlines.sweep import sweep
from games.models import Notification, Seat
from games.notifications import outbox, policy
from games.notifications.push import push_payload
from tests.deadlines.helpers import DAY, HOUR, timed_game, to_move
from tests.factories import GameFactory, UserFactory, started_game
from tests.notifications.helpers import play_turn, seat_to_move, send_all

pytestmark = pytest.mark.django_db


class FakePushService(ThreadingHTTPServer):
    """A push service on 127.0.0.1: records each POST and answers with the status set for its
    path (201 by default)."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), FakePushHandler)
        self.requests: list[dict] = []
        self.answers: dict[str, int] = {}

    def url(self, device: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/push/{device}"


class FakePushHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        service = self.server
        service.requests.append(
            {
                "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body,
            }
        )
        self.send_response(service.answers.get(self.path, 201))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):  # quiet
        pass


@pytest.fixture
def push_service():
    service = FakePushService()
    # shutdown() waits for the loop's next look at its flag: every 10 ms, not the default 0.5 s.
    thread = threading.Thread(target=service.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    yield service
    service.shutdown()
    service.server_close()


def device_for(user, service, name: str) -> str:
    """Turn notices on for `user` in a (made-up) browser whose push service is `service`."""
    push_subscription_save(
        user=user,
        endpoint=service.url(name),
        p256dh=vapid_keys_new()["public"],  # any P-256 point: the browser's key
        auth=b64url(os.urandom(16)),
    )
    return f"/push/{name}"


def people_with_devices(service, *names):
    """Two players, the first with a device per name, at a game started after (the first
    player's turn first)."""
    alice, bob = UserFactory(), UserFactory()
    paths = [device_for(alice, service, name) for name in names]
    game = started_game([alice, bob])
    Notification.objects.filter(kind__in=policy.SEAT_NEWS_KINDS).delete()  # the turns only
    if seat_to_move(game).user != alice:
        play_turn(game)
    return game, alice, paths


def push_rows(**filters):
    return Notification.objects.filter(channel="push", **filters)


def test_a_your_turn_push_is_recorded_beside_the_mail_and_sent_once(push_service, settings):
    _game, alice, [path] = people_with_devices(push_service, "phone")
    row = push_rows(user=alice, kind="your_turn").get()
    assert Notification.objects.filter(user=alice, kind="your_turn", channel="mail").exists()
    assert outbox.notification_send(notification_id=row.pk) == "sent"
    assert outbox.notification_send(notification_id=row.pk) == "done"
    assert outbox.notifications_requeue_stale(now=timezone.now()) == 0
    [request] = push_service.requests
    assert request["path"] == path
    headers = request["headers"]
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["ttl"] == str(settings.PUSH_TTL_SECONDS)
    assert headers["authorization"].startswith("vapid t=")
    assert f"k={settings.VAPID_PUBLIC_KEY}" in headers["authorization"]
    assert len(request["body"]) > 100  # encrypted, not the JSON in the clear
    assert b"play_url" not in request["body"] and b"game-" not in request["body"]
    row.refresh_from_db()
    assert (row.status, row.reason) == ("sent", "") and row.sent_at is not None


def test_one_row_reaches_every_device_of_the_player(push_service):
    _game, alice, paths = people_with_devices(push_service, "phone", "laptop")
    assert push_rows(user=alice).count() == 1
    assert send_all(kind="your_turn").count("sent") == 2  # the mail and the push
    assert sorted(r["path"] for r in push_service.requests) == sorted(paths)


def test_a_device_the_push_service_says_is_gone_is_forgotten(push_service):
    _game, alice, [gone, kept] = people_with_devices(push_service, "old-phone", "laptop")
    push_service.answers[gone] = 410
    row = push_rows(user=alice).get()
    assert outbox.notification_send(notification_id=row.pk) == "sent"  # the laptop took it
    assert [s.endpoint.endswith("laptop") for s in PushSubscription.objects.all()] == [True]
    # The last device gone too (404): the push has nowhere to go and is skipped, not retried.
    push_service.answers[kept] = 404
    play_turn_back_to(alice)
    later = push_rows(user=alice, status="pending").get()
    assert outbox.notification_send(notification_id=later.pk) == "no_device"
    later.refresh_from_db()
    assert (later.status, later.reason) == ("skipped", "no_device")
    assert not PushSubscription.objects.exists()
    assert [r["path"] for r in push_service.requests] == [gone, kept, kept]


def play_turn_back_to(user):
    seat = Seat.objects.filter(user=user).select_related("game").get()
    play_turn(seat.game)
    play_turn(seat.game)
    assert seat_to_move(seat.game).user == user


def test_a_busy_push_service_is_tried_again_by_the_task_until_it_takes_the_push(push_service):
    _game, alice, [path] = people_with_devices(push_service, "phone")
    push_service.answers[path] = 503
    row = push_rows(user=alice).get()
    with pytest.raises(policy.PushServiceBusy):
        outbox.notification_send(notification_id=row.pk)
    row.refresh_from_db()
    assert row.status == "pending"  # the task retries it; the sweep requeues a lost one
    push_service.answers[path] = 201
    assert tasks.send_notification.apply(args=(row.pk,)).get() == "sent"
    assert len(push_service.requests) == 2
    assert PushSubscription.objects.count() == 1  # busy is not gone


def test_a_push_service_that_never_recovers_leaves_the_push_failed(push_service):
    _game, alice, [path] = people_with_devices(push_service, "phone")
    push_service.answers[path] = 500
    row = push_rows(user=alice).get()
    result = tasks.send_notification.apply(args=(row.pk,))
    assert isinstance(result.result, policy.PushServiceBusy)
    row.refresh_from_db()
    assert (row.status, row.reason) == ("failed", "PushServiceBusy")
    assert len(push_service.requests) == tasks.send_notification.max_retries + 1


def test_no_push_row_without_a_device_or_with_the_switch_off(push_service):
    alice, bob = UserFactory(), UserFactory()
    device_for(bob, push_service, "phone")
    preferences_update(user=bob, push=False)
    started_game([alice, bob])
    assert not push_rows().exists()
    assert Notification.objects.filter(channel="mail").exists()


def test_the_push_switch_stands_for_turns_even_when_turn_mail_is_off(push_service):
    alice, bob = UserFactory(), UserFactory()
    device_for(alice, push_service, "phone")
    preferences_update(user=alice, turn_mail="off")
    game = started_game([alice, bob])
    if seat_to_move(game).user != alice:
        play_turn(game)
    mails = Notification.objects.filter(user=alice, channel="mail", kind="your_turn")
    assert list(mails.values_list("status", "reason")) == [("skipped", "preference")]
    assert push_rows(user=alice, kind="your_turn").exists()


def test_a_push_turned_off_after_it_was_recorded_is_skipped_when_its_task_runs(push_service):
    _game, alice, _paths = people_with_devices(push_service, "phone")
    row = push_rows(user=alice).get()
    preferences_update(user=alice, push=False)
    assert outbox.notification_send(notification_id=row.pk) == "preference"
    assert not push_service.requests


def test_a_your_turn_push_waits_while_the_player_watches_the_table_like_the_mail(push_service):
    game, alice, _paths = people_with_devices(push_service, "phone")
    Seat.objects.filter(game=game, user=alice).update(last_seen_at=timezone.now())
    assert send_all(kind="your_turn") == ["watching", "watching"]
    assert not push_service.requests and not mail.outbox
    preferences_update(user=alice, turn_mail_while_watching=True)
    assert send_all(kind="your_turn") == ["sent", "sent"]
    assert len(push_service.requests) == 1


def test_an_invitation_is_pushed_once_and_only_to_whoever_wants_invitations(push_service):
    host, guest, shy = UserFactory(), UserFactory(), UserFactory()
    device_for(guest, push_service, "guest")
    device_for(shy, push_service, "shy")
    preferences_update(user=shy, invitations=False)
    game = GameFactory(created_by=host, seat_count=3)
    for user in (guest, shy):
        invitations.game_invite(game_id=game.pk, user=host, who=user.username)
    invitations.game_invite(game_id=game.pk, user=host, who=guest.username)  # asked twice
    assert list(push_rows().values_list("user", "kind")) == [(guest.pk, "invitation")]
    row = push_rows().get()
    assert outbox.notification_send(notification_id=row.pk) == "sent"
    assert [r["path"] for r in push_service.requests] == ["/push/guest"]
    payload = push_payload(row)
    assert payload["url"].endswith(f"/invite/{game.invite_code}/")
    assert host.name in payload["title"]


def test_a_your_turn_push_tells_the_round_and_links_the_table_but_shows_no_card(push_service):
    game, alice, _paths = people_with_devices(push_service, "phone")
    payload = push_payload(push_rows(user=alice).get())
    assert set(payload) == {"title", "body", "url", "tag"}
    assert payload["url"].endswith(f"/games/{game.pk}/")
    assert f"#{game.pk}" in payload["title"] and "Round 1 of" in payload["body"]
    assert "♠" not in str(payload) and "♥" not in str(payload)


def test_decoded_keys_are_what_a_browser_gives():
    assert len(base64.urlsafe_b64decode(vapid_keys_new()["public"] + "=")) == 65


def test_a_reminder_is_pushed_once_per_threshold_beside_its_mail(push_service):
    game, _users = timed_game(days=2)
    seat, start = to_move(game), game.turn_started_at
    path = device_for(seat.user, push_service, "phone")
    assert sweep(now=start + DAY + HOUR).reminders == 1
    assert sweep(now=start + DAY + 2 * HOUR).reminders == 0
    assert sorted(send_all(kind="reminder")) == ["sent", "sent"]
    assert [r["path"] for r in push_service.requests] == [path]
    row = push_rows(kind="reminder").get()
    assert (row.user, row.threshold, row.status) == (seat.user, 50, "sent")
    assert "left for your move" in push_payload(row)["title"]


def test_the_host_away_from_the_waiting_room_gets_a_push_when_a_seat_is_taken(push_service):
    host = UserFactory()
    path = device_for(host, push_service, "phone")
    game = GameFactory(created_by=host, seat_count=3)
    services.game_join(game_id=game.pk, user=UserFactory(display_name="Joan"))
    row = push_rows(user=host, kind="joined").get()
    payload = push_payload(row)
    assert payload["title"] == f"Joan took a seat at game #{game.pk}"
    assert payload["body"] == "2 of 3 seats are taken." and payload["url"].endswith(f"/{game.pk}/")
    assert outbox.notification_send(notification_id=row.pk) == "sent"
    assert [r["path"] for r in push_service.requests] == [path]
