import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engine import GameState, Rules
from games.errors import GameError, StaleVersion
from games.models import Game, Move, RoundScore, Seat
from games.selectors.history import replayed_state
from tests.factories import UserFactory, legal_actions, play_on, play_one, started_game

pytestmark = pytest.mark.django_db


def snapshot(game):
    game.refresh_from_db()
    return (game.version, game.state, Move.objects.filter(game=game).count())


def test_create_validates_players_and_time_per_move():
    user = UserFactory()
    with pytest.raises(GameError):
        services.game_create(creator=user, rules=Rules(), seat_count=9)
    with pytest.raises(GameError):
        services.game_create(creator=user, rules=Rules(), seat_count=2, time_per_move_days=4)
    game = services.game_create(creator=user, rules=Rules(jokers=True), seat_count=4)
    assert game.status == Game.Status.OPEN
    assert list(game.seats.values_list("index", "user")) == [(0, user.pk)]
    assert Rules.from_dict(game.rules).jokers


def test_join_leave_and_start_rules():
    host, guest, late = UserFactory(), UserFactory(), UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=2, start_when_full=False)
    with pytest.raises(GameError, match="Every seat"):
        services.game_start(game_id=game.pk, user=host)
    services.game_join(game_id=game.pk, user=guest)
    with pytest.raises(GameError, match="already have a seat"):
        services.game_join(game_id=game.pk, user=guest)
    with pytest.raises(GameError, match="full"):
        services.game_join(game_id=game.pk, user=late)
    with pytest.raises(GameError, match="creator"):
        services.game_start(game_id=game.pk, user=guest)
    services.game_leave(game_id=game.pk, user=guest)
    assert game.seats.count() == 1
    services.game_join(game_id=game.pk, user=late)
    services.game_start(game_id=game.pk, user=host)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.version == 0
    with pytest.raises(GameError, match="already started"):
        services.game_leave(game_id=game.pk, user=late)


def test_host_leaving_cancels_and_bots_fill_every_empty_seat():
    host = UserFactory()
    game = services.game_create(
        creator=host, rules=Rules(), seat_count=4, bot_kind="easy", start_when_full=False
    )
    seats = list(game.seats.select_related("user"))
    assert len(seats) == 4 and all(s.user.is_bot for s in seats[1:])
    assert len({s.user_id for s in seats}) == 4
    services.game_leave(game_id=game.pk, user=host)
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED


def test_a_bot_seated_several_times_is_numbered_2_3_in_order():
    host, guest = UserFactory(), UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=4)
    services.game_fill_with_bots(game_id=game.pk, user=host, bot_kind="easy")
    names = [s.user.name for s in game.seats.select_related("user").order_by("index")]
    assert names[1:] == ["Easy Bot", "Easy Bot 2", "Easy Bot 3"]
    # Filling again later continues the numbering.
    other = services.game_create(creator=guest, rules=Rules(), seat_count=3)
    services.game_join(game_id=other.pk, user=host)
    services.game_fill_with_bots(game_id=other.pk, user=guest, bot_kind="easy")
    assert [s.user.name for s in other.seats.select_related("user")][2] == "Easy Bot"


@pytest.mark.slow  # a whole game
def test_a_whole_game_is_recorded_move_by_move_and_rebuilds_exactly():
    users = [UserFactory(), UserFactory()]
    game = started_game(users, time_per_move_days=2)
    assert game.deadline is not None
    play_on(game, rng=random.Random(3))  # good play, so rounds end by going out
    assert replayed_state(game) == GameState.from_dict(game.state)
    assert Move.objects.filter(game=game).count() == game.version
    rounds = Rules().round_count
    assert RoundScore.objects.filter(game=game).count() == rounds * 2
    state = GameState.from_dict(game.state)
    for seat in game.seats.all():
        total = sum(RoundScore.objects.filter(game=game, seat=seat.index).values_list(
            "penalty", flat=True))  # fmt: skip
        assert total == state.totals[seat.index] == seat.final_total
    ranks = sorted(game.seats.values_list("final_rank", flat=True))
    assert ranks[0] == 1
    assert game.finished_at is not None and game.deadline is None


def test_a_stale_version_is_refused_and_changes_nothing():
    users = [UserFactory(), UserFactory()]
    game = started_game(users)
    mover = game.seats.get(index=game.to_move_seat).user
    before = snapshot(game)
    with pytest.raises(StaleVersion):
        services.move_draw(game_id=game.pk, user=mover, version=game.version + 1, source="stock")
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("who", "kwargs", "message"),
    [
        ("other", {"source": "stock"}, "not your turn"),
        ("stranger", {"source": "stock"}, "no seat"),
        ("mover", {"source": "sky"}, "Draw from the stock"),
    ],
)
def test_bad_draws_are_refused_and_change_nothing(who, kwargs, message):
    users = [UserFactory(), UserFactory()]
    game = started_game(users)
    people = {
        "mover": game.seats.get(index=game.to_move_seat).user,
        "other": game.seats.exclude(index=game.to_move_seat).get().user,
        "stranger": UserFactory(),
    }
    before = snapshot(game)
    with pytest.raises(GameError, match=message):
        services.move_draw(game_id=game.pk, user=people[who], version=game.version, **kwargs)
    assert snapshot(game) == before


def test_discarding_a_card_not_in_hand_or_junk_is_refused():
    users = [UserFactory(), UserFactory()]
    game = started_game(users)
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    play_one(game, by_seat)  # draw
    mover = by_seat[game.to_move_seat]
    state = GameState.from_dict(game.state)
    foreign = state.hands[1 - game.to_move_seat][0].token
    before = snapshot(game)
    for card in (foreign, "ZZ", "", "7H.99", "<script>"):
        with pytest.raises(GameError):
            services.move_discard(game_id=game.pk, user=mover, version=game.version, card=card)
    with pytest.raises(GameError, match="cannot go out"):
        hand = state.hands[game.to_move_seat]
        not_out = [
            c
            for c in hand
            if c.token
            not in {a.card.token for a in legal_actions(game) if a.to_dict()["type"] == "go_out"}
        ]
        services.move_go_out(
            game_id=game.pk, user=mover, version=game.version, card=not_out[0].token
        )  # fmt: skip
    assert snapshot(game) == before


def test_bot_turn_runs_once_per_version():
    host = UserFactory()
    game = started_game([host], bots="easy", seat_count=2)
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    if by_seat[game.to_move_seat] == host:
        play_one(game, by_seat)
        play_one(game, by_seat)
    version = game.version
    assert services.bot_play_turn(game_id=game.pk, version=version) is True
    assert services.bot_play_turn(game_id=game.pk, version=version) is False
    game.refresh_from_db()
    assert game.version == version + 1
    assert Move.objects.get(game=game, seq=version).by_bot


def test_resigning_ranks_last_and_ends_a_game_left_with_one_person():
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    game = started_game([a, b, c])
    services.game_resign(game_id=game.pk, user=b)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert services.bot_kind_of(Seat.objects.get(game=game, user=b)) == "medium"
    with pytest.raises(GameError, match="resigned"):
        services.move_draw(game_id=game.pk, user=b, version=game.version, source="stock")
    services.game_resign(game_id=game.pk, user=c)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    ranks = dict(game.seats.values_list("user", "final_rank"))
    assert ranks[a.pk] == 1 and ranks[b.pk] >= 2 and ranks[c.pk] >= 2
    with pytest.raises(GameError, match="over"):
        services.move_draw(game_id=game.pk, user=a, version=game.version, source="stock")


def _fill_by_join(game, host, last):
    services.game_join(game_id=game.pk, user=last, invite_code=game.invite_code)


def _fill_by_invitation(game, host, last):
    from games import invitations

    invitation = invitations.game_invite(game_id=game.pk, user=host, who=last.username)
    invitations.invitation_accept(invitation_id=invitation.pk, user=last)


def _fill_by_bots(game, host, last):
    services.game_fill_with_bots(game_id=game.pk, user=host, bot_kind="easy")


@pytest.mark.parametrize("fill", [_fill_by_join, _fill_by_invitation, _fill_by_bots])
def test_a_game_starts_by_itself_when_its_last_seat_is_taken(fill):
    from games.models import Notification

    host, first, last = UserFactory(), UserFactory(), UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=3, is_public=False)
    services.game_join(game_id=game.pk, user=first, invite_code=game.invite_code)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    assert list(Notification.objects.filter(kind="joined").values_list("user", "player")) == [
        (host.pk, first.pk)
    ]
    fill(game, host, last)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.started_at is not None
    to_move = game.seats.get(index=game.to_move_seat).user
    people = {host, first} | ({last} if fill is not _fill_by_bots else set())
    starter = host if fill is _fill_by_bots else last
    # Each person hears it once: their turn, or that the game started; not whoever started it.
    started = set(Notification.objects.filter(kind="started").values_list("user", flat=True))
    assert started == {p.pk for p in people - {starter, to_move}}
    if not to_move.is_bot:
        assert Notification.objects.filter(kind="your_turn", user=to_move).exists()


def test_a_game_made_with_every_seat_a_bot_starts_at_once_unless_the_host_waits():
    host = UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=3, bot_kind="easy")
    assert game.status == Game.Status.ACTIVE
    waits = services.game_create(
        creator=host, rules=Rules(), seat_count=2, seat_bots=["hard"], start_when_full=False
    )
    assert waits.status == Game.Status.OPEN
    with pytest.raises(GameError):
        services.game_start(game_id=waits.pk, user=UserFactory())
    assert services.game_start(game_id=waits.pk, user=host).status == Game.Status.ACTIVE


def test_create_seated_starts_at_once_and_tells_everyone_seated(django_capture_on_commit_callbacks):
    from games.models import Notification

    ann, bob, cat = UserFactory(), UserFactory(), UserFactory()
    with django_capture_on_commit_callbacks():
        game = services.game_create_seated(
            players=[ann, bob, cat], rules=Rules(), time_per_move_days=3
        )
    assert game.status == Game.Status.ACTIVE and game.rated and game.is_public
    assert list(game.seats.order_by("index").values_list("user", flat=True)) == [
        ann.pk,
        bob.pk,
        cat.pk,
    ]
    to_move = game.seats.get(index=game.to_move_seat).user
    told = dict(Notification.objects.filter(channel="mail").values_list("user", "kind"))
    assert told == {
        user.pk: ("your_turn" if user == to_move else "started") for user in (ann, bob, cat)
    }
    with pytest.raises(GameError, match="only one seat"):
        services.game_create_seated(players=[ann, ann], rules=Rules(), time_per_move_days=None)


@pytest.mark.parametrize(
    ("seen_ago", "delay"),
    [(timedelta(seconds=5), 0.25), (timedelta(minutes=5), 1.5), (None, 1.5)],
    ids=["at the table", "away", "never looked"],
)
def test_a_bot_answers_after_a_brief_pause_while_its_opponent_is_at_the_table(
    monkeypatch, settings, seen_ago, delay
):
    """Watched (the player's table open within PRESENCE_SECONDS), each of the bot's actions
    waits BOT_MOVE_DELAY_WATCHED_SECONDS; at correspondence pace, BOT_MOVE_DELAY_SECONDS."""
    settings.BOT_MOVE_DELAY_SECONDS, settings.BOT_MOVE_DELAY_WATCHED_SECONDS = 1.5, 0.25
    queued = []
    monkeypatch.setattr(
        services,
        "enqueue_on_commit",
        lambda name, args, countdown=None: queued.append((name, countdown)),
    )
    player = UserFactory()
    game = services.game_create(
        creator=player, rules=Rules(), seat_count=2, is_public=False, bot_kind="easy"
    )
    play_on(game, until=lambda game: game.to_move_seat == 0)  # the player's turn begins
    seen_at = None if seen_ago is None else timezone.now() - seen_ago
    Seat.objects.filter(game=game, user=player).update(last_seen_at=seen_at)
    queued.clear()
    play_one(game, {0: player})  # the draw
    play_one(game, {0: player})  # the discard (or going out): the bot's turn
    services.bot_play_turn(game_id=game.pk, version=game.version)  # its draw
    bot_moves = [countdown for name, countdown in queued if name == "games.tasks.bot_move"]
    assert bot_moves == [delay, delay]
