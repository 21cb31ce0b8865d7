"""Quick play's seeks (games/competitions/quick.py): matching, the rating window, any seat count,
cancelling, one open seek per combination."""

from datetime import timedelta

import pytest
from django.db import IntegrityError

from games import services
from games.competitions import quick
from games.errors import GameError
from games.models import Game, Notification, Rating, Seek
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def seek(player, seats=2, preset="classic", time=3):
    return quick.seek_create(player=player, seats=seats, preset=preset, time_per_move_days=time)


def rate(user, shown: int):
    """Give `user` the rating shown as `shown` (display = 1000 + 40 * ordinal)."""
    ordinal = (shown - 1000) / 40
    Rating.objects.create(user=user, mu=ordinal + 3, sigma=1, ordinal=ordinal, games=10)


def test_the_first_seeker_opens_a_quick_public_rated_game_that_starts_when_full():
    alice = UserFactory()
    found = seek(alice)
    game = found.game
    assert found.status == Seek.Status.OPEN
    assert game.quick and game.is_public and game.rated and game.start_when_full
    assert game.status == Game.Status.OPEN and game.seat_count == 2
    assert game.time_per_move_days == 3 and game.rules["rounds"] == "classic"


def test_the_second_seeker_is_matched_into_it_and_it_starts_by_itself():
    alice, bob = UserFactory(), UserFactory()
    first = seek(alice)
    second = seek(bob)
    assert second.game == first.game
    game = Game.objects.get(pk=first.game_id)
    assert game.status == Game.Status.ACTIVE
    assert set(Seek.objects.values_list("status", flat=True)) == {Seek.Status.MATCHED}


def test_only_the_same_preset_time_and_seat_count_match():
    alice = UserFactory()
    first = seek(alice)
    others = [
        seek(UserFactory(), seats=3),
        seek(UserFactory(), preset="extended"),
        seek(UserFactory(), time=7),
        seek(UserFactory(), time=None),
    ]
    assert len({s.game_id for s in [first, *others]}) == 5


def test_a_seeker_of_any_seat_count_joins_whatever_waits():
    first = seek(UserFactory(), seats=3)
    anyone = seek(UserFactory(), seats=None)
    assert anyone.game == first.game and anyone.game.seat_count == 3


def test_a_seeker_of_any_seat_count_with_nothing_waiting_opens_a_two_player_game():
    assert seek(UserFactory(), seats=None).game.seat_count == 2


def test_a_player_is_not_matched_into_a_game_they_already_sit_in():
    alice = UserFactory()
    first = seek(alice, seats=3)
    second = seek(alice, seats=None)
    assert second.game != first.game


def test_ratings_far_apart_are_not_matched_until_the_window_widens():
    strong, weak = UserFactory(), UserFactory()
    rate(strong, 1400)
    rate(weak, 1000)
    first = seek(strong)
    assert seek(weak).game != first.game  # 400 apart, the game new: window 150
    Game.objects.filter(pk=first.game_id).update(
        created_at=first.game.created_at - timedelta(hours=2)
    )  # window 350
    assert seek(UserFactory()).game != first.game  # a newcomer's 1000: still too far
    late = UserFactory()
    rate(late, 1100)
    assert seek(late).game == first.game


def test_the_window_widens_with_the_wait_and_has_no_limit_after_a_day():
    assert quick.rating_window(waited=timedelta()) == 150
    assert quick.rating_window(waited=timedelta(hours=2)) == 350
    assert quick.rating_window(waited=timedelta(days=1)) == float("inf")


def test_near_ratings_match_at_once():
    alice, bob = UserFactory(), UserFactory()
    rate(alice, 1100)
    rate(bob, 1000)
    assert seek(bob).game == seek(alice).game


def test_one_open_seek_per_combination_but_several_combinations():
    alice = UserFactory()
    seek(alice)
    with pytest.raises(GameError) as refused:
        seek(alice)
    assert refused.value.status == 409
    seek(alice, time=None)
    seek(alice, time=None, seats=None)
    assert Seek.objects.filter(player=alice, status=Seek.Status.OPEN).count() == 3
    assert Game.objects.filter(seats__user=alice).count() == 3


def test_the_database_holds_one_open_seek_per_combination_with_any_and_no_time():
    alice = UserFactory()
    Seek.objects.create(player=alice, seats=None, preset="classic", time_per_move_days=None)
    with pytest.raises(IntegrityError):
        Seek.objects.create(player=alice, seats=None, preset="classic", time_per_move_days=None)


@pytest.mark.parametrize(
    "seats, preset, time",
    [(5, "classic", 3), (1, "classic", 3), (2, "jokers", 3), (2, "classic", 4)],
)
def test_junk_is_refused_and_changes_nothing(seats, preset, time):
    with pytest.raises(GameError) as refused:
        seek(UserFactory(), seats=seats, preset=preset, time=time)
    assert refused.value.status == 400
    assert not Seek.objects.exists() and not Game.objects.exists()


def test_cancelling_frees_the_seat_and_an_empty_game_is_cancelled():
    alice = UserFactory()
    found = seek(alice)
    cancelled = quick.seek_cancel(seek_id=found.pk, player=alice)
    assert cancelled.status == Seek.Status.CANCELLED
    assert Game.objects.get(pk=found.game_id).status == Game.Status.CANCELLED
    seek(alice)  # the combination is free again


def test_the_first_seeker_leaving_does_not_cancel_a_game_others_sit_in():
    alice, bob = UserFactory(), UserFactory()
    first = seek(alice, seats=3)
    seek(bob, seats=3)
    quick.seek_cancel(seek_id=first.pk, player=alice)
    game = Game.objects.get(pk=first.game_id)
    assert game.status == Game.Status.OPEN
    assert list(game.seats.values_list("user", flat=True)) == [bob.pk]
    carol, dave = UserFactory(), UserFactory()
    seek(carol, seats=3)
    seek(dave, seats=3)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_leaving_a_quick_game_ends_the_seek():
    alice = UserFactory()
    found = seek(alice)
    services.game_leave(game_id=found.game_id, user=alice)
    found.refresh_from_db()
    assert found.status == Seek.Status.CANCELLED


def test_nobody_may_cancel_someone_elses_seek():
    found = seek(UserFactory())
    with pytest.raises(GameError) as refused:
        quick.seek_cancel(seek_id=found.pk, player=UserFactory())
    assert refused.value.status == 404
    found.refresh_from_db()
    assert found.status == Seek.Status.OPEN


def test_a_matched_seek_cannot_be_cancelled():
    alice = UserFactory()
    found = seek(alice)
    seek(UserFactory())
    with pytest.raises(GameError) as refused:
        quick.seek_cancel(seek_id=found.pk, player=alice)
    assert refused.value.status == 409


def test_a_quick_game_has_no_host_actions():
    alice = UserFactory()
    found = seek(alice, seats=3)
    with pytest.raises(GameError) as refused:
        services.game_fill_with_bots(game_id=found.game_id, user=alice)
    assert refused.value.status == 403


def test_a_game_left_empty_since_it_was_read_is_passed_over(monkeypatch):
    """The pool lock keeps seekers out, not a player leaving: once locked, the game is read
    again."""
    alice = UserFactory()
    found = seek(alice)
    stale = Game.objects.get(pk=found.game_id)  # read while open ...
    quick.seek_cancel(seek_id=found.pk, player=alice)  # ... then left, and so cancelled
    monkeypatch.setattr(quick, "_matches", lambda **kwargs: [stale])
    bob = seek(UserFactory())
    assert bob.game_id != stale.pk and bob.game.status == Game.Status.OPEN


def test_the_first_seeker_is_told_of_no_seat_taken_but_everyone_of_the_start():
    first, second, third = UserFactory(), UserFactory(), UserFactory()
    found = seek(first, seats=3)
    seek(second, seats=3)
    assert not Notification.objects.filter(kind=Notification.Kind.JOINED).exists()
    seek(third, seats=3)
    told = Notification.objects.filter(
        game_id=found.game_id, kind__in=[Notification.Kind.STARTED, Notification.Kind.YOUR_TURN]
    ).values_list("user_id", flat=True)
    assert {first.pk, second.pk} <= set(told)  # the third started it and sees the table
