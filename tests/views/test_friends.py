"""Friends in the browser: the follow buttons on a player's page, the friends page, the one-click
invitation, the new-game form's visibility choice, and what a friends-only game shows and refuses
(the lobby, its pages, its poll, joining)."""

import pytest
from django.urls import reverse

from accounts.models import Preferences
from games import services
from games.engine import Rules
from games.models import Follow, Game, Invitation
from tests.factories import GameFactory, UserFactory, started_game
from tests.views.helpers import follow

pytestmark = pytest.mark.django_db


def page(client, name, *args, status=200, **params) -> str:
    response = client.get(reverse(name, args=args), params)
    assert response.status_code == status
    return response.content.decode()


def test_a_player_page_offers_follow_then_unfollow_and_invite(client):
    me, her = UserFactory(), UserFactory()
    client.force_login(me)
    html = page(client, "player", her.username)
    assert reverse("follow", args=[her.username]) in html
    assert reverse("friend_invite", args=[her.username]) not in html
    assert "follows you" not in html
    response = client.post(reverse("follow", args=[her.username]))
    assert response.status_code == 302
    assert response["Location"] == reverse("player", args=[her.username])
    assert Follow.objects.filter(follower=me, followee=her).exists()
    follow(her, me)
    html = page(client, "player", her.username)
    assert reverse("unfollow", args=[her.username]) in html
    assert reverse("friend_invite", args=[her.username]) in html
    assert "follows you" in html
    client.post(reverse("unfollow", args=[her.username]), {"back": "friends"})
    assert list(Follow.objects.values_list("follower", flat=True)) == [her.pk]


def test_no_follow_button_on_ones_own_page_or_a_bots(client):
    me = UserFactory()
    bot = GameFactory(created_by=me, bots="easy").seats.get(index=1).user
    client.force_login(me)
    for name in (me.username, bot.username):
        assert "/follow/" not in page(client, "player", name)


def test_following_refuses_a_bot_oneself_nobody_and_a_get_with_a_4xx(client):
    me = UserFactory()
    bot = GameFactory(created_by=me, bots="easy").seats.get(index=1).user
    client.force_login(me)
    refused = client.post(reverse("follow", args=[bot.username]))
    assert refused.status_code == 400 and "Bots are not followed" in refused.content.decode()
    assert client.post(reverse("follow", args=[me.username])).status_code == 400
    assert client.post(reverse("follow", args=["nobody-here"])).status_code == 404
    assert client.post(reverse("follow", args=["a\x00b"])).status_code == 404
    assert client.get(reverse("follow", args=[UserFactory().username])).status_code == 405
    assert not Follow.objects.exists()


def test_a_hidden_profile_is_followed_only_by_those_who_may_see_it(client):
    """Following answers as the hidden page does (403, "This profile is private."), to a
    stranger; whoever shared a game with the player sees the page, and may follow them."""
    me, stranger, partner = UserFactory(), UserFactory(), UserFactory()
    started_game([me, partner])
    Preferences.objects.create(user=me, profile_hidden=True)
    client.force_login(stranger)
    page(client, "player", me.username, status=403)
    refused = client.post(reverse("follow", args=[me.username]))
    assert refused.status_code == 403 and "This profile is private." in refused.content.decode()
    assert not Follow.objects.exists()
    client.force_login(partner)
    assert client.post(reverse("follow", args=[me.username])).status_code == 302
    assert list(Follow.objects.values_list("follower", "followee")) == [(partner.pk, me.pk)]


def test_a_visitor_is_sent_to_log_in_and_nothing_is_followed(client):
    response = client.post(reverse("follow", args=[UserFactory().username]))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    assert not Follow.objects.exists()


def test_the_friends_page_lists_followees_escaped_with_mutual_marks_and_a_join_button(client):
    me = UserFactory()
    mutual = UserFactory(display_name="<b>Mutual</b>")
    one_way = UserFactory(display_name="One Way")
    follow(me, mutual), follow(me, one_way), follow(mutual, me)
    waiting = GameFactory(created_by=mutual, seat_count=3)
    client.force_login(me)
    html = page(client, "friends")
    assert "&lt;b&gt;Mutual&lt;/b&gt;" in html and "<b>Mutual</b>" not in html
    assert "One Way" in html and html.count(">mutual<") == 1
    assert reverse("game_join", args=[waiting.pk]) in html
    assert reverse("friend_invite", args=[one_way.username]) in html
    response = client.post(reverse("unfollow", args=[one_way.username]), {"back": "friends"})
    assert response["Location"] == reverse("friends")


def test_one_click_makes_a_game_and_invites_the_friend(client):
    me, friend = UserFactory(), UserFactory()
    follow(me, friend)
    client.force_login(me)
    response = client.post(reverse("friend_invite", args=[friend.username]))
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert Invitation.objects.get(game=game).invitee == friend
    assert friend.name in page(client, "game", game.pk)
    client.force_login(friend)
    assert reverse("invitation_accept", args=[Invitation.objects.get().pk]) in page(client, "home")


def test_one_click_refuses_a_player_one_does_not_follow_with_a_403(client):
    client.force_login(UserFactory())
    response = client.post(reverse("friend_invite", args=[UserFactory().username]))
    assert response.status_code == 403 and "Follow this player first" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("choice", "public", "friends_only"),
    [("listed", True, False), ("friends", False, True), ("private", False, False),
     ("", False, False)],
)  # fmt: skip
def test_the_new_game_form_sets_who_may_join(client, choice, public, friends_only):
    client.force_login(UserFactory())
    response = client.post(
        reverse("game_new"), {"seat_count": "2", "rounds": "classic", "visibility": choice}
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.is_public, game.friends_only) == (public, friends_only)


def test_the_new_game_form_refuses_an_unknown_visibility(client):
    client.force_login(UserFactory())
    response = client.post(
        reverse("game_new"), {"seat_count": "2", "rounds": "classic", "visibility": "everyone"}
    )
    assert response.status_code == 400 and not Game.objects.exists()


def test_a_friends_only_game_in_the_lobby_and_its_pages(client):
    host, friend, stranger = UserFactory(), UserFactory(), UserFactory()
    follow(host, friend)
    game = services.game_create(creator=host, rules=Rules(), seat_count=3, friends_only=True)
    client.force_login(friend)
    assert reverse("game", args=[game.pk]) in page(client, "lobby")
    assert "friends only" in page(client, "lobby")
    assert game.invite_code not in page(client, "game", game.pk)
    client.force_login(stranger)
    assert reverse("game", args=[game.pk]) not in page(client, "lobby")
    page(client, "game", game.pk, status=404)
    # A game the stranger may not see: its refusal says no more than its page (no such game).
    refused = client.post(reverse("game_join", args=[game.pk]))
    assert refused.status_code == 404 and "no such game" in refused.content.decode()
    assert "open only to" not in refused.content.decode()
    client.force_login(friend)
    assert client.post(reverse("game_join", args=[game.pk])).status_code == 302
    assert game.seats.filter(user=friend).exists() and not game.seats.filter(user=stranger)


def test_a_friends_only_game_link_shows_the_room_but_seats_no_stranger(client):
    host, stranger = UserFactory(), UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=2, friends_only=True)
    client.force_login(stranger)
    client.get(reverse("invite", args=[game.invite_code]))
    page(client, "game", game.pk)
    assert client.post(reverse("game_join", args=[game.pk])).status_code == 403


@pytest.mark.queries
def test_a_followed_spectator_watches_a_friends_only_game_and_its_poll_costs_no_more(
    client, django_assert_num_queries
):
    host, guest, friend, stranger = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    follow(host, guest), follow(host, friend)
    listed = started_game([host, UserFactory()])
    game = started_game([host, guest], friends_only=True)
    client.force_login(friend)
    page(client, "game", game.pk)
    # A spectator's unchanged poll: the player (auth), no seat, the game (the host's follow is
    # a subquery of that one): as many as at a listed game.
    for watched in (listed, game):
        with django_assert_num_queries(3):
            poll = client.get(reverse("game_table", args=[watched.pk]), {"v": watched.version})
            assert poll.status_code == 204
    client.force_login(stranger)
    page(client, "game", game.pk, status=404)
    page(client, "game_table", game.pk, status=404, v=game.version)
