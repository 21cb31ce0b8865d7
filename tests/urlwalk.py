"""Walking the site's URL patterns (tests/test_endpoints.py, tests/config/test_csp.py, the fuzz
test): every pattern with its address, its arguments taken from real objects of one small world."""

import re
from datetime import timedelta

from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from games import chat, invitations
from games.competitions import leagues, quick, tournaments
from games.models import Notification
from tests.factories import GameFactory, UserFactory, started_game

SECRET_CHAT = "only-for-alice-and-bob-7c1e"
SECRET_EMAIL = "alice-hidden-5d2a@example.org"


def walk(patterns=None, prefix="", namespace=""):
    """(route, name) of every URL pattern, names with their namespace."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), namespace + (pattern.name or "")


def is_admin(name: str) -> bool:
    return name.startswith("admin:")


def world_build() -> dict:
    """Alice's private game with Bob, under way, with a chat message; Alice's open private game
    with an invitation to Carol; Olga's public game with Oscar (the player of another game),
    with a chat message."""
    alice = UserFactory(username="alice", email=SECRET_EMAIL)
    bob, carol = UserFactory(username="bob"), UserFactory(username="carol")
    game = started_game([alice, bob], is_public=False)
    message = chat.chat_post(game_id=game.pk, user=bob, text=SECRET_CHAT)
    waiting = GameFactory(created_by=alice, is_public=False, seat_count=3)
    invitation = invitations.game_invite(game_id=waiting.pk, user=alice, who="carol")
    olga, oscar = UserFactory(username="olga"), UserFactory(username="oscar")
    public = started_game([olga, oscar])
    chat.chat_post(game_id=public.pk, user=olga, text="good luck")
    seek = quick.seek_create(player=alice, seats=4, preset="classic", time_per_move_days=None)
    cup = tournaments.tournament_create(
        host=olga,
        name="Olga's cup",
        preset="classic",
        seats_per_table=2,
        rounds=1,
        time_per_move_days=3,
        starts_at=timezone.now() + timedelta(days=1),
    )
    league = leagues.league_create(user=olga, name="Walk", preset="classic")
    leagues.league_join(league_id=league.pk, user=UserFactory(username="lena"))
    league.seasons.update(starts_at=league.created_at)
    leagues.season_start(season_id=league.seasons.get().pk)  # bots fill the division
    args = {
        "pk": 1,  # a passkey's: another's is refused (tests/accounts/test_twofactor.py)
        "tournament_id": cup.pk,
        "seek_id": seek.pk,
        "league_id": league.pk,
        "number": 1,
        "level": 1,
        "game_id": game.pk,
        "message_id": message.pk,
        "invitation_id": invitation.pk,
        "username": "alice",
        "code": "not-a-real-code",
        "token": "not.a-real-token",
        "kind": Notification.Kind.values[0],
        "key": "not-a-real-key",
        "uidb36": "2",
    }
    return {
        "args": args,
        "victims": [alice, bob, carol],
        "games": [game, waiting],
        "stranger": UserFactory(username="stranger"),
        "outsider": oscar,
        "public": public,
    }


def url_of(route: str, name: str, args: dict) -> str:
    """The pattern's address, its arguments taken from `args` by name."""
    return reverse(name, kwargs={key: args[key] for key in re.findall(r"<(?:\w+:)?(\w+)>", route)})
