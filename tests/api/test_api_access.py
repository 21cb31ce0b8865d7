"""Every operation of the API (read from its own OpenAPI schema, tests/api/walk.py), walked as
each kind of caller: without a live token, as an account with no seat at a private game (a
stranger, a player of another game), as a spectator of a listed game, and with each scope alone.
It reaches what the pages reach and no more (tests/test_endpoints.py): a game it may not watch
does not exist for it, a spectator reads the facts, the table without a hand, the history, and
the chat once the host opened it; a token does only what its scopes say, and a refusal changes
nothing."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.api_tokens import token_create, token_revoke
from accounts.models import ApiToken
from accounts.services import own_bot_create
from games import chat, services
from games.engine import GameState, Rules
from games.invitations import game_invite
from games.models import ChatMessage, Follow, Game, Invitation
from tests.api.helpers import token_for
from tests.api.walk import allowed, body_of, call, fingerprint, hands_in, operations, problem
from tests.factories import GameFactory, UserFactory, started_game

pytestmark = pytest.mark.django_db

OPERATIONS = operations()
SECRET_CHAT = "only-for-alice-and-bob-api-4b9e"
NAMES = ["alice-api-1f", "bob-api-2e", "carol-api-3d"]  # would show a private game in a list


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    """A walk sends many requests a minute (the limits are tests/test_ratelimit.py's)."""
    settings.RATE_LIMITS = {action: (10**9, 60) for action in settings.RATE_LIMITS}


@pytest.fixture
def world(db):
    """Alice's private game with Bob, under way, with a chat message; Alice's waiting private
    game with an invitation to Carol; Olga's listed game with Oscar (the player of another game),
    with a chat message; a stranger with no seat anywhere."""
    alice, bob, carol = (UserFactory(username=name) for name in NAMES)
    private = started_game([alice, bob], is_public=False)
    chat.chat_post(game_id=private.pk, user=bob, text=SECRET_CHAT)
    waiting = GameFactory(created_by=alice, is_public=False, seat_count=3)
    invitation = game_invite(game_id=waiting.pk, user=alice, who=carol.username)
    olga, oscar = UserFactory(username="olga-api"), UserFactory(username="oscar-api")
    listed = started_game([olga, oscar])
    chat.chat_post(game_id=listed.pk, user=olga, text="good luck")
    return {
        "alice": alice, "bob": bob, "carol": carol, "olga": olga, "oscar": oscar,
        "stranger": UserFactory(username="stranger-api"),
        "private": private, "waiting": waiting, "listed": listed, "invitation": invitation,
        "secrets": [SECRET_CHAT, private.invite_code, waiting.invite_code, *NAMES],
    }  # fmt: skip


def mover_of(game: Game):
    return game.seats.get(index=game.to_move_seat).user


def sample_for(op, game: Game):
    """A body the game's player to move could send now: the game's version, a card of theirs."""
    game.refresh_from_db()
    seat = game.to_move_seat if game.status == Game.Status.ACTIVE else None
    hand = GameState.from_dict(game.state).hands[seat] if seat is not None else []
    return op.sample(version=game.version, card=hand[0].token if hand else "7H")


def ids_of(world, game: Game) -> dict:
    return {"game_id": game.pk, "invitation_id": world["invitation"].pk}


def test_the_walk_sees_every_endpoint():
    """The schema gives the walk reads and writes, each with a scope and real objects."""
    assert {op.method for op in OPERATIONS} == {"get", "post"}
    assert {op.scope for op in OPERATIONS} == {"read", "play", "chat"}
    assert {name for op in OPERATIONS for name in op.params} <= {"game_id", "invitation_id"}
    assert len(OPERATIONS) >= 17


def dead_token(kind: str, user) -> str | None:
    """A token that is no (longer a) token for `user`, whose scopes would allow anything."""
    if kind == "none":
        return None
    if kind == "junk":
        return "tt_" + "x" * 43
    if kind == "not ours":
        return "ghp_" + "x" * 36
    row, token = token_create(user=user, name=kind, scopes={"read", "play", "chat"},
                              expires_in_days=30)  # fmt: skip
    if kind == "revoked":
        assert token_revoke(owner=user, token_id=row.pk)
    elif kind == "expired":
        ApiToken.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    elif kind == "account closed":
        type(user).objects.filter(pk=user.pk).update(is_active=False)
    return token


@pytest.mark.parametrize(
    "kind", ["none", "junk", "not ours", "revoked", "expired", "account closed", "basic"]
)
def test_without_a_live_token_every_operation_is_401_and_changes_nothing(client, world, kind):
    """The real player to move, with a request that would succeed: a token never made, revoked,
    expired or of a closed account (or a password instead) is a 401 before anything else."""
    game = world["private"]
    mover = mover_of(game)
    token = dead_token("none" if kind == "basic" else kind, mover)
    before = fingerprint([game, world["waiting"]])
    headers = {"Authorization": "Basic YWxpY2U6c2VjcmV0"} if kind == "basic" else {}
    wrong = []
    for op in OPERATIONS:
        response = call(client, op, ids_of(world, game), token, sample_for(op, game), **headers)
        if response.status_code != 401 or response.get("WWW-Authenticate") != "Bearer":
            wrong.append(f"{op}: {response.status_code}")
        problem(response)
    assert not wrong, "\n".join(wrong)
    assert fingerprint([game, world["waiting"]]) == before


def unrelated(world, **extra) -> dict:
    """Alice's games as the walk's objects, and a number no game has."""
    finished = GameFactory(created_by=world["alice"], is_public=False, finished=True)
    friends = GameFactory(created_by=world["alice"], is_public=False, friends_only=True)
    return {
        "in play": world["private"], "waiting": world["waiting"], "finished": finished,
        "friends only": friends, **extra,
    }  # fmt: skip


@pytest.mark.parametrize("role", ["stranger", "oscar"])
def test_no_one_without_a_seat_reaches_a_private_game(client, world, role):
    """Every operation about one of Alice's private games answers a stranger and a player of
    another game as it answers a number no game has (a 404, or a 403 for a scope), shows
    nothing of it, and changes nothing; the operations about the account alone show none of
    it either."""
    games = unrelated(world)
    token = token_for(world[role])
    before = fingerprint(games.values(), new_games=True)  # POST /games: a game of their own
    missing = 10**9  # a number no game has, nor will when the walk makes its own games
    wrong = []
    for op in OPERATIONS:
        answers = {}
        for state, game in [*games.items(), ("none", None)]:
            ids = {"game_id": game.pk if game else missing, "invitation_id": world["invitation"].pk}
            body = sample_for(op, game or world["private"])
            response = call(client, op, ids, token, body)
            text = response.content.decode()
            wrong += [f"{op} ({state}) shows {s!r}" for s in world["secrets"] if s in text]
            if hands_in(body_of(response)):
                wrong.append(f"{op} ({state}) shows a hand")
            if op.about_a_game or op.params:
                if response.status_code not in (403, 404):
                    wrong.append(f"{op} ({state}): {response.status_code} {text[:300]}")
                    continue
                answers[state] = (response.status_code, problem(response))
            elif response.status_code >= 400:
                wrong.append(f"{op}: {response.status_code} {text[:200]}")
        if len(set(answers.values())) > 1:
            wrong.append(f"{op} tells the games apart: {answers}")
    assert not wrong, "\n".join(wrong)
    assert fingerprint(games.values(), new_games=True) == before


def page_of(op) -> str:
    """The page that shows what a read of a game shows: the chat's, or the game's."""
    return "game_chat" if op.path.endswith("/chat") else "game"


@pytest.mark.parametrize("opened", [False, True], ids=["chat closed", "chat open"])
@pytest.mark.parametrize("role", ["stranger", "alice"])
def test_a_spectator_of_a_listed_game_reads_as_the_pages_let_them(client, world, role, opened):
    """A stranger, or a player of another game, watching Olga's listed game: every read the page
    allows (the facts, the table with no hand, the history; the chat once Olga opened it), and
    nothing else: every write is a 4xx that changes nothing, but the chat's when it is open."""
    game = world["listed"]
    if opened:
        chat.game_set_chat_spectators(game_id=game.pk, user=world["olga"], open_to_them=True)
    viewer = world[role]
    token = token_for(viewer)
    pages = Client()
    pages.force_login(viewer)
    before = fingerprint([game])
    wrong = []
    for op in OPERATIONS:
        if not op.about_a_game:
            continue
        response = call(client, op, ids_of(world, game), token, sample_for(op, game))
        status = response.status_code
        body = body_of(response)
        if hands_in(body) or (isinstance(body, dict) and body.get("legal_actions")):
            wrong.append(f"{op} shows a hand or moves: {body}")
        if op.method == "get":
            page = pages.get(reverse(page_of(op), args=[game.pk])).status_code
            if allowed(op, response) != (page == 200) or (status >= 400 and status != page):
                wrong.append(f"{op}: {status}, its page {page}")
        elif op.scope == "chat" and opened:
            if status != 201:
                wrong.append(f"{op}: {status}, but the host opened the chat")
        elif not 400 <= status < 500:
            wrong.append(f"{op}: {status}")
        else:
            problem(response)
    assert not wrong, "\n".join(wrong)
    after = ChatMessage.objects.filter(game=game).count()
    assert after == 1 + opened  # the message it wrote, once open
    if not opened:
        assert fingerprint([game]) == before
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_game_is_hidden_from_the_api_exactly_when_from_the_pages(client, world):
    """For every kind of game, every read about it is a 404 for the stranger just when the
    game's page is."""
    stranger, alice = world["stranger"], world["alice"]
    followed = GameFactory(created_by=alice, is_public=False, friends_only=True)
    Follow.objects.create(follower=alice, followee=stranger)
    Follow.objects.create(follower=alice, followee=world["bob"])
    games = unrelated(world, **{
        "listed": world["listed"], "listed, open": GameFactory(created_by=world["olga"]),
        "listed, finished": GameFactory(created_by=world["olga"], finished=True),
        "friends only, followed": followed,
        "friends only, followed, started": started_game([alice, world["bob"]], is_public=False,
                                                        friends_only=True),
    })  # fmt: skip
    token = token_for(stranger)
    pages = Client()
    pages.force_login(stranger)
    wrong = []
    for state, game in games.items():
        page = pages.get(reverse("game", args=[game.pk])).status_code
        for op in OPERATIONS:
            if op.about_a_game and op.method == "get":
                status = call(client, op, ids_of(world, game), token).status_code
                if (status == 404) != (page == 404):
                    wrong.append(f"{op} ({state}): {status}, its page {page}")
    assert not wrong, "\n".join(wrong)


def account_for(world, op, mover):
    """Who would make the operation: Carol answers her invitation; the mover does the rest."""
    return world["carol"] if "invitation_id" in op.params else mover


def scope_refusal(response, scope: str) -> bool:
    return response.status_code == 403 and f"“{scope}”" in problem(response)


def test_a_read_only_token_reads_everything_and_writes_nothing(client, world):
    game = world["private"]
    mover = mover_of(game)
    tokens = {user.pk: token_for(user, "read") for user in (mover, world["carol"])}
    before = fingerprint([game, world["waiting"]])
    wrong = []
    for op in OPERATIONS:
        token = tokens[account_for(world, op, mover).pk]
        response = call(client, op, ids_of(world, game), token, sample_for(op, game))
        if op.method == "get" and not allowed(op, response):
            wrong.append(f"{op}: {response.status_code}")
        if op.method == "post" and not scope_refusal(response, op.scope):
            wrong.append(f"{op}: {response.status_code} {response.content[:200]}")
    assert not wrong, "\n".join(wrong)
    assert fingerprint([game, world["waiting"]]) == before
    assert Game.objects.get(pk=game.pk).version == game.version
    assert ChatMessage.objects.filter(game=game).count() == 1
    assert world["invitation"].__class__.objects.get(pk=world["invitation"].pk).status == (
        Invitation.Status.PENDING
    )


def test_a_play_only_token_plays_and_neither_reads_nor_chats(client, world):
    game = world["private"]
    mover, version = mover_of(game), game.version
    tokens = {user.pk: token_for(user, "play") for user in (mover, world["carol"])}
    before = fingerprint([game, world["waiting"]])
    wrong = []
    for op in OPERATIONS:
        if op.scope != "play":  # refused, and so nothing changed yet
            token = tokens[account_for(world, op, mover).pk]
            response = call(client, op, ids_of(world, game), token, sample_for(op, game))
            if not scope_refusal(response, op.scope):
                wrong.append(f"{op}: {response.status_code}")
    assert fingerprint([game, world["waiting"]]) == before
    for op in OPERATIONS:
        if op.scope == "play":  # allowed: whatever the game says of the move, never the scope
            token = tokens[account_for(world, op, mover).pk]
            response = call(client, op, ids_of(world, game), token, sample_for(op, game))
            if response.status_code >= 500 or scope_refusal(response, "play"):
                wrong.append(f"{op}: {response.status_code}")
    assert not wrong, "\n".join(wrong)
    assert Game.objects.get(pk=game.pk).version > version  # it drew (then resigned)
    assert world["carol"].seats.filter(game=world["waiting"]).exists()  # and accepted


def test_a_chat_only_token_writes_in_the_chat_and_does_nothing_else(client, world):
    game = world["private"]
    mover = mover_of(game)
    tokens = {user.pk: token_for(user, "chat") for user in (mover, world["carol"])}
    before = fingerprint([game, world["waiting"]])
    wrong = []
    for op in OPERATIONS:
        if op.scope != "chat":
            token = tokens[account_for(world, op, mover).pk]
            response = call(client, op, ids_of(world, game), token, sample_for(op, game))
            if not scope_refusal(response, op.scope):
                wrong.append(f"{op}: {response.status_code}")
    assert not wrong, "\n".join(wrong)
    assert fingerprint([game, world["waiting"]]) == before
    for op in OPERATIONS:
        if op.scope == "chat":
            response = call(client, op, ids_of(world, game), tokens[mover.pk], {"text": "hi"})
            assert response.status_code == 201, (str(op), response.content)
    assert ChatMessage.objects.filter(game=game).count() == 2
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_player_and_their_own_bot_are_two_accounts(client, world):
    """The bot's token reaches the bot's games, not its owner's; the owner's, not the bot's."""
    alice = world["alice"]
    bot = own_bot_create(owner=alice, username="alice-api-bot")
    bots_game = services.game_create(creator=world["carol"], rules=Rules(), seat_count=2,
                                     is_public=False)  # fmt: skip
    game_invite(game_id=bots_game.pk, user=world["carol"], who=bot.username)
    services.game_join(game_id=bots_game.pk, user=bot)
    wrong = []
    for user, mine, theirs in [
        (bot, bots_game, world["private"]),
        (alice, world["private"], bots_game),
    ]:
        token = token_for(user, "read")
        for op in OPERATIONS:
            if op.about_a_game and op.method == "get":
                for game, want in ((mine, 200), (theirs, 404)):
                    response = call(client, op, ids_of(world, game), token)
                    status = 200 if allowed(op, response) else response.status_code
                    if status != want:
                        wrong.append(f"{user.username}: {op} at game {game.pk}: {status}")
    assert not wrong, "\n".join(wrong)


def test_a_private_game_is_joined_with_its_code_and_refused_alike_without(client, world):
    """Its invitation code is the pass: with it, a seat; with a wrong one, no such game."""
    waiting = world["waiting"]
    join = next(op for op in OPERATIONS if op.path.endswith("/join"))
    token = token_for(world["stranger"], "play")
    ids = ids_of(world, waiting)
    wrong = call(client, join, ids, token, {"invite_code": "not-the-code"})
    assert wrong.status_code == 404 and problem(wrong) == "There is no such game."
    right = call(client, join, ids, token, {"invite_code": waiting.invite_code})
    assert right.status_code == 200, right.content
    assert waiting.seats.filter(user=world["stranger"]).exists()
