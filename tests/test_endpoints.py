"""Every URL pattern of the site, walked: each POST refused without a CSRF token, and each
pattern visited by GET and POST as an anonymous visitor, a signed-in stranger and a player of
another game, its arguments taken from real objects of a private game they have no part in. The
outcome of each is declared in ENDPOINTS, so a new URL without a declared outcome fails here;
nothing private is shown, nothing of the game's players changes, and nothing answers 500."""

import hashlib
import json

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import ChatMessage, ChatReport, Follow, Game, Invitation, Move, Mute, Seat, Seek
from tests.factories import GameFactory
from tests.urlwalk import SECRET_CHAT, SECRET_EMAIL, is_admin, url_of, walk, world_build

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    return world_build()


# Outcomes: "ok" 200, a page anyone may see (or the visitor's own); "login" a redirect to the
# login page; "away" a redirect elsewhere (the visitor's own page, the game list); "404" / "403"
# / "400" / "405" / "409" those statuses. Per URL name: (anonymous GET, anonymous POST,
# signed-in GET, signed-in POST); the stranger and the player of another game share the last two.
# Arguments that are capabilities in themselves (an invitation link's code, a mail's
# unsubscribe token, an email confirmation or password reset key) are given as junk: whoever
# holds a real one may use it, by design.
ENDPOINTS = {
    # name: (anonymous GET, anonymous POST, signed-in GET, signed-in POST)
    # accounts: the player's own settings
    "notification_preferences": ("login", "login", "ok", "400"),
    "push_subscribe": ("login", "login", "405", "400"),
    "push_unsubscribe": ("login", "login", "405", "400"),  # no endpoint given
    "table_tour_done": ("login", "login", "405", "away"),
    "set_language": ("away", "away", "away", "away"),
    # allauth: signing in and out, the player's own address and password
    "account_login": ("ok", "400", "away", "away"),
    "account_logout": ("away", "away", "ok", "away"),
    "account_inactive": ("ok", "405", "ok", "405"),
    "account_signup": ("ok", "400", "away", "away"),
    "account_reauthenticate": ("login", "login", "ok", "400"),
    "account_request_reauthentication_code": ("login", "login", "403", "403"),  # codes are off
    "account_confirm_reauthentication_code": ("login", "login", "403", "403"),
    "account_email": ("login", "login", "ok", "away"),
    "account_email_verification_sent": ("ok", "405", "ok", "405"),
    "account_change_password": ("login", "login", "ok", "400"),
    "account_set_password": ("login", "login", "away", "away"),
    "account_reset_password": ("ok", "400", "ok", "400"),
    "account_confirm_login_code": ("login", "login", "away", "away"),
    "account_confirm_email": ("ok", "404", "ok", "404"),  # junk key: "expired or invalid"
    "account_reset_password_from_key_done": ("ok", "405", "ok", "405"),
    "account_reset_password_from_key": ("ok", "400", "ok", "400"),  # junk key: "bad token"
    "account_reset_password_done": ("ok", "405", "ok", "405"),
    # pages anyone signed in may see (their own lists), or anyone at all
    "home": ("ok", "ok", "ok", "ok"),
    "healthz": ("503", "405", "503", "405"),  # no worker heartbeat in tests: 503, never 500
    "metrics": ("404", "405", "404", "405"),  # no METRICS_TOKEN set: not there for anyone
    "webapp_manifest": ("ok", "405", "ok", "405"),
    "service_worker": ("ok", "405", "ok", "405"),
    "how_to_play": ("ok", "ok", "ok", "ok"),
    "notices": ("login", "405", "ok", "405"),
    "lobby": ("login", "login", "ok", "ok"),
    "leaderboard": ("login", "login", "ok", "ok"),
    "player": ("login", "login", "ok", "ok"),  # a public profile: no private game on it
    "friends": ("login", "login", "ok", "ok"),
    "practice_start": ("login", "login", "405", "away"),  # a practice game of their own
    "game_new": ("login", "login", "ok", "400"),
    "seek_new": ("login", "login", "ok", "400"),  # quick play: no form sent
    "seek_cancel": ("405", "login", "405", "404"),  # Alice's seek
    "tournaments": ("login", "login", "ok", "400"),  # no form sent
    "tournament": ("login", "405", "ok", "405"),  # Olga's open tournament
    "tournament_join": ("405", "login", "405", "away"),  # anyone may join it
    "tournament_leave": ("405", "login", "405", "away"),  # and leave it again
    "tournament_start": ("405", "login", "405", "403"),  # only Olga may start it
    # leagues: public pages; Olga's league has started (joining is too late, leaving 404)
    "leagues": ("ok", "login", "ok", "400"),  # no form sent
    "league": ("ok", "405", "ok", "405"),
    "league_join": ("405", "login", "405", "409"),
    "league_leave": ("405", "login", "405", "404"),
    "league_start": ("405", "login", "405", "403"),  # only Olga may start it
    "league_division": ("ok", "405", "ok", "405"),
    "league_optin": ("404", "404", "404", "404"),  # a junk token
    "game_next": ("login", "login", "away", "away"),  # their own most urgent game, or home
    "vacation": ("login", "login", "ok", "400"),
    "account_data": ("login", "405", "ok", "405"),  # their own data
    "account_delete": ("login", "login", "ok", "400"),
    "follow": ("405", "login", "405", "away"),  # following is the follower's own list
    "unfollow": ("405", "login", "405", "away"),
    "friend_invite": ("405", "login", "405", "403"),  # alice is not their friend
    # Alice's private game: nothing of it for anyone without a seat
    "invite": ("404", "404", "404", "404"),
    "game": ("login", "login", "404", "404"),
    "game_table": ("login", "login", "404", "404"),
    "game_history": ("login", "login", "404", "404"),
    "game_replay": ("login", "login", "404", "404"),
    "game_review": ("login", "login", "404", "404"),
    "game_advice": ("login", "405", "404", "405"),
    "game_chat": ("login", "login", "404", "404"),
    "game_resign": ("login", "login", "404", "404"),
    "game_join": ("405", "login", "405", "404"),
    "game_leave": ("405", "login", "405", "404"),
    "game_bots": ("405", "login", "405", "404"),
    "game_start": ("405", "login", "405", "404"),
    "move_draw": ("405", "login", "405", "404"),
    "move_discard": ("405", "login", "405", "404"),
    "move_go_out": ("405", "login", "405", "404"),
    "hand_sort": ("405", "login", "405", "404"),
    "chat_post": ("405", "login", "405", "404"),
    "chat_mute": ("405", "login", "405", "404"),
    "chat_report": ("405", "login", "405", "404"),
    "chat_spectators": ("405", "login", "405", "404"),
    "game_invite": ("405", "login", "405", "404"),
    "game_rematch": ("405", "login", "405", "404"),
    "seat_resume": ("405", "login", "405", "404"),
    "invitation_accept": ("405", "login", "405", "404"),  # Carol's invitation
    "invitation_decline": ("405", "login", "405", "404"),
    "invitations_waiting": ("login", "405", "ok", "405"),  # the dashboard's poll: one's own
    # mail: a junk unsubscribe token; previews for the staff only (or DEBUG)
    "unsubscribe": ("404", "404", "404", "404"),
    "mail_turn": ("404", "404", "404", "404"),  # a turn mail's one-click link: a junk token
    "mail_preview_index": ("login", "login", "404", "404"),
    "mail_preview": ("login", "login", "404", "404"),
    "game_events": ("404", "405", "404", "405"),  # the table's stream of changes
    # Settings → API tokens and your bots
    "api_access": ("login", "login", "ok", "400"),
    "usersessions_list": ("login", "login", "ok", "away"),  # POST: logs out everywhere else
    # Reporting a player (anyone logged in; junk is a 400), and the moderation queue: staff with
    # the permission games.moderate only (games/moderation.py), a 403 to everyone else.
    "player_report": ("405", "login", "405", "400"),
    "moderation_queue": ("login", "login", "403", "405"),
    "moderation_case": ("login", "login", "403", "403"),
    # Two-factor (allauth.mfa, accounts/twofactor.py). A player without it (as here) is sent on
    # to confirm with the password, or to turn it on first.
    "mfa_index": ("login", "login", "ok", "405"),
    "mfa_authenticate": ("login", "login", "away", "away"),  # only as a login's second step
    "mfa_reauthenticate": ("login", "login", "away", "away"),
    "mfa_activate_totp": ("login", "login", "away", "away"),
    "mfa_deactivate_totp": ("login", "login", "404", "404"),
    "mfa_view_recovery_codes": ("login", "login", "404", "405"),
    "mfa_generate_recovery_codes": ("login", "login", "away", "away"),
    "mfa_download_recovery_codes": ("login", "login", "404", "404"),
    "mfa_list_webauthn": ("login", "login", "ok", "405"),
    "mfa_add_webauthn": ("login", "login", "away", "away"),
    "mfa_reauthenticate_webauthn": ("login", "login", "away", "away"),
    "mfa_remove_webauthn": ("login", "login", "away", "away"),
    "mfa_edit_webauthn": ("login", "login", "away", "away"),
    "mfa_login_webauthn": ("login", "login", "away", "away"),
    # The API (games/api): its schema and docs page for anyone; every endpoint wants a token
    # (a session lends it nothing: 401), and answers a method it has not with 405.
    "api:api-root": ("404", "404", "404", "404"),
    "api:openapi-json": ("ok", "ok", "ok", "ok"),
    "api:openapi-view": ("ok", "ok", "ok", "ok"),
    **dict.fromkeys(
        ["api:games", "api:game_create", "api:chat_read", "api:chat_write"],
        ("401", "401", "401", "401"),
    ),
    **dict.fromkeys(
        [
            "api:game_events",
            "api:me",
            "api:lobby",
            "api:invitations",
            "api:game",
            "api:game_view",
            "api:game_history",
        ],
        ("401", "405", "401", "405"),
    ),
    **dict.fromkeys(
        [
            "api:invitation_accept",
            "api:invitation_decline",
            "api:game_join",
            "api:move_draw",
            "api:move_discard",
            "api:move_go_out",
            "api:game_resign",
        ],
        ("405", "401", "405", "401"),
    ),
}

# The few patterns whose POST needs no CSRF token, each with the reason.
CSRF_EXEMPT = {
    "unsubscribe": "RFC 8058 one-click unsubscribe: mail clients POST without a session; the "
    "signed token in the address is the proof",
    **{
        name: "the API reads a bearer token, never the session cookie: nothing to forge"
        for name in ENDPOINTS
        # Not its root (Django's own 404), nor the schema and docs pages (ninja's plain views).
        if name.startswith("api:")
        and name not in ("api:api-root", "api:openapi-json", "api:openapi-view")
    },
}


def fingerprint(world) -> str:
    """All that belongs to the private games and their people, as one hash."""
    games = world["games"]
    people = world["victims"]
    rows = [
        list(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk").values()),
        list(Seat.objects.filter(game__in=games).order_by("pk").values()),
        Move.objects.filter(game__in=games).count(),
        list(ChatMessage.objects.filter(game__in=games).order_by("pk").values()),
        list(ChatReport.objects.filter(message__game__in=games).values()),
        list(Invitation.objects.filter(game__in=games).order_by("pk").values()),
        list(Mute.objects.filter(muter__in=people).values()),
        list(Follow.objects.filter(follower__in=people).values()),
        list(Seek.objects.filter(player__in=people).order_by("pk").values()),
        list(type(people[0]).objects.filter(pk__in=[p.pk for p in people]).order_by("pk").values()),
        list(EmailAddress.objects.filter(user__in=people).order_by("pk").values()),
        list(Authenticator.objects.filter(user__in=people).order_by("pk").values()),
    ]
    return hashlib.sha256(json.dumps(rows, default=str, sort_keys=True).encode()).hexdigest()


def outcome(response) -> str:
    if response.status_code in (301, 302):
        location = response["Location"]
        login = reverse("account_login")
        admin_login = reverse("admin:login")
        return "login" if location.startswith((login, admin_login)) else "away"
    return "ok" if response.status_code == 200 else str(response.status_code)


def secrets_of(world) -> list[str]:
    """What only the private games' people may see."""
    game, waiting = world["games"]
    return [SECRET_CHAT, SECRET_EMAIL, game.invite_code, waiting.invite_code,
            f'href="/games/{game.pk}/', f'href="/games/{waiting.pk}/']  # fmt: skip


def test_every_url_pattern_has_a_declared_outcome():
    names = {name for _route, name in walk() if not is_admin(name)}
    assert names == set(ENDPOINTS), (
        f"declare an outcome for {sorted(names - set(ENDPOINTS))}; "
        f"no such pattern: {sorted(set(ENDPOINTS) - names)}"
    )


@pytest.mark.slow  # every URL, each way, per role
@pytest.mark.parametrize("role", ["anonymous", "stranger", "outsider"])
def test_no_one_without_a_seat_sees_or_changes_a_private_game(world, role):
    before = fingerprint(world)
    client = Client()
    if role != "anonymous":
        client.force_login(world[role])
    secrets = secrets_of(world)
    wrong = []
    for route, name in walk():
        if is_admin(name):
            continue
        url = url_of(route, name, world["args"])
        expected = ENDPOINTS[name][:2] if role == "anonymous" else ENDPOINTS[name][2:]
        for method, want in zip(("get", "post"), expected, strict=True):
            response = getattr(client, method)(url, {})
            got = outcome(response)
            if got != want:
                wrong.append(f"{method.upper()} {url} ({name}): {got}, declared {want}")
            body = response.content.decode(errors="replace")
            wrong += [f"{method.upper()} {url} shows {secret!r}" for secret in secrets
                      if secret in body]  # fmt: skip
        if fingerprint(world) != before:  # after both: a GET that changes things is as wrong
            wrong.append(f"GET or POST {url} changed the private games or their people")
            before = fingerprint(world)
        if role != "anonymous" and not client.session.get("_auth_user_id"):
            # Logged out by account_logout: in again, as the account is now (logging out
            # everywhere else has moved its sessions' epoch on).
            client.force_login(User.objects.get(pk=world[role].pk))
    assert not wrong, "\n".join(wrong)


def test_a_visitor_is_answered_alike_whatever_state_a_private_game_is_in_or_none(world):
    """Signed out, every address of a game (GET and POST, plain and HTMX) answers the same for a
    private game in play, waiting, finished or cancelled and for a number no game has, so that
    its answer tells nothing of the game (a waiting one answered 404, a started one a login)."""
    alice = world["victims"][0]
    cancelled = GameFactory(created_by=alice, is_public=False)
    services.game_leave(game_id=cancelled.pk, user=alice)
    finished = GameFactory(created_by=alice, is_public=False, finished=True)
    in_play, waiting = world["games"]
    none = Game.objects.order_by("pk").last().pk + 1
    ids = {"in play": in_play.pk, "waiting": waiting.pk, "finished": finished.pk,
           "cancelled": cancelled.pk, "none": none}  # fmt: skip
    client = Client()
    wrong = []
    for route, name in walk():
        if "<id:game_id>" not in route:
            continue
        for method, htmx in [("get", False), ("post", False), ("get", True), ("post", True)]:
            answers = {}
            for state, game_id in ids.items():
                url = url_of(route, name, {**world["args"], "game_id": game_id})
                response = getattr(client, method)(
                    url, {}, headers={"HX-Request": "true"} if htmx else {}
                )
                answers[state] = (outcome(response), response.get("HX-Redirect", "").split("?")[0])
            if len(set(answers.values())) > 1:
                wrong.append(f"{method.upper()}{' HTMX' if htmx else ''} {route}: {answers}")
    assert not wrong, "\n".join(wrong)


PAGES = {"game", "game_table", "game_history", "game_replay", "game_chat"}


def test_a_stranger_watching_a_public_game_changes_nothing_of_it(world):
    """A public game may be watched by anyone signed in; every POST about it, with the fields a
    player would send (the current version, a card source, a message...), is refused (or, for
    the invite and resume forms, sent back with the refusal as a message) and changes nothing."""
    game = world["public"]
    olga, oscar = (seat.user for seat in game.seats.order_by("index"))
    mine = {"games": [game], "victims": [olga, oscar]}
    before = fingerprint(mine)
    client = Client()
    client.force_login(world["stranger"])
    args = {**world["args"], "game_id": game.pk,
            "message_id": ChatMessage.objects.get(game=game).pk}  # fmt: skip
    fields = {"version": game.version, "source": "stock", "card": "7H.1", "text": "hello",
              "player": "olga", "open": "1", "who": "carol", "bot": "easy"}  # fmt: skip
    assert client.get(reverse("game", args=[game.pk])).status_code == 200  # watching: yes
    wrong = []
    for route, name in walk():
        if "<id:game_id>" not in route:
            continue
        response = client.post(url_of(route, name, args), fields)
        refused = 400 <= response.status_code < 500
        sent_back = response.status_code == 302 and name in ("game_invite", "seat_resume")
        page = response.status_code == 200 and name in PAGES  # shown, whatever the method
        if not (refused or sent_back or page) or fingerprint(mine) != before:
            wrong.append(f"{name}: {response.status_code}")
    assert not wrong


def admin_urls():
    """The admin's named patterns, with arguments from its own objects."""
    args = {"app_label": "games", "object_id": "1", "content_type_id": "1", "id": "1"}
    for route, name in walk():
        # view_on_site is no admin page: it redirects anyone to an object's own address.
        if is_admin(name) and not name.endswith(":") and name != "admin:view_on_site":
            yield name, url_of(route, name, args)


@pytest.mark.parametrize("role", ["anonymous", "stranger"])
def test_the_admin_sends_everyone_but_the_staff_to_its_login(world, role):
    client = Client()
    if role != "anonymous":
        client.force_login(world[role])
    wrong = []
    for name, url in admin_urls():
        if name in ("admin:login", "admin:logout"):
            continue
        for method in ("get", "post"):
            if (got := outcome(getattr(client, method)(url, {}))) != "login":
                wrong.append(f"{method.upper()} {url}: {got}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("role", ["anonymous", "stranger"])
def test_every_post_without_a_csrf_token_is_refused(world, role):
    client = Client(enforce_csrf_checks=True)
    if role != "anonymous":
        client.force_login(world[role])
    urls = [(name, url_of(route, name, world["args"])) for route, name in walk()
            if not is_admin(name)]  # fmt: skip
    wrong = []
    for name, url in [*urls, *admin_urls()]:
        status = client.post(url, {}).status_code
        exempt = name in CSRF_EXEMPT
        if (status == 403) == exempt:
            wrong.append(f"POST {url} ({name}): {status}")
    assert not wrong, "\n".join(wrong)
    assert set(CSRF_EXEMPT) <= set(ENDPOINTS)
