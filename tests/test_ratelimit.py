"""The site's rate limits (games/ratelimit.py) on moves and invitations, past which a player gets
a 429 with a clear message and nothing changes; the chat's is in test_chat.py, the logins' in
test_accounts.py. Limits lowered here so that a test sends few requests:
the defaults are in settings.RATE_LIMITS."""

import pytest
from django.urls import reverse

from games.models import Invitation, Move
from tests.factories import GameFactory, UserFactory, legal_actions, started_game

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def low_limits(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": (3, 60), "invitation": (2, 3600)}


def test_the_defaults_are_far_above_a_person_and_below_a_script(settings):
    assert settings.RATE_LIMITS == {
        "chat": (5, 60), "move": (120, 60), "invitation": (20, 3600), "league": (5, 86400),
        "api": (300, 60), "advice": (20, 60),
    }  # fmt: skip


def test_moving_past_the_limit_is_a_429_that_plays_nothing_until_the_window_passes(
    client, low_limits, clock
):
    users = [UserFactory(), UserFactory()]
    game = started_game(users)
    mover = {s.index: s.user for s in game.seats.all()}[legal_actions(game)[0].seat]
    client.force_login(mover)
    sort = reverse("hand_sort", args=[game.pk])
    for _ in range(3):  # sorting the hand counts as a move
        assert client.post(sort, {"sort": "suit"}, **HTMX).status_code == 200
    draw = reverse("move_draw", args=[game.pk])
    refused = client.post(draw, {"source": "stock", "version": game.version}, **HTMX)
    assert refused.status_code == 429
    assert "faster than anyone plays" in refused.content.decode()
    assert not Move.objects.filter(game=game).exists()
    # In another game, too: the limit is the player's, not the game's.
    other = started_game([mover, UserFactory()])
    assert client.post(reverse("hand_sort", args=[other.pk]), {"sort": "suit"}).status_code == 429
    clock.advance(60)
    played = client.post(draw, {"source": "stock", "version": game.version}, **HTMX)
    assert played.status_code == 200 and Move.objects.filter(game=game).count() == 1


def test_inviting_past_the_limit_is_a_429_that_invites_no_one(client, low_limits, clock):
    host = UserFactory()
    friends = [UserFactory(), UserFactory(), UserFactory()]
    client.force_login(host)
    game = GameFactory(created_by=host, seat_count=4)
    invite = reverse("game_invite", args=[game.pk])
    for friend in friends[:2]:
        assert client.post(invite, {"who": friend.username}).status_code == 302
    refused = client.post(invite, {"who": friends[2].username})
    assert refused.status_code == 429 and "many invitations" in refused.content.decode()
    one_click = client.post(reverse("friend_invite", args=[friends[2].username]))
    assert one_click.status_code == 429
    assert Invitation.objects.filter(invited_by=host).count() == 2
    clock.advance(3600)
    assert client.post(invite, {"who": friends[2].username}).status_code == 302
    assert Invitation.objects.filter(invited_by=host).count() == 3


def test_a_refusal_says_how_long_to_wait_in_the_players_language(client, low_limits, clock):
    """How long is left of the window, not "a while", in the player's language."""
    host = UserFactory(language="cs")
    client.force_login(host)
    game = GameFactory(created_by=host, seat_count=4)
    clock.advance(20 * 60 + 30)
    for friend in [UserFactory(), UserFactory()]:
        client.post(reverse("game_invite", args=[game.pk]), {"who": friend.username})
    refused = client.post(reverse("game_invite", args=[game.pk]), {"who": "nobody"})
    assert refused.status_code == 429
    assert "Zkuste to znovu za 40 minut." in refused.content.decode()


def test_signing_up_past_the_limit_is_a_429(client):
    """Sign-ups are counted per address (settings.SIGNUP_ADDRESS_LIMITS): 10 a minute from one IP
    (the page it answers with: tests/config/test_errors.py)."""
    signup = reverse("account_signup")
    for n in range(10):
        assert client.post(signup, {"username": f"x{n}"}).status_code == 400  # refused form
    assert client.post(signup, {"username": "x10"}).status_code == 429
