"""A made-up history for measuring pages at scale (`manage.py seed_history`, then `bench_scale`):
users shaped like real ones (a few play a lot, most a little; some sit with bots), finished games
with their round scores, final ranks and ratings, some games in play and some open in the lobby.

The games are not played one by one: a small pool of real games is played by the engine's bots
(so round scores, melds and snapshots are the engine's own), and each seeded game takes one of
them for its number of seats, with its own players, times and options. Rows go in with COPY
(PostgreSQL only). Reproducible: one --seed gives the same rows (but for the ids the database
hands out, and the clock: times are relative to now).

What is stored, and what is left out because no list or profile reads it:
- finished games: the game row (with the engine's final snapshot), seats with final rank, total
  and finish time, every round's RoundScore, the RatingChange rows and the Rating they add up
  to, a game-over mail per person, and the **last turn of each seat** only of the move log (the
  notice queries read moves; the full log of 100,000 games would be tens of millions of rows);
- games in play: the snapshot at a point in the game and the whole move log up to it;
- open games: seats taken, no state.
`rebuild_stats` needs whole move logs, so it does not apply to a seeded database."""

from __future__ import annotations

import bisect
import itertools
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import Preferences, User
from accounts.services import bots_ensure
from games.engine import GameState, Rules, get_bot
from games.models import TIME_PER_MOVE_DAYS, Follow, Game, Rating, Seat
from games.ratings import MODEL
from games.results import seats_rank

# How many players sit at a game, and how often (2-4 mostly).
SEAT_COUNT_WEIGHTS = {2: 38, 3: 26, 4: 20, 5: 6, 6: 5, 7: 3, 8: 2}
BOT_GAME_SHARE = 0.25  # games with at least one bot
BOT_LEVEL_WEIGHTS = {"medium": 5, "easy": 3, "hard": 2}
ENDS = {Game.EndReason.COMPLETED: 92, Game.EndReason.RESIGNED: 6, Game.EndReason.DROPPED: 2}
TEMPLATES_PER_SEAT_COUNT = 12  # at most: 2, and one more per thousand games
HISTORY_DAYS = 730
CURRENT_GAMES_MAX = 20  # games under way (in play or open) per person
NAMES = (
    "Ada", "Bram", "Chiara", "Dewi", "Eva", "Finn", "Gita", "Hana", "Ivo", "Jana", "Kees",
    "Lena", "Marek", "Nina", "Olaf", "Petra", "Ratna", "Sven", "Tomas", "Ulla", "Vera", "Wim",
)  # fmt: skip
LANGUAGES = ("en", "en", "en", "nl", "cs", "hu", "id", "is")
ZONES = ("UTC", "Europe/Prague", "Europe/Amsterdam", "Asia/Jakarta", "America/New_York")


@dataclass
class Template:
    """One game played by bots: what a seeded game copies."""

    seed: str
    players: int
    rules: dict
    final_state: str  # JSON
    totals: list[int]
    rounds: list[list[tuple]]  # per round, per seat: a RoundScore's columns
    moves: list[tuple]  # (seq, seat, round_index, action JSON, record JSON)
    mid_version: int  # a point in the game: a game in play stands there, an early end ends there
    mid_state: str
    mid_totals: list[int]
    mid_to_move: int
    mid_round: int
    mid_rounds_done: int


@dataclass
class Counts:
    users: int = 0
    finished: int = 0
    active: int = 0
    open: int = 0
    rows: dict = field(default_factory=dict)  # per table


def play_templates(rng: random.Random, per_size: int = TEMPLATES_PER_SEAT_COUNT) -> dict:
    """`per_size` games for each number of seats, played by easy and medium bots."""
    templates = {}
    for players in SEAT_COUNT_WEIGHTS:
        templates[players] = [
            _play_one(rng, players, f"seed-history-{rng.getrandbits(64):016x}")
            for _ in range(per_size)
        ]
    return templates


def _play_one(rng: random.Random, players: int, seed: str) -> Template:
    rules = Rules()
    state = GameState.new(rules, players, seed)
    bots = [get_bot(rng.choice(("easy", "medium"))) for _ in range(players)]
    bot_rng = random.Random(seed)
    moves, actions = [], []
    while not state.is_over:
        action = bots[state.to_move].choose(state.view(state.to_move), bot_rng)
        record = state.apply(action)
        actions.append(action)
        moves.append(
            (
                record.action_index,
                record.seat,
                record.round_index,
                json.dumps(action.to_dict()),
                json.dumps(record.to_dict()),
            )
        )
    # The point where a game in play stands: the same game replayed that far.
    mid = GameState.new(rules, players, seed)
    for action in actions[: rng.randrange(10, len(actions) - 1)]:
        mid.apply(action)
    mid_point = (
        mid.action_count, json.dumps(mid.to_dict()), list(mid.totals), mid.to_move,
        mid.round_index, len(mid.round_results),
    )  # fmt: skip
    rounds = [
        [
            (
                result.round_index,
                index,
                result.hand_size,
                result.wild_rank,
                seat.penalty,
                result.went_out == index,
                json.dumps([[card.token for card in meld] for meld in seat.melds]),
                json.dumps([card.token for card in seat.deadwood]),
            )
            for index, seat in enumerate(result.seats)
        ]
        for result in state.round_results
    ]
    return Template(
        seed, players, rules.to_dict(), json.dumps(state.to_dict()), list(state.totals), rounds,
        moves, *mid_point,
    )  # fmt: skip


class _Copier:
    """Rows into tables through COPY, counted."""

    def __init__(self, cursor, counts: Counts):
        self.cursor, self.counts = cursor, counts

    def write(self, table: str, columns: Iterable[str], rows: Iterable[tuple]) -> None:
        n = 0
        with self.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                n += 1
        self.counts.rows[table] = self.counts.rows.get(table, 0) + n


@dataclass
class _Game:
    """A seeded game, before it is written."""

    status: str
    template: Template
    users: list[int]  # per seat
    host: int
    created_at: datetime
    id: int = 0
    started_at: datetime | None = None
    finished_at: datetime | None = None
    end_reason: str = ""
    resigned: int | None = None  # the seat that resigned or was dropped
    is_public: bool = True
    friends_only: bool = False
    days: int | None = 3


@dataclass
class _Ratings:
    """Everyone's rating as the finished games are rated in finish order, in memory."""

    current: dict = field(default_factory=dict)
    games: dict = field(default_factory=dict)

    @classmethod
    def stored(cls) -> _Ratings:
        ratings = cls()
        for row in Rating.objects.all():
            ratings.current[row.user_id] = MODEL.rating(mu=row.mu, sigma=row.sigma)
            ratings.games[row.user_id] = row.games
        return ratings

    def save(self) -> None:
        Rating.objects.filter(user_id__in=self.current).delete()
        Rating.objects.bulk_create(
            Rating(user_id=user_id, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal(),
                   games=self.games[user_id])
            for user_id, r in self.current.items()
        )  # fmt: skip


CHUNK = 5000  # games per round of COPY


def seed_history(
    *,
    games: int,
    users: int,
    seed: str,
    in_play: int | None = None,
    open_games: int | None = None,
    progress: Callable[[int, int, float], None] | None = None,
) -> Counts:
    """Write `games` finished games among `users` new people (and the bot accounts), and
    besides them `in_play` games under way (one per forty finished unless given) and
    `open_games` waiting for players (one per five hundred)."""
    if connection.vendor != "postgresql":
        raise RuntimeError("seed_history writes with COPY: it needs PostgreSQL.")
    rng = random.Random(seed)
    now = timezone.now().replace(microsecond=0)
    counts = Counts()
    templates = play_templates(rng, min(TEMPLATES_PER_SEAT_COUNT, 2 + games // 1000))
    started = time.perf_counter()
    with transaction.atomic():
        people = _people(rng, users, now)
        bot_ids = _bots()
        counts.users = len(people)
        weights = [rng.lognormvariate(0, 1.3) for _ in people]
        in_play = games // 40 if in_play is None else in_play
        open_games = games // 500 if open_games is None else open_games
        statuses = ["finished"] * games + ["active"] * in_play + ["open"] * open_games
        plans = _plan(rng, statuses, people, weights, bot_ids, templates, now)
        persons = {person.pk for person in people}
        ratings = _Ratings.stored()
        with connection.cursor() as cursor:
            for plan, game_id in zip(plans, _game_ids(cursor, len(plans)), strict=True):
                plan.id = game_id
            copier = _Copier(cursor.cursor, counts)
            for first in range(0, len(plans), CHUNK):
                rows = _Rows()
                for plan in plans[first : first + CHUNK]:
                    rows.add(plan, rng, now, persons, ratings)
                rows.copy(copier)
                if progress:
                    done = min(first + CHUNK, len(plans))
                    progress(done, len(plans), time.perf_counter() - started)
        ratings.save()
        _follows(rng, people, weights)
        for plan in plans:
            setattr(counts, plan.status, getattr(counts, plan.status) + 1)
    # As autovacuum would have by now: statistics for the planner, visibility maps for
    # index-only scans (VACUUM cannot run inside a transaction, as in a test: ANALYZE only).
    command = "ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE"
    with connection.cursor() as cursor:
        for table in ANALYZED:
            cursor.execute(f"{command} {table}")
    return counts


ANALYZED = (
    "accounts_user", "games_game", "games_seat", "games_roundscore", "games_move",
    "games_ratingchange", "games_rating", "games_notification", "games_chatmessage",
    "games_follow",
)  # fmt: skip


def _people(rng: random.Random, count: int, now: datetime) -> list[User]:
    """People with a confirmed address, a few with preferences (some pages hidden)."""
    password = make_password(None)  # unusable: nobody logs in as a seeded person
    first = User.objects.filter(username__startswith="seeded-").count()
    joined = now - timedelta(days=HISTORY_DAYS + 30)
    made = User.objects.bulk_create(
        User(
            username=f"seeded-{first + n:05d}",
            display_name=f"{rng.choice(NAMES)} {first + n}" if rng.random() < 0.6 else "",
            email=f"seeded-{first + n:05d}@example.org",
            password=password,
            date_joined=joined + timedelta(days=rng.uniform(0, 30)),
            last_login=now - timedelta(hours=rng.uniform(0, 24 * 60)),
            notices_seen_at=now - timedelta(hours=rng.uniform(1, 24 * 14)),
            language=rng.choice(LANGUAGES),
            time_zone=rng.choice(ZONES),
        )
        for n in range(count)
    )
    EmailAddress.objects.bulk_create(
        EmailAddress(user=user, email=user.email, verified=True, primary=True) for user in made
    )
    Preferences.objects.bulk_create(
        Preferences(user=user, profile_hidden=rng.random() < 0.1, turn_mail=rng.choice(TURN_MAIL))
        for user in made
        if rng.random() < 0.3
    )
    return made


TURN_MAIL = ("each", "each", "digest", "off")


def _bots() -> dict[str, list[int]]:
    """Each level's accounts: the first, then its numbered siblings for further seats."""
    accounts = {bot.bot_kind: bot for bot in bots_ensure()}
    by_level = {}
    for level in BOT_LEVEL_WEIGHTS:
        bot = accounts[level]
        siblings = [
            User.objects.get_or_create(
                is_bot=True,
                bot_kind=f"{level}-{number}",
                defaults={
                    "username": f"bot-{level}-{number}",
                    "display_name": f"{bot.display_name} {number}",
                },
            )[0].pk
            for number in range(2, max(SEAT_COUNT_WEIGHTS))
        ]
        by_level[level] = [bot.pk, *siblings]
    return by_level


def _game_ids(cursor, count: int) -> list[int]:
    """`count` ids from the games' own sequence, so that later games follow on."""
    cursor.execute(
        "SELECT nextval(pg_get_serial_sequence('games_game', 'id')) FROM generate_series(1, %s)",
        [count],
    )
    return [row[0] for row in cursor.fetchall()]


def _plan(rng, statuses, people, weights, bot_ids, templates, now) -> list[_Game]:
    """Who plays which game when: finished games in finish order, then those in play, then the
    open ones. A busy player finishes many more games than most, but sits at no more than
    CURRENT_GAMES_MAX games at once."""
    sizes, size_weights = list(SEAT_COUNT_WEIGHTS), list(SEAT_COUNT_WEIGHTS.values())
    levels, level_weights = list(BOT_LEVEL_WEIGHTS), list(BOT_LEVEL_WEIGHTS.values())
    ends, end_weights = list(ENDS), list(ENDS.values())
    cumulative = list(itertools.accumulate(weights))
    games = statuses.count("finished")
    current: Counter[int] = Counter()
    finish_times = sorted(
        now - timedelta(days=HISTORY_DAYS * rng.random() ** 0.8) for _ in range(games)
    )
    plans = []
    for number, status in enumerate(statuses):
        players = rng.choices(sizes, size_weights)[0]
        bots = 0
        if status != "open" and rng.random() < BOT_GAME_SHARE:
            bots = rng.randint(1, players - 1)
        humans = rng.randint(1, players - 1) if status == "open" else players - bots
        persons = _pick(rng, cumulative, people, humans, current if status != "finished" else None)
        seated = persons + bot_ids[rng.choices(levels, level_weights)[0]][:bots]
        host = seated[0]
        rng.shuffle(seated)  # the host sits anywhere
        plan = _Game(status, rng.choice(templates[players]), seated, host, created_at=now)
        plan.days = rng.choice((*TIME_PER_MOVE_DAYS, 3, 3, None))
        visibility = rng.random()
        plan.is_public = visibility < 0.8
        plan.friends_only = 0.8 <= visibility < 0.9
        if status == "finished":
            plan.finished_at = finish_times[number]
            plan.started_at = plan.finished_at - timedelta(days=rng.uniform(1, 40))
            plan.created_at = plan.started_at - timedelta(hours=rng.uniform(0, 72))
            plan.end_reason = rng.choices(ends, end_weights)[0]
            if plan.end_reason != Game.EndReason.COMPLETED:  # a person resigned or was dropped
                plan.resigned = seated.index(rng.choice(persons))
        elif status == "active":
            plan.started_at = now - timedelta(days=rng.uniform(0, 30))
            plan.created_at = plan.started_at - timedelta(hours=rng.uniform(0, 72))
        else:
            plan.created_at = now - timedelta(days=rng.uniform(0, 14))
        plans.append(plan)
    return plans


def _pick(rng, cumulative, people, n: int, current: Counter | None) -> list[int]:
    """`n` different people, the busy ones more often; for a game under way, none who sits at
    CURRENT_GAMES_MAX such games already (`current` counts them)."""
    chosen: list[int] = []
    for _attempt in range(1000 * n):
        user_id = people[bisect.bisect(cumulative, rng.random() * cumulative[-1])].pk
        full = current is not None and current[user_id] >= CURRENT_GAMES_MAX
        if user_id not in chosen and not full:
            chosen.append(user_id)
        if len(chosen) == n:
            break
    else:
        raise RuntimeError("Too few players for the games under way: give more --users.")
    if current is not None:
        current.update(chosen)
    return chosen


GAME_COLUMNS = (
    "id", "created_by_id", "status", "rules", "seat_count", "seed", "invite_code", "is_public",
    "friends_only", "time_per_move_days", "max_timeouts", "state", "version", "round_index",
    "to_move_seat", "turn_started_at", "turn_version", "deadline", "created_at", "started_at",
    "finished_at", "end_reason", "chat_count", "chat_spectators", "rated", "start_when_full",
    "quick",
)  # fmt: skip
SEAT_COLUMNS = (
    "game_id", "index", "user_id", "joined_at", "hand_order", "hand_sort", "seen_version",
    "seen_chat", "resigned", "autopilot", "timeouts", "dropped", "last_seen_at", "final_total",
    "final_rank", "finished_at", "players", "departed",
)  # fmt: skip
SCORE_COLUMNS = (
    "game_id", "round_index", "seat", "user_id", "hand_size", "wild_rank", "penalty", "went_out",
    "melds", "deadwood",
)  # fmt: skip
MOVE_COLUMNS = (
    "game_id", "seq", "seat", "round_index", "action", "record", "by_bot", "created_at",
)  # fmt: skip
CHANGE_COLUMNS = (
    "game_id", "user_id", "rank", "mu_before", "sigma_before", "mu_after", "sigma_after",
    "ordinal_after", "finished_at",
)  # fmt: skip
MAIL_COLUMNS = (
    "user_id", "kind", "channel", "game_id", "turn", "threshold", "status", "reason",
    "created_at", "enqueued_at", "sent_at",
)  # fmt: skip
CHAT_COLUMNS = ("game_id", "seq", "author_id", "text", "version", "created_at")
CHAT_LINES = ("good luck!", "nice one", "ouch", "gg", "that wild card...", "my turn at last")


@dataclass
class _Totals:
    """The little of a GameState that results.seats_rank reads."""

    totals: list[int]


@dataclass
class _Rows:
    """One chunk of games' rows, table by table."""

    games: list = field(default_factory=list)
    seats: list = field(default_factory=list)
    scores: list = field(default_factory=list)
    moves: list = field(default_factory=list)
    changes: list = field(default_factory=list)
    mails: list = field(default_factory=list)
    chat: list = field(default_factory=list)

    def copy(self, copier: _Copier) -> None:
        copier.write("games_game", GAME_COLUMNS, self.games)
        copier.write("games_seat", SEAT_COLUMNS, self.seats)
        copier.write("games_roundscore", SCORE_COLUMNS, self.scores)
        copier.write("games_move", MOVE_COLUMNS, self.moves)
        copier.write("games_ratingchange", CHANGE_COLUMNS, self.changes)
        copier.write("games_notification", MAIL_COLUMNS, self.mails)
        copier.write("games_chatmessage", CHAT_COLUMNS, self.chat)

    def add(self, plan: _Game, rng: random.Random, now, persons: set, ratings: _Ratings) -> None:
        t = plan.template
        players = t.players
        # A game in play stands at the template's midpoint; an early end (resigned, dropped)
        # ended there.
        midway = plan.status == "active" or plan.resigned is not None
        if plan.status == "open":
            version, state, totals, rounds, round_index = 0, None, [], 0, 0
        elif midway:
            version, state, totals = t.mid_version, t.mid_state, t.mid_totals
            rounds, round_index = t.mid_rounds_done, t.mid_round
        else:
            version, state, totals = len(t.moves), t.final_state, t.totals
            rounds, round_index = len(t.rounds), len(t.rounds) - 1
        last_at = plan.finished_at or now - timedelta(hours=rng.uniform(0, 24 * (plan.days or 1)))
        to_move = t.mid_to_move if plan.status == "active" else None
        turn_version = version
        if to_move is not None:  # the turn began with this seat's first move in a row
            while turn_version > 0 and t.moves[turn_version - 1][1] == to_move:
                turn_version -= 1
        deadline = (
            last_at + timedelta(days=plan.days) if to_move is not None and plan.days else None
        )
        chat = []
        if plan.status == "active":
            chat = self._chat(plan, rng, [u for u in plan.users if u in persons], version, last_at)
        self.games.append((
            plan.id, plan.host, plan.status, json.dumps(t.rules), players, t.seed,
            f"seeded-{plan.id}", plan.is_public, plan.friends_only, plan.days, 3, state, version,
            round_index, to_move, last_at if to_move is not None else None, turn_version,
            deadline, plan.created_at, plan.started_at, plan.finished_at, plan.end_reason,
            len(chat), False, True, True, False,
        ))  # fmt: skip
        seats = [
            Seat(pk=index + 1, index=index, user_id=user_id, resigned=index == plan.resigned)
            for index, user_id in enumerate(plan.users)
        ]
        if plan.status == "finished":
            seats_rank(seats, _Totals(totals), plan.finished_at)
        dropped = plan.end_reason == Game.EndReason.DROPPED
        for seat in seats:
            seen = version if rng.random() < 0.7 else max(0, version - rng.randint(1, 8))
            self.seats.append((
                plan.id, seat.index, seat.user_id, plan.created_at, "[]", "suit", seen,
                len(chat) if seen == version else 0, seat.resigned, False, 0,
                seat.resigned and dropped, last_at if state and seen == version else None,
                seat.final_total, seat.final_rank, seat.finished_at, seat.players, False,
            ))  # fmt: skip
        for round_rows in t.rounds[:rounds]:
            for row in round_rows:
                self.scores.append((plan.id, row[0], row[1], plan.users[row[1]], *row[2:]))
        # The whole log of a game in play; each seat's last turn of a finished one.
        kept = t.moves[: version if plan.status == "active" else 0]
        if plan.status == "finished":
            kept = t.moves[max(0, version - 2 * players) : version]
        start = plan.started_at or now
        span = (last_at - start).total_seconds()
        for seq, seat, round_number, action, record in kept:
            at = start + timedelta(seconds=span * (seq + 1) / max(version, 1))
            bot = plan.users[seat] not in persons
            self.moves.append((plan.id, seq, seat, round_number, action, record, bot, at))
        self.chat.extend(chat)
        if plan.status == "finished":
            if rounds >= settings.RATING_MIN_ROUNDS:
                self._rate(plan, seats, ratings)
            self.mails.extend(
                (seat.user_id, "game_over", "mail", plan.id, 0, 0, "sent", "", last_at,
                 last_at, last_at)
                for seat in seats
                if seat.user_id in persons
            )  # fmt: skip
        elif to_move is not None and plan.users[to_move] in persons:
            self.mails.append((plan.users[to_move], "your_turn", "mail", plan.id, turn_version,
                               0, "sent", "", last_at, last_at, last_at))  # fmt: skip

    def _chat(self, plan: _Game, rng: random.Random, people, version, last_at) -> list[tuple]:
        """A few messages from the people in a third of the games in play."""
        if rng.random() > 0.33:
            return []
        return [
            (plan.id, seq, rng.choice(people), rng.choice(CHAT_LINES), version,
             last_at - timedelta(minutes=10 * seq))
            for seq in range(1, rng.randint(1, 10) + 1)
        ]  # fmt: skip

    def _rate(self, plan: _Game, seats: list[Seat], ratings: _Ratings) -> None:
        """As games.ratings.game_rate does: every seat, ranked by its final rank."""
        before = [ratings.current.get(s.user_id) or MODEL.rating() for s in seats]
        after = MODEL.rate([[r] for r in before], ranks=[s.final_rank for s in seats])
        for seat, old, (new,) in zip(seats, before, after, strict=True):
            self.changes.append((
                plan.id, seat.user_id, seat.final_rank, old.mu, old.sigma, new.mu, new.sigma,
                new.ordinal(), plan.finished_at,
            ))  # fmt: skip
            ratings.current[seat.user_id] = new
            ratings.games[seat.user_id] = ratings.games.get(seat.user_id, 0) + 1


def _follows(rng: random.Random, people: list[User], weights: list[float]) -> None:
    """Each person follows a few others, the busy players more often."""
    pairs = {
        (person.pk, other.pk)
        for person in people
        for other in rng.choices(people, weights, k=rng.randint(0, 8))
        if other.pk != person.pk
    }
    Follow.objects.bulk_create(
        (Follow(follower_id=a, followee_id=b) for a, b in sorted(pairs)), ignore_conflicts=True
    )
