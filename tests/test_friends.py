"""Following players and friends-only games, at the level of the services and selectors: the
follow rules (once, never oneself, never a bot), who may join a friends-only game, the friends
page's facts, and the one-click invitation to a new game."""

import pytest
from django.db import IntegrityError, transaction

from games import friends, invitations, services
from games.departure import account_delete
from games.engine import Rules
from games.errors import GameError
from games.models import DEFAULT_TIME_PER_MOVE_DAYS, Follow, Game, Invitation, Notification
from games.selectors import friends as friends_selectors
from games.selectors import lists
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


def follow(follower, followee):
    return friends.follow_create(follower=follower, followee=followee)


def friends_game(host, seat_count=3):
    return services.game_create(
        creator=host, rules=Rules(), seat_count=seat_count, friends_only=True
    )


def test_a_follow_is_made_once_and_following_again_changes_nothing():
    alice, bob = UserFactory(), UserFactory()
    assert follow(alice, bob) == follow(alice, bob)
    assert Follow.objects.count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=alice, followee=bob)


def test_no_one_follows_themself_not_even_past_the_service():
    alice = UserFactory()
    with pytest.raises(GameError):
        follow(alice, alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=alice, followee=alice)


def test_bots_are_not_followed():
    alice = UserFactory()
    bot = GameFactory(created_by=alice, bots="easy").seats.get(index=1).user
    with pytest.raises(GameError, match="Bots are not followed"):
        follow(alice, bot)
    assert not Follow.objects.exists()


def test_unfollowing_removes_the_one_way_only():
    alice, bob = UserFactory(), UserFactory()
    follow(alice, bob), follow(bob, alice)
    friends.follow_delete(follower=alice, followee=bob)
    friends.follow_delete(follower=alice, followee=bob)  # again: nothing to do
    assert list(Follow.objects.values_list("follower", "followee")) == [(bob.pk, alice.pk)]


def test_a_deleted_account_leaves_no_follow_either_way():
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    follow(alice, bob), follow(bob, alice), follow(carol, alice)
    account_delete(user=alice)
    assert not Follow.objects.exists()


def test_a_friends_only_game_is_never_listed_to_everyone():
    game = friends_game(UserFactory())
    assert (game.friends_only, game.is_public) == (True, False)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(is_public=True)


def test_a_friends_only_game_seats_whom_the_host_follows_and_refuses_others_with_a_403():
    host, friend, fan, stranger = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    follow(host, friend)
    follow(fan, host)  # following the host is not enough: the host follows them or not
    game = friends_game(host, seat_count=4)
    assert services.game_join(game_id=game.pk, user=friend).user == friend
    for outsider in (fan, stranger):
        with pytest.raises(GameError, match="only to the players its host follows") as refused:
            services.game_join(game_id=game.pk, user=outsider, invite_code=game.invite_code)
        assert refused.value.status == 403
    assert game.seats.count() == 2


def test_a_friends_only_game_seats_a_player_invited_by_name():
    host, guest = UserFactory(), UserFactory()
    game = friends_game(host)
    invitation = invitations.game_invite(game_id=game.pk, user=host, who=guest.username)
    assert invitations.invitation_accept(invitation_id=invitation.pk, user=guest).user == guest


def test_the_lobby_shows_a_friends_only_game_to_the_hosts_followees_and_the_host_alone():
    host, friend, stranger = UserFactory(), UserFactory(), UserFactory()
    follow(host, friend)
    follow(stranger, host)
    game, listed = friends_game(host), GameFactory(seat_count=3)
    private = services.game_create(creator=host, rules=Rules(), seat_count=3, is_public=False)
    assert set(lists.lobby(friend)) == {game, listed}
    assert set(lists.lobby(host)) == {game, listed}
    assert set(lists.lobby(stranger)) == {listed}
    assert private not in lists.lobby(friend)


def test_the_friends_page_lists_followees_marks_mutual_follows_and_shows_findable_games():
    me, mutual, one_way, quiet = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    for person in (mutual, one_way, quiet):
        follow(me, person)
    follow(mutual, me)
    follow(UserFactory(), one_way)  # someone else's follow is no mutual of mine
    listed = GameFactory(created_by=mutual, seat_count=3)
    theirs = friends_game(one_way)  # one_way does not follow me: not mine to find
    full = GameFactory(created_by=quiet, seat_count=2, players=[UserFactory()])
    private = services.game_create(creator=quiet, rules=Rules(), seat_count=3, is_public=False)
    seated = GameFactory(seat_count=4, players=[quiet])  # quiet sits, someone else hosts
    started = GameFactory(created_by=mutual, started=True)
    rows = {row["user"]: row for row in friends_selectors.friends(me)}
    assert set(rows) == {mutual, one_way, quiet}
    assert [rows[p]["mutual"] for p in (mutual, one_way, quiet)] == [True, False, False]
    assert rows[mutual]["waiting"] == [listed]
    assert rows[one_way]["waiting"] == []
    assert rows[quiet]["waiting"] == [seated]
    for hidden in (theirs, full, private, started):
        assert all(hidden not in row["waiting"] for row in rows.values())


def test_the_friends_page_shows_a_friends_only_game_whose_host_follows_me():
    me, friend = UserFactory(), UserFactory()
    follow(me, friend), follow(friend, me)
    game = friends_game(friend)
    [row] = friends_selectors.friends(me)
    assert row["waiting"] == [game] and not row["waiting"][0].mine


def test_inviting_a_friend_makes_a_two_seat_standard_game_and_invites_them_once():
    me, friend = UserFactory(), UserFactory()
    follow(me, friend)
    game = invitations.friend_invite(user=me, friend=friend)
    assert (game.seat_count, game.rules, game.time_per_move_days) == (
        2, Rules().to_dict(), DEFAULT_TIME_PER_MOVE_DAYS,
    )  # fmt: skip
    assert (game.is_public, game.friends_only, game.status) == (False, False, Game.Status.OPEN)
    invitation = Invitation.objects.get(game=game)
    assert (invitation.invitee, invitation.invited_by) == (friend, me)
    assert Notification.objects.filter(user=friend, kind="invitation", game=game).exists()
    assert invitations.friend_invite(user=me, friend=friend) == game  # a second click
    assert Game.objects.count() == 1
    seat = invitations.invitation_accept(invitation_id=invitation.pk, user=friend)
    assert seat.game == game
    assert invitations.friend_invite(user=me, friend=friend) != game  # that one is full now


def test_only_a_followed_person_is_invited_in_one_click():
    me, stranger = UserFactory(), UserFactory()
    with pytest.raises(GameError) as refused:
        invitations.friend_invite(user=me, friend=stranger)
    assert refused.value.status == 403 and not Game.objects.exists()


def test_a_rematch_of_a_friends_only_game_is_friends_only():
    host, friend = UserFactory(), UserFactory()
    follow(host, friend)
    game = friends_game(host, seat_count=2)
    services.game_join(game_id=game.pk, user=friend)  # the last seat: it starts
    services.game_resign(game_id=game.pk, user=friend)
    rematch = invitations.game_rematch(game_id=game.pk, user=host)
    assert (rematch.friends_only, rematch.is_public) == (True, False)
