"""The moderation queue (games/moderation.py, games/views/moderation.py): players report
messages and players; staff with the permission `games.moderate` see the reports grouped by
player and take measures, each logged, told to the player by mail in their language, and
enforced (a hidden message, a mute, a name, a suspension, a closed account). Without the
permission every page and every measure is refused, and nothing changes."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from accounts.models import User
from games import chat, moderation, services
from games.competitions import quick
from games.errors import GameError
from games.models import ChatReport, Game, ModerationAction, Notification, PlayerReport, Seat
from games.selectors.chat import HIDDEN
from tests.factories import GameFactory, UserFactory, started_game
from tests.notifications.helpers import send_all

pytestmark = pytest.mark.django_db

Kind = ModerationAction.Kind
PASSWORD = "correct horse battery"


def moderator(**fields) -> User:
    """A staff member with the queue's permission only (not a superuser)."""
    user = UserFactory(is_staff=True, **fields)
    user.user_permissions.add(Permission.objects.get(codename="moderate"))
    return User.objects.get(pk=user.pk)  # a fresh object: permissions are cached per instance


def browser_of(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


@pytest.fixture
def scene():
    """Tom wrote in a game's chat with Ann; Ann reported his message and reported him."""
    ann = UserFactory(username="ann", display_name="Ann")
    tom = UserFactory(username="tom", display_name="Tom", language="nl")
    game = started_game([ann, tom])
    chat.chat_post(game_id=game.pk, user=ann, text="good luck")
    rude = chat.chat_post(game_id=game.pk, user=tom, text="you play like a potato")
    chat.chat_post(game_id=game.pk, user=ann, text="that was uncalled for")
    chat.chat_report(message=rude, user=ann)
    moderation.player_report(reporter=ann, player=tom, reason="stalling", note="waits 3 days")
    return {"ann": ann, "tom": tom, "game": game, "rude": rude, "staff": moderator()}


def measure(scene, kind, **extra):
    data = {"kind": kind, "reason": "Insults in the chat.", **extra}
    if kind in (Kind.MUTE, Kind.SUSPEND):
        data.setdefault("days", 3)
    if kind == Kind.HIDE:
        data.setdefault("message", scene["rude"].pk)
    return browser_of(scene["staff"]).post(reverse("moderation_case", args=["tom"]), data)


def test_a_player_reports_another_from_their_page(scene):
    ann, tom = scene["ann"], scene["tom"]
    page = browser_of(ann).get(reverse("player", args=["tom"])).content.decode()
    assert "Report this player" in page and reverse("player_report", args=["tom"]) in page
    sent = browser_of(ann).post(reverse("player_report", args=["tom"]), {"reason": "name"})
    assert sent.status_code == 302
    assert PlayerReport.objects.filter(reporter=ann, player=tom, reason="name").count() == 1
    browser_of(ann).post(reverse("player_report", args=["tom"]), {"reason": "name"})
    assert PlayerReport.objects.filter(reporter=ann, player=tom, reason="name").count() == 1
    refused = {
        "junk": browser_of(ann).post(reverse("player_report", args=["tom"]), {"reason": "hat"}),
        "self": browser_of(tom).post(reverse("player_report", args=["tom"]), {"reason": "name"}),
        "long": browser_of(ann).post(
            reverse("player_report", args=["tom"]), {"reason": "name", "note": "x" * 501}
        ),
    }
    assert {why: r.status_code for why, r in refused.items()} == {
        "junk": 400,
        "self": 400,
        "long": 400,
    }


def test_the_queue_lists_reported_players_with_the_message_in_its_context(scene):
    staff = browser_of(scene["staff"])
    queue = staff.get(reverse("moderation_queue"))
    assert queue.status_code == 200
    [row] = queue.context["rows"]
    assert (row["player"], row["chat"], row["players"]) == (scene["tom"], 1, 1)
    case = staff.get(reverse("moderation_case", args=["tom"])).content.decode()
    # The reported message between the one before and the one after it.
    assert case.index("good luck") < case.index("you play like a potato")
    assert case.index("you play like a potato") < case.index("that was uncalled for")
    assert "waits 3 days" in case and "Stalling" in case


@pytest.mark.parametrize("who", ["player", "staff_without_permission", "permission_not_staff"])
def test_every_measure_is_refused_without_the_permission(scene, who):
    someone = UserFactory(is_staff=who == "staff_without_permission")
    if who == "permission_not_staff":  # the permission alone, on an account that is not staff
        someone.user_permissions.add(Permission.objects.get(codename="moderate"))
        someone = User.objects.get(pk=someone.pk)
    browser = browser_of(someone)
    before = User.objects.filter(pk=scene["tom"].pk).values().get()
    assert browser.get(reverse("moderation_queue")).status_code == 403
    assert browser.get(reverse("moderation_case", args=["tom"])).status_code == 403
    for kind in Kind.values:  # each measure, by its page and by the service itself
        data = {"kind": kind, "reason": "x", "days": 3, "message": scene["rude"].pk}
        response = browser.post(reverse("moderation_case", args=["tom"]), data)
        assert response.status_code == 403, kind
        with pytest.raises(PermissionDenied):
            moderation.act(staff=someone, player=scene["tom"], kind=kind, reason="x", days=3)
    assert not ModerationAction.objects.exists()
    assert User.objects.filter(pk=scene["tom"].pk).values().get() == before
    assert ChatReport.objects.filter(resolved=False).count() == 1
    assert PlayerReport.objects.filter(resolved=False).count() == 1


@pytest.mark.parametrize("kind", [k for k in Kind.values if k != Kind.DISMISS])
def test_each_measure_is_logged_resolves_the_reports_and_is_mailed_in_the_players_language(
    scene, kind
):
    assert measure(scene, kind).status_code == 302
    action = ModerationAction.objects.get()
    assert (action.player, action.staff, action.kind) == (scene["tom"], scene["staff"], kind)
    assert action.reason == "Insults in the chat."
    # A warning leaves the case open for another measure (below); hiding a message settles
    # that message's reports only.
    assert ChatReport.objects.filter(resolved=False).exists() == (kind == Kind.WARN)
    if kind not in (Kind.HIDE, Kind.WARN):
        assert not PlayerReport.objects.filter(resolved=False).exists()
    send_all(Notification.Kind.MODERATION)
    [message] = [m for m in mail.outbox if m.to == [scene["tom"].email]]
    assert "Insults in the chat." in message.body
    assert "Hallo Tom" in message.body  # Dutch, Tom's language
    assert "List-Unsubscribe" not in message.extra_headers  # no one unsubscribes from this
    history = browser_of(scene["staff"]).get(reverse("moderation_case", args=["tom"]))
    assert "Insults in the chat." in history.content.decode()
    # The notice centre leaves it to the mail (it is about no game), and still shows.
    tom = User.objects.get(pk=scene["tom"].pk)
    if tom.is_active:
        assert browser_of(tom).get(reverse("notices")).status_code == 200


def test_after_a_warning_the_case_stays_open_for_another_measure(scene):
    """A warning leaves the reports open: the moderator is back at the case, where the reported
    message can still be hidden and another measure taken; the last one closes the case."""
    staff = browser_of(scene["staff"])
    case = reverse("moderation_case", args=["tom"])
    warned = staff.post(case, {"kind": Kind.WARN, "reason": "Mind your words."}, follow=True)
    assert warned.redirect_chain == [(case, 302)]
    page = warned.content.decode()
    assert "Done: Warn." in page and "you play like a potato" in page
    assert 'value="hide"' in page
    assert [row["player"] for row in moderation.queue(staff=scene["staff"])] == [scene["tom"]]
    hidden = measure(scene, Kind.HIDE)
    assert hidden.status_code == 302 and hidden.url == case  # Tom's report is still open
    muted = measure(scene, Kind.MUTE)
    assert muted.status_code == 302 and muted.url == reverse("moderation_queue")
    kinds = list(ModerationAction.objects.order_by("created_at").values_list("kind", flat=True))
    assert kinds == [Kind.WARN, Kind.HIDE, Kind.MUTE]
    assert not moderation.queue(staff=scene["staff"])


def test_dismissing_resolves_the_reports_and_tells_no_one(scene):
    assert measure(scene, Kind.DISMISS).status_code == 302
    assert not ChatReport.objects.filter(resolved=False).exists()
    assert not PlayerReport.objects.filter(resolved=False).exists()
    assert not Notification.objects.filter(kind=Notification.Kind.MODERATION).exists()


def test_a_hidden_message_keeps_its_place_not_its_text(scene, client):
    measure(scene, Kind.HIDE)
    for viewer in (scene["ann"], scene["tom"]):
        page = browser_of(viewer).get(reverse("game_chat", args=[scene["game"].pk]))
        text = page.content.decode()
        with translation.override(viewer.language):
            assert "potato" not in text and escape(str(HIDDEN)) in text
        assert "good luck" in text


def test_a_muted_player_reads_the_chat_but_writes_nothing_until_the_end(scene):
    measure(scene, Kind.MUTE, days=2)
    with pytest.raises(GameError) as refused:
        chat.chat_post(game_id=scene["game"].pk, user=User.objects.get(username="tom"), text="hi")
    assert refused.value.status == 403 and "muted" in refused.value.message
    # The table and the chat's page show why, in place of the box to write in.
    for url in (
        reverse("game", args=[scene["game"].pk]),
        reverse("game_chat", args=[scene["game"].pk]),
    ):
        page = browser_of(User.objects.get(username="tom")).get(url).content.decode()
        assert 'name="text"' not in page
        with translation.override("nl"):
            assert (
                str(_("A moderator muted you in the chats until %(until)s.")).split("%")[0] in page
            )
    User.objects.filter(username="tom").update(chat_muted_until=timezone.now())
    page = browser_of(User.objects.get(username="tom")).get(
        reverse("game", args=[scene["game"].pk])
    )
    assert 'name="text"' in page.content.decode()
    chat.chat_post(game_id=scene["game"].pk, user=User.objects.get(username="tom"), text="sorry")


def test_a_name_change_hides_the_name_until_the_player_picks_another(scene):
    measure(scene, Kind.RENAME)
    tom = User.objects.get(username="tom")
    assert tom.name == f"player {tom.pk}"
    page = browser_of(scene["ann"]).get(reverse("game", args=[scene["game"].pk])).content.decode()
    assert ">Tom<" not in page
    own = browser_of(tom).get(reverse("home")).content.decode()
    assert 'class="message warning"' in own and reverse("notification_preferences") in own
    profile = {"section": "profile", "display_name": "Thomas", "time_zone": "UTC", "language": "nl"}
    browser_of(tom).post(reverse("notification_preferences"), profile)
    tom.refresh_from_db()
    assert not tom.name_change_due and tom.name == "Thomas"


def test_a_suspended_player_starts_joins_and_plays_nothing_and_the_autopilot_plays_on(scene):
    game, tom = scene["game"], scene["tom"]
    measure(scene, Kind.SUSPEND, days=3)
    tom = User.objects.get(pk=tom.pk)
    seat = Seat.objects.get(game=game, user=tom)
    assert seat.autopilot and seat.autopilot_since is None  # no timeouts counted, no drop
    open_game = GameFactory(created_by=scene["ann"], seat_count=3)
    attempts = {
        "join": lambda: services.game_join(game_id=open_game.pk, user=tom),
        "seek": lambda: quick.seek_create(
            player=tom, seats=2, preset="classic", time_per_move_days=3
        ),
        "move": lambda: services.move_play(
            game_id=game.pk, user=tom, version=None, build=lambda i: None
        ),
    }
    for what, attempt in attempts.items():
        with pytest.raises(GameError) as refused:
            attempt()
        assert refused.value.status == 403, what
        assert "suspended" in refused.value.message, what
    new_game = browser_of(tom).post(reverse("game_new"), {"seats": 2, "preset": "classic"})
    assert new_game.status_code in (400, 403)
    assert not Game.objects.filter(created_by=tom).exclude(pk=game.pk).exists()


def test_a_closed_account_logs_in_no_more_and_is_told_why(scene):
    measure(scene, Kind.CLOSE)
    tom = User.objects.get(username="tom")
    assert not tom.is_active
    login = Client().post(reverse("account_login"), {"login": "tom", "password": PASSWORD})
    assert "_auth_user_id" not in login.wsgi_request.session
    assert Seat.objects.get(game=scene["game"], user=tom).autopilot
    send_all(Notification.Kind.MODERATION)
    assert any(m.to == [tom.email] for m in mail.outbox)


def test_a_measure_needs_a_reason_and_a_term_and_a_moderator_not_oneself(scene):
    staff = browser_of(scene["staff"])
    url = reverse("moderation_case", args=["tom"])
    assert staff.post(url, {"kind": "warn", "reason": ""}).status_code == 400
    assert staff.post(url, {"kind": "mute", "reason": "x"}).status_code == 400
    assert staff.post(url, {"kind": "mute", "reason": "x", "days": 9999}).status_code == 400
    assert staff.post(url, {"kind": "hide", "reason": "x", "message": 0}).status_code == 404
    own = reverse("moderation_case", args=[scene["staff"].username])
    assert staff.post(own, {"kind": "warn", "reason": "x"}).status_code == 403
    assert not ModerationAction.objects.exists()


def test_a_timed_measure_ends_by_itself(scene):
    measure(scene, Kind.SUSPEND, days=1)
    tom = User.objects.get(username="tom")
    assert tom.is_suspended(timezone.now())
    assert not tom.is_suspended(timezone.now() + timedelta(days=1, seconds=1))
