"""Every page runs a fixed number of SQL queries, however many moves, games, players, chat
messages, notices and follows there are (docs/benchmarks.md lists them). Each test builds a small
world and a large one, counts each page's queries in both, and compares them with the pinned
counts: a count that grows with the data shows as two different numbers, any other change as a
new one.

Each count is the whole request's: the session comes from the cache, then the player (auth), the
page's own reads, and on a full page the bar's count of new notices (one query)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import PushSubscription, Vacation
from games import chat, invitations, services
from games.engine import Discard, GoOut, Rules
from games.models import ChatMessage, Game, Move, RatingChange, Seat
from games.selectors.notices import notice_count
from tests.factories import (
    GameFactory,
    UserFactory,
    finish_game,
    legal_actions,
    play_one,
    started_game,
)
from tests.views.helpers import (
    TABLE_ASKS,
    a_game_where_the_other_moved,
    finished_game,
    follow,
    marks,
    rated_players,
    shared_game,
)

pytestmark = [pytest.mark.django_db, pytest.mark.queries]


def count(client, name, *args, status=200, move=None, headers=None, **params) -> int:
    """The queries of one GET of the page `name` (which answers `status`, with `headers`), or
    of one POST of the form `move` as HTMX sends it."""
    with CaptureQueriesContext(connection) as queries:
        if move is None:
            response = client.get(reverse(name, args=args), params, **(headers or {}))
        else:
            response = client.post(reverse(name, args=args), move, HTTP_HX_REQUEST="true")
    assert response.status_code == status, (name, response.status_code)
    return len(queries)


def assert_fixed(small: dict, large: dict, pinned: dict) -> None:
    assert small == large, "a page's queries grow with the data"
    assert small == pinned, "a page's queries changed: update the pin (and docs/benchmarks.md)"


# -- a game: the table, its poll, its history and chat, the replay ---------------------------


def going_out(actions):
    """A player who goes out as soon as they can (so that rounds end), else plays the first
    legal action."""
    return next((a for a in actions if isinstance(a, GoOut)), actions[0])


def others_moved_last(game) -> bool:
    """The last move was another's, and the player to move has yet to draw."""
    last = Move.objects.filter(game=game).order_by("-seq").values_list("seat", flat=True)[0]
    return last != game.to_move_seat and game.state["phase"] == "draw"


def game_played(*, players: int, moves: int, messages: int):
    """A started public game of `players` people, at least `moves` moves into it and past its
    first round (2 players: 10 moves; 8 players: 200 moves, round 5), where the player to move
    has not yet seen the last turn; `messages` chat messages; the player
    to move follows everyone and mutes one of them. Returns (game, the player to move)."""
    users = [UserFactory() for _ in range(players)]
    game = started_game(users)
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    while game.version < moves or game.round_index < 1 or not others_moved_last(game):
        play_one(game, by_seat, going_out)
    assert game.status == Game.Status.ACTIVE
    me = by_seat[game.to_move_seat]
    ChatMessage.objects.bulk_create(
        ChatMessage(game=game, seq=n, author=users[n % players], text=f"m{n}", version=n // 2)
        for n in range(1, messages + 1)
    )
    Game.objects.filter(pk=game.pk).update(chat_count=messages)
    game.refresh_from_db()
    others = [user for user in users if user != me]
    for other in others:
        follow(me, other)
    chat.user_mute(user=me, other=others[0])
    return game, me


SMALL_GAME = {"players": 2, "moves": 4, "messages": 0}
LARGE_GAME = {"players": 8, "moves": 200, "messages": 50}

TABLE = {
    # The player (auth), the game, its seats with their players (the player's
    # among them), the players' vacations under way, the moves since they last looked, the next
    # game waiting on them, the chat with its authors, their mutes, the bar's count; then what
    # they have seen and when they were here are written, in one update (outside a test's
    # transaction, one that does not wait for the disk: games/asynchronous_commit.py).
    # (Whether the last round's summary is still fresh is the pile log's word: no query.)
    # The page (never a poll) also asks whether the game is a league's or a tournament's, for the
    # line above it (one query).
    "table": 11,
    "table again": 9,  # no moves since, nothing new seen, presence written at most every 10 s
    "unchanged poll": 2,  # the player (auth), their seat with the game's version
    # That seat, then the table's reads (no bar); the chat only when the page lacks its latest.
    "changed poll": 6,
    "changed poll, new chat": 8,
    "history": 5,  # the game, its seats, the moves, the bar
    "chat": 6,
    # A move by HTMX: the player (auth); in a transaction, the game locked, its seats with their
    # players, the move written, the seat and the game saved; then the table's reads from the
    # game and seats the move left (no second look, no bar, no chat: the page holds it), the
    # players' vacations under way and the next game waiting on the player.
    "draw": 10,
    # And the next player's turn mail: their verified address, their preferences, the mail
    # already queued for this turn, the row written (in a savepoint), their push subscriptions.
    "discard": 17,
    # The table's own poll, answered in parts: the changed poll's reads but the next game.
    "parts": 5,
    "spectator's table": 7,  # no moves since, no chat, nothing written
    "spectator's unchanged poll": 3,  # no seat found, then the game
    "spectator's changed poll": 7,
    "spectator's history": 5,
}


def held(client, game) -> dict:
    """The marks of what the table page holds (#table-marks), as its requests send them."""
    return marks(client.get(reverse("game", args=[game.pk])))


def table_counts(client, game, me) -> dict[str, int]:
    client.force_login(me)
    v = game.version
    chat = game.chat_count  # the chat the page holds, which its polls and moves say
    counts = {
        "table": count(client, "game", game.pk),
        "table again": count(client, "game", game.pk),
        "unchanged poll": count(client, "game_table", game.pk, status=204, v=v, c=chat),
        "changed poll": count(client, "game_table", game.pk, v=game.version - 1, c=chat),
        "changed poll, new chat": count(client, "game_table", game.pk, v=game.version - 1),
        # The table's own poll from a page of this round: its parts (the hand's mark unchanged).
        "parts": count(
            client,
            "game_table",
            game.pk,
            headers=TABLE_ASKS,
            **{**held(client, game), "v": game.version - 1},
        ),
        "history": count(client, "game_history", game.pk),
        "chat": count(client, "game_chat", game.pk),
        "draw": count(
            client, "move_draw", game.pk, move={"version": v, "source": "stock", "c": chat}
        ),
    }
    game.refresh_from_db()
    discard = next(a.card.token for a in legal_actions(game) if isinstance(a, Discard))
    move = {"version": game.version, "card": discard, "c": chat}
    counts["discard"] = count(client, "move_discard", game.pk, move=move)
    game.refresh_from_db()
    client.force_login(UserFactory())
    return counts | {
        "spectator's table": count(client, "game", game.pk),
        "spectator's unchanged poll": count(
            client, "game_table", game.pk, status=204, v=game.version
        ),
        "spectator's changed poll": count(client, "game_table", game.pk, v=0),
        "spectator's history": count(client, "game_history", game.pk),
    }


@pytest.mark.slow  # games of 2 and 8 played a while
def test_the_table_its_poll_history_and_chat_cost_the_same_for_2_players_as_for_8(client):
    small = table_counts(client, *game_played(**SMALL_GAME))
    large = table_counts(client, *game_played(**LARGE_GAME))
    assert_fixed(small, large, TABLE)


FINISHED = {
    # The table with the ranking, the moves since the last look, the next game waiting on the
    # player; whether it was a league's or a tournament's; nothing written.
    "table": 9,
    # The game, its seats with their players, the chat, the bar's count.
    "replay at the start": 5,
    "replay at a move": 7,  # the moves up to it (replayed from the seed), that move itself
    "replay at the end": 7,
    "spectator's replay": 6,  # no chat
}


def finished_counts(client, game, me) -> dict[str, int]:
    finish_game(game)
    client.force_login(me)
    counts = {
        "table": count(client, "game", game.pk),
        "replay at the start": count(client, "game_replay", game.pk),
        "replay at a move": count(client, "game_replay", game.pk, step=3),
        "replay at the end": count(client, "game_replay", game.pk, step=game.version),
    }
    client.force_login(UserFactory())
    return counts | {"spectator's replay": count(client, "game_replay", game.pk, step=3)}


@pytest.mark.slow  # two whole games
def test_a_finished_game_and_its_replay_cost_the_same_for_2_players_as_for_8(client):
    small = finished_counts(client, *game_played(**SMALL_GAME))
    large = finished_counts(client, *game_played(**LARGE_GAME))
    assert_fixed(small, large, FINISHED)


# -- a player: the dashboard, the player page, the lists, the notices, the data export --------


def many_games(me, count):
    """Games of every kind for `me`: waiting on me, on others, open, finished, invitations."""
    for _ in range(count):
        other = UserFactory()
        started_game([me, other, UserFactory()], time_per_move_days=1)
        finished = started_game([me, other])
        services.game_resign(game_id=finished.pk, user=other)
        services.game_create(creator=me, rules=Rules(), seat_count=3)
        hosted = services.game_create(creator=other, rules=Rules(), seat_count=2)
        invitations.game_invite(game_id=hosted.pk, user=other, who=me.username)


def player_world(scale: int):
    """A player with games of every kind (5 x `scale`, with unread chat), `scale` vacations (past,
    present, to come) and push devices; 2 x `scale` finished
    games with statistics and rating changes, against one rival; `scale` friends, each hosting
    a friends-only game and just moved in another; 3 x `scale` rated players; `scale` listed
    open games of 2 x `scale` seats (at most 8), and a waiting room of as many seats that the
    player hosts, the rival seated and `scale` players invited. Returns (player, rival, the
    waiting room)."""
    me, rival = UserFactory(), UserFactory()
    many_games(me, scale)
    for day in range(2 * scale):
        went_out = day % 3 == 0
        rounds = [(3 + day % 11, 0 if went_out else day, went_out)]
        finished_game(me, rank=1 + day % 2, total=day, day=day, rounds=rounds)
        shared_game(me, rival, first_rank=1 + day % 2, second_rank=2 - day % 2, day=day)
    for _ in range(scale):
        friend = UserFactory()
        follow(me, friend), follow(friend, me)
        services.game_create(creator=friend, rules=Rules(), seat_count=3, friends_only=True)
        a_game_where_the_other_moved(me, friend)
    seats = min(8, 2 * scale)
    for _ in range(scale):
        GameFactory(seat_count=seats, players=[UserFactory() for _ in range(seats - 2)])
    waiting = GameFactory(created_by=me, seat_count=seats, players=[rival], start_when_full=False)
    for _ in range(scale):
        invitations.game_invite(game_id=waiting.pk, user=me, who=UserFactory().username)
    active = Seat.objects.filter(user=me, game__status=Game.Status.ACTIVE).values("game_id")
    ChatMessage.objects.bulk_create(
        ChatMessage(game_id=seat["game_id"], seq=n, author=rival, text="hi", version=0)
        for seat in active
        for n in (1, 2)
    )
    Game.objects.filter(pk__in=active).update(chat_count=2)
    rated_players(3 * scale, start=scale)
    finished = Seat.objects.filter(user=me, finished_at__isnull=False).exclude(
        game__rating_changes__user=me  # finished_game's
    )
    RatingChange.objects.bulk_create(
        RatingChange(
            game_id=seat.game_id, user=me, rank=seat.final_rank or 1, mu_before=25 + n,
            sigma_before=8, mu_after=26 + n, sigma_after=7, ordinal_after=5 + n,
            finished_at=seat.finished_at,
        )
        for n, seat in enumerate(finished)
    )  # fmt: skip
    today = timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)
    for n in range(scale):
        start = today + timedelta(days=10 * (n - scale // 2))
        Vacation.objects.create(user=me, starts_at=start, ends_at=start + timedelta(days=3))
        PushSubscription.objects.create(
            user=me, endpoint=f"https://push.example/{me.pk}/{n}", p256dh="k", auth="a"
        )
    return me, rival, waiting


PLAYER_PAGES = {
    # The player (auth), their seats under way, a page of finished ones (and their count), the
    # invitations, the games' players, the scores so far, their address, the bar's count.
    "dashboard": 10,  # with the open seeks (quick play)
    "dashboard, page 2": 10,
    "lobby": 5,  # the open games with their hosts, their seats, the seated players
    "friends": 5,  # the people followed, their open games, those games' seats
    # The mail rows, the games with others' moves, the rounds that ended in them, the look.
    "notices": 5,
    "leaderboard": 4,
    "leaderboard, page 2": 4,
    # The shown player with their preferences (and a bot's owner), the rating, its history, the
    # statistics' 5 queries, the viewer's record against them, their tournament places, their
    # league history, their own bots.
    "own player page": 14,  # +1: the accuracy of the latest reviewed games
    "own player page against the rival": 16,  # the rival (with preferences), the aggregate
    "another's player page": 15,
    "another's player page against the rival": 16,
    "the rival's view of the player page": 15,  # their head-to-head with the viewer
    "data export": 11,
    "settings": 5,  # the preferences, the push devices, the address, the bar
    "vacations": 5,
    # The game, its seats with their players, the invitations sent, the invitations answered
    # (the mark its poll sends back), the bar's count.
    "waiting room, for its host": 6,
    "waiting room, for a seated guest": 5,
}


def player_counts(client, me, rival, waiting) -> dict[str, int]:
    client.force_login(me)
    with CaptureQueriesContext(connection) as dashboard:
        counts = {"dashboard": count(client, "home")}
    for query in dashboard.captured_queries:  # list pages never read a game's state
        assert '"games_game"."state"' not in query["sql"], query["sql"]
    counts |= {
        "dashboard, page 2": count(client, "home", page=2),
        "lobby": count(client, "lobby"),
        "friends": count(client, "friends"),
        "notices": count(client, "notices"),
        "leaderboard": count(client, "leaderboard"),
        "leaderboard, page 2": count(client, "leaderboard", page=2),
        "own player page": count(client, "player", me.username),
        "own player page against the rival": count(
            client, "player", me.username, vs=rival.username
        ),
        "data export": count(client, "account_data"),
        "settings": count(client, "notification_preferences"),
        "vacations": count(client, "vacation"),
        "waiting room, for its host": count(client, "game", waiting.pk),
    }
    client.force_login(UserFactory())
    counts |= {
        "another's player page": count(client, "player", me.username),
        "another's player page against the rival": count(
            client, "player", me.username, vs=rival.username
        ),
    }
    client.force_login(rival)
    counts["the rival's view of the player page"] = count(client, "player", me.username)
    counts["waiting room, for a seated guest"] = count(client, "game", waiting.pk)
    return counts


@pytest.mark.slow  # 35 games made
def test_a_players_pages_cost_the_same_for_5_games_as_for_30(client):
    small = player_counts(client, *player_world(1))
    large = player_counts(client, *player_world(6))
    assert_fixed(small, large, PLAYER_PAGES)


def test_the_bars_count_of_new_notices_is_one_query_for_1_game_as_for_12(
    django_assert_num_queries,
):
    few, many = UserFactory(), UserFactory()
    a_game_where_the_other_moved(few, UserFactory())
    for _ in range(12):
        a_game_where_the_other_moved(many, UserFactory())
    counts = []
    for user in (few, many):
        with django_assert_num_queries(1):
            counts.append(notice_count(user))
    assert counts[0] < counts[1]


# -- tournaments: the list, a tournament's page mid-way, one round's Swiss seating ------------


def tournament_world(players: int):
    """A tournament of `players` at tables of 2 (a bye when odd), round 1 over, round 2 on."""
    from games.competitions import tournaments
    from tests.competitions.helpers import finish_round, with_players

    tournament = with_players(players, seats_per_table=2, rounds=3)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    finish_round(tournament)
    return tournament


TOURNAMENT_PAGES = {
    # The session's player, the three lists (each with its players' count, host and winner),
    # the bar's count.
    "tournaments": 5,
    # The player, the tournament (host, winner), its entries, its seats, its byes, its tables
    # with their rounds, games and byes, those games' seats, their players, the bar's count.
    "tournament": 9,
    # The standing's entries, seats and byes: the same for 4 players as for 13.
    "swiss seating": 3,
}


def tournament_counts(client, tournament) -> dict[str, int]:
    from games.competitions.tournaments import round_seating

    client.force_login(tournament.created_by)
    with CaptureQueriesContext(connection) as seating:
        round_seating(tournament)
    return {
        "tournaments": count(client, "tournaments"),
        "tournament": count(client, "tournament", tournament.pk),
        "swiss seating": len(seating),
    }


def test_tournament_pages_and_seating_cost_the_same_for_4_players_as_for_13(client):
    small = tournament_counts(client, tournament_world(4))
    large = tournament_counts(client, tournament_world(13))
    assert_fixed(small, large, TOURNAMENT_PAGES)
