"""The writers of a game's life: creating, joining, starting, moves, resigning, the hand's order.
Every move locks its game row first (locking.lock_game), re-checks the version the player saw,
applies the action through the engine, appends the move and saves the snapshot in one
transaction; what happens next (a bot's turn, a mail) is queued on commit (oncommit). The clock's
writes live in deadlines/, the mail outbox's in notifications/, invitations in invitations.py."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import bots_ensure

from .asynchronous_commit import asynchronous_commit
from .engine import (
    AUTOPILOT_LEVEL,
    BOTS,
    Action,
    Discard,
    Draw,
    GameState,
    GoOut,
    MoveRecord,
    RuleError,
    Rules,
    get_bot,
)
from .engine.cards import Card
from .errors import GameError, NoSuchGame, StaleVersion
from .guards import require_creator, require_may_play, require_open, seat_of
from .locking import lock_game, seat_at
from .models import (
    MAX_TIMEOUTS_LIMIT,
    TIME_PER_MOVE_DAYS,
    Follow,
    Game,
    Heartbeat,
    Move,
    Notification,
    RoundScore,
    Seat,
    Seek,
)
from .notifications.outbox import (
    game_over_queue,
    game_started_queue,
    seat_news_queue,
    your_turn_queue,
)
from .notifications.presence import is_watching, presence_due
from .oncommit import enqueue_on_commit
from .ratings import game_rate
from .results import SEAT_RESULT_FIELDS, round_scores, seats_rank
from .selectors.pauses import turn_deadline
from .selectors.viewer import other_people_playing


def heartbeat_record(*, name: str) -> Heartbeat:
    heartbeat, _created = Heartbeat.objects.update_or_create(
        name=name, defaults={"seen_at": timezone.now()}
    )
    return heartbeat


# -- before the start ------------------------------------------------------------------------


@transaction.atomic
def game_create(
    *,
    creator: User,
    rules: Rules,
    seat_count: int,
    time_per_move_days: int | None = None,
    is_public: bool = True,
    friends_only: bool = False,
    bot_kind: str | None = None,
    seat_bots: Sequence[str | None] = (),
    max_timeouts: int = 3,
    rated: bool = True,
    start_when_full: bool = True,
    quick: bool = False,
    by_site: bool = False,
) -> Game:
    """A new game with its creator in seat 0. `seat_bots` names the bot for seats 1, 2, ... (None
    or a missing entry: the seat waits for a person); `bot_kind` then fills every seat left.
    A friends-only game is unlisted (`is_public` is ignored): the host's followees find it.
    With `start_when_full` it starts when its last seat is taken: at once, if bots took them.
    A `quick` game (quick play, games/competitions/quick.py) has no host: its creator is its
    first seeker."""
    if not by_site:  # a league's or tournament's table is the site's doing (game_create_seated)
        require_may_play(creator)
    try:
        rules.deck_count(seat_count)
    except ValueError:
        raise GameError(_("A game has 2 to 8 players.")) from None
    if time_per_move_days is not None and time_per_move_days not in TIME_PER_MOVE_DAYS:
        raise GameError(_("Choose a time per move from the list."))
    if not 1 <= max_timeouts <= MAX_TIMEOUTS_LIMIT:
        raise GameError(_("Choose how many timeouts a player may have from the list."))
    game = Game.objects.create(
        created_by=creator,
        rules=rules.to_dict(),
        seat_count=seat_count,
        time_per_move_days=time_per_move_days,
        is_public=is_public and not friends_only,
        friends_only=friends_only,
        max_timeouts=max_timeouts,
        rated=rated,
        start_when_full=start_when_full,
        quick=quick,
    )
    Seat.objects.create(game=game, index=0, user=creator)
    for index, kind in enumerate(seat_bots[: seat_count - 1], start=1):
        if kind:
            _seat_bot(game, index, kind)
    if bot_kind:
        _seat_bots(game, bot_kind)
    game_start_if_full(game=game, by=creator)
    return game


@transaction.atomic
def game_create_seated(
    *, players: Sequence[User], rules: Rules, time_per_move_days: int | None, max_timeouts: int = 3
) -> Game:
    """A game the site seats and starts at once, for a league fixture or a tournament table: the
    `players` (people and bot accounts, each once) in seats 0, 1, ... in that order, public (anyone
    may watch it from the standings that link it; started, it is in no lobby's list), rated and
    started, so that no host acts for it (its creator is only its first player).
    Everyone seated hears that it started, but the first to move, who hears it is their turn."""
    if len({player.pk for player in players}) != len(players):
        raise GameError(_("A player can take only one seat at a game."))
    game = game_create(
        by_site=True,
        creator=players[0],
        rules=rules,
        seat_count=len(players),
        time_per_move_days=time_per_move_days,
        max_timeouts=max_timeouts,
        start_when_full=False,
    )
    Seat.objects.bulk_create(
        Seat(game=game, index=index, user=player) for index, player in enumerate(players[1:], 1)
    )
    _begin(game, by=None)
    return game


def _free_index(game: Game) -> int:
    taken = set(game.seats.values_list("index", flat=True))
    free = [i for i in range(game.seat_count) if i not in taken]
    if not free:
        raise GameError(_("This game is full."), status=409)
    return free[0]


@transaction.atomic
def game_join(*, game_id: int, user: User, invite_code: str | None = None) -> Seat:
    """Take a free seat. A private game seats only who was invited: by its link (`invite_code`)
    or by name; to anyone else it does not exist. A friends-only game seats the players its host
    follows and those invited by name, and refuses anyone else (its link is no pass: forwarded,
    it would open the game to anyone)."""
    game = lock_game(game_id)
    by_name = game.invitations.filter(invitee=user).exists()
    if game.friends_only:
        if (
            not by_name
            and not Follow.objects.filter(
                follower_id=game.created_by_id, followee_id=user.pk
            ).exists()
        ):
            raise GameError(
                _("This game is open only to the players its host follows."), status=403
            )
    elif not game.is_public and not (by_name or invite_code == game.invite_code):
        raise NoSuchGame
    require_open(game)
    require_may_play(user)
    if user.is_site_bot:
        raise GameError(_("Bots join through the game's creator."), status=403)
    if game.seats.filter(user=user).exists():
        raise GameError(_("You already have a seat at this game."), status=409)
    try:
        with transaction.atomic():
            seat = Seat.objects.create(game=game, index=_free_index(game), user=user)
    except IntegrityError:
        raise GameError(_("That seat was just taken; try again."), status=409) from None
    # A quick game has no host to tell: its players hear when it starts.
    if not game_start_if_full(game=game, by=user) and not game.quick:
        seat_news_queue(game=game, player=user, kind=Notification.Kind.JOINED)
    return seat


@transaction.atomic
def game_leave(*, game_id: int, user: User) -> Game:
    """Leave before the start; the creator leaving cancels the game. A quick game has no host:
    leaving frees the seat (and ends the player's seek there); the last to leave cancels it."""
    game = lock_game(game_id)
    require_open(game)
    seat = seat_of(game, user)
    if game.quick:
        seat.delete()
        Seek.objects.filter(game=game, player=user, status=Seek.Status.OPEN).update(
            status=Seek.Status.CANCELLED
        )
        if not game.seats.exists():
            game.status = Game.Status.CANCELLED
            game.save(update_fields=["status"])
    elif game.created_by_id == user.pk:
        game.status = Game.Status.CANCELLED
        game.save(update_fields=["status"])
    else:
        seat.delete()
    return game


@transaction.atomic
def game_practice_create(*, user: User) -> Game:
    """A practice game: the player against the easy bot, unlisted, without a clock, unrated (a
    win over the easy bot, or a try given up in round 1, is no record), started (full of bots at
    creation)."""
    return game_create(
        creator=user, rules=Rules(), seat_count=2, is_public=False, bot_kind="easy", rated=False
    )


@transaction.atomic
def game_fill_with_bots(*, game_id: int, user: User, bot_kind: str = "easy") -> list[Seat]:
    """Give every empty seat to a bot of `bot_kind` (the game then starts, if it starts when
    full)."""
    game = lock_game(game_id)
    require_open(game)
    require_creator(game, user)
    seats = _seat_bots(game, bot_kind)
    game_start_if_full(game=game, by=user)
    return seats


def _seat_bots(game: Game, bot_kind: str) -> list[Seat]:
    taken = set(game.seats.values_list("index", flat=True))
    return [
        _seat_bot(game, index, bot_kind) for index in range(game.seat_count) if index not in taken
    ]


def _seat_bot(game: Game, index: int, bot_kind: str) -> Seat:
    """Seat the bot of `bot_kind` at `index`. One account per bot kind, but a bot may hold
    several seats: its second seat goes to the numbered sibling account "<name> 2", the third to
    "<name> 3", and so on."""
    if bot_kind not in BOTS:
        raise GameError(_("There is no such bot."))
    bot = User.objects.filter(is_bot=True, bot_kind=bot_kind).first()
    if bot is None:
        bot = next(b for b in bots_ensure() if b.bot_kind == bot_kind)
    same_kind = Q(user=bot) | Q(user__bot_kind__startswith=f"{bot_kind}-")
    seated = game.seats.filter(same_kind).count()
    seat_user = bot if seated == 0 else _bot_sibling(bot, seated + 1)
    return Seat.objects.create(game=game, index=index, user=seat_user)


def bot_accounts(*, bot_kind: str, count: int) -> list[User]:
    """`count` distinct accounts of the bot of `bot_kind` (it, then its siblings "<name> 2", …),
    to seat at one game (a tournament's table filled with bots)."""
    if bot_kind not in BOTS:
        raise GameError(_("There is no such bot."))
    bot = User.objects.filter(is_bot=True, bot_kind=bot_kind).first()
    if bot is None:
        bot = next(b for b in bots_ensure() if b.bot_kind == bot_kind)
    return [bot] + [_bot_sibling(bot, number) for number in range(2, count + 1)]


def _bot_sibling(bot: User, number: int) -> User:
    """The bot's account for its `number`-th seat at one game (2, 3, …)."""
    kind = f"{bot.bot_kind}-{number}"
    sibling, _created = User.objects.get_or_create(
        is_bot=True,
        bot_kind=kind,
        defaults={"username": f"bot-{kind}", "display_name": f"{bot.display_name} {number}"},
    )
    return sibling


@transaction.atomic
def game_start(*, game_id: int, user: User) -> Game:
    game = lock_game(game_id)
    require_open(game)
    require_creator(game, user)
    if game.seats.count() != game.seat_count:
        raise GameError(_("Every seat must be taken before the game starts."), status=409)
    _begin(game, by=user)
    return game


def game_start_if_full(*, game: Game, by: User) -> bool:
    """Start the game if it starts when full and its last seat is taken; whether it did. Called
    by whatever took the seat, in its transaction, the game locked (or not yet committed), so
    that no two seat-takers both start it."""
    if not game.start_when_full or game.seats.count() != game.seat_count:
        return False
    _begin(game, by=by)
    return True


def _begin(game: Game, *, by: User | None) -> None:
    """Deal the first round; the first to move hears it is their turn, the other people seated
    that the game started (not `by`, whose request started it: its answer shows the table; None
    when the site started it)."""
    state = GameState.new(Rules.from_dict(game.rules), game.seat_count, game.seed)
    now = timezone.now()
    game.status = Game.Status.ACTIVE
    game.started_at = now
    if game.quick:
        Seek.objects.filter(game=game, status=Seek.Status.OPEN).update(status=Seek.Status.MATCHED)
    _store_state(game, state, now=now, turn_changed=True)
    game.save()
    game_queue_next(game=game)
    game_started_queue(game=game, started_by=by)


# -- moves -----------------------------------------------------------------------------------


def bot_kind_of(seat: Seat) -> str | None:
    """The bot that plays this seat: a bot account's kind; on autopilot, or for a player who
    resigned or was dropped, the level the player chose in their settings (medium if none)."""
    if not seat.played_by_bot:
        return None
    if seat.user.is_site_bot:
        return seat.user.bot_kind.split("-")[0]
    preferences = getattr(seat.user, "preferences", None)
    return preferences.autopilot_level if preferences is not None else AUTOPILOT_LEVEL


@transaction.atomic
def move_play(
    *, game_id: int, user: User, version: int | None, build: Callable[[int], Action]
) -> Game:
    """Play the action `build(seat_index)` for `user`, if the game is still at `version`.
    Returns the game as the move left it, its seats read with it (`game.seats.all()`), so that
    the table answering the move needs no second look."""
    require_may_play(user)
    game = lock_game(game_id, seats=True)
    seat = seat_of(game, user)
    if seat.resigned:
        raise GameError(_("You resigned from this game."), status=403)
    _apply(game, seat, version, build(seat.index), by_bot=False)
    return game


def move_draw(*, game_id: int, user: User, version: int | None, source: str) -> Game:
    """Draw from `source`; the engine refuses anything but the stock or the discard pile."""
    return move_play(
        game_id=game_id, user=user, version=version, build=lambda seat: Draw(seat, source)
    )


def move_discard(*, game_id: int, user: User, version: int | None, card: str) -> Game:
    parsed = _parse_card_token(card)
    return move_play(
        game_id=game_id, user=user, version=version, build=lambda seat: Discard(seat, parsed)
    )


def move_go_out(*, game_id: int, user: User, version: int | None, card: str) -> Game:
    parsed = _parse_card_token(card)
    return move_play(
        game_id=game_id, user=user, version=version, build=lambda seat: GoOut(seat, parsed)
    )


def _card_tokens(tokens: Iterable[object]) -> list[str]:
    """The cards named among `tokens`, as tokens; junk (a NUL byte, say) is dropped."""
    found = []
    for token in tokens:
        try:
            found.append(Card.from_token(str(token)[:8]).token)
        except (ValueError, TypeError):
            continue
    return found


def _parse_card_token(token: str) -> Card:
    try:
        return Card.from_token(str(token)[:8])
    except (ValueError, TypeError):
        raise GameError(_("That is not a card.")) from None


def bot_play_turn(*, game_id: int, version: int) -> bool:
    """Play one action for the bot (or autopilot) seat to move, if the game is still at
    `version`; running it twice, or after the game moved on, does nothing. The bot thinks before
    the game is locked (a hard bot takes up to BOT_HARD_SECONDS, and a player's move must not
    wait on it); its action is applied only if the game is still at `version`, where it was
    computed, so it is still legal."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.version != version:
        return False
    assert game.to_move_seat is not None and game.state is not None, "a game in play"
    seat = game.seats.select_related("user__preferences").get(index=game.to_move_seat)
    kind = bot_kind_of(seat)
    if kind is None:
        return False
    view = GameState.from_dict(game.state).view(seat.index)  # what a player in its seat sees
    bot = get_bot(kind, seconds=settings.BOT_HARD_SECONDS, time_cap=settings.BOT_HARD_TIME_CAP)
    action = bot.choose(view, random.Random(f"{game.seed}:bot:{version}"))
    return _bot_apply(game_id=game_id, version=version, seat_index=seat.index, action=action)


@transaction.atomic
def _bot_apply(*, game_id: int, version: int, seat_index: int, action: Action) -> bool:
    game = lock_game(game_id, seats=True)
    if game.status != Game.Status.ACTIVE or game.version != version:
        return False  # a person moved meanwhile (back from autopilot), or the task ran twice
    assert game.to_move_seat is not None, "a game in play has a seat to move"
    seat = seat_at(game, game.to_move_seat)
    if seat.index != seat_index or bot_kind_of(seat) is None:
        return False
    _apply(game, seat, version, action, by_bot=True)
    return True


def _apply(
    game: Game,
    seat: Seat,
    version: int | None,
    action: Action,
    *,
    by_bot: bool,
    state: GameState | None = None,
) -> MoveRecord:
    if game.status == Game.Status.OPEN:
        raise GameError(_("This game has not started yet."), status=409)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("This game is over."), status=409)
    if version is not None and version != game.version:
        raise StaleVersion(_("The game has moved on since you looked: here is the table now."))
    if state is None:
        assert game.state is not None, "a game in play has a state"
        state = GameState.from_dict(game.state)
    before_to_move = state.to_move
    try:
        record = state.apply(action)
    except RuleError as error:  # the engine's message, in the player's language
        message = _(error.template)
        raise GameError(message % error.params if error.params else message) from None
    Move.objects.create(
        game=game,
        seq=record.action_index,
        seat=record.seat,
        round_index=record.round_index,
        action=action.to_dict(),
        record=record.to_dict(),
        by_bot=by_bot,
    )
    if record.round_ended:
        _record_round(game, state)
    now = timezone.now()
    # A new round is a new turn, even for the seat that played the last one.
    turn_changed = state.to_move != before_to_move or record.round_ended
    _store_state(game, state, now=now, turn_changed=turn_changed)
    if state.is_over:  # played out: everyone's end, its summary mailed to every person
        game_finish(game=game, state=state, now=now, reason=Game.EndReason.COMPLETED)
    if not by_bot and seat.autopilot:
        seat.autopilot = False  # the player is back
        seat.timeouts = 0
    seat.seen_version = game.version
    seat.save(update_fields=["seen_version", "autopilot", "timeouts"])
    game.save()
    game_queue_next(game=game)
    return record


def _store_state(game: Game, state: GameState, *, now: datetime, turn_changed: bool) -> None:
    game.state = state.to_dict()
    game.version = state.action_count
    game.to_move_seat = state.to_move
    game.round_index = state.round_index  # for lists, which never load the state
    if turn_changed:
        game.turn_started_at = now if state.to_move is not None else None
        game.turn_version = game.version
        # The clock stands still while the player to move is on vacation.
        game.deadline = turn_deadline(game=game, seat_index=state.to_move, start=now)


def _record_round(game: Game, state: GameState) -> None:
    users = dict(game.seats.values_list("index", "user_id"))
    last = len(state.round_results) - 1
    RoundScore.objects.bulk_create(round_scores(game, state, last, users))
    enqueue_on_commit("games.tasks.game_review", (game.pk,))  # games/reviews.py


def game_finish(
    *, game: Game, state: GameState, now: datetime, reason: str, ended_by: User | None = None
) -> None:
    """End the game: the row's status (and why) is the one fact every page, poll, mail and task
    reads; an early end (resignation, drop) leaves the engine's state mid-round. The ratings change
    here, in the same transaction. The caller holds the game's lock and saves the row.
    `ended_by`: the person whose resignation ended it, who sees the end on the page it answers
    and gets no summary mail of it."""
    game.status = Game.Status.FINISHED
    game.end_reason = reason
    game.finished_at = now
    game.deadline = None
    game.to_move_seat = None
    seats = list(game.seats.all())
    seats_rank(seats, state, now)
    Seat.objects.bulk_update(seats, SEAT_RESULT_FIELDS)
    game_rate(game=game, seats=seats)  # in this transaction; once per game (games/ratings.py)
    game_over_queue(game=game, ended_by=ended_by)  # sent after the commit
    # It may have been a league division's or a tournament round's last
    # (games/competitions/leagues.py, games/competitions/tournaments.py): the task looks, so that
    # no game's end pays a query for it.
    enqueue_on_commit("games.tasks.game_finished", (game.pk,))


def game_queue_next(*, game: Game) -> None:
    """Queue what happens next outside the request, after the commit: a bot's turn, or a
    person's 'your turn' mail when their turn has just begun (the caller holds the game's lock)."""
    if game.status != Game.Status.ACTIVE or game.to_move_seat is None:
        return
    seat = seat_at(game, game.to_move_seat)
    if bot_kind_of(seat) is not None:
        enqueue_on_commit(
            "games.tasks.bot_move", (game.pk, game.version), countdown=bot_move_delay(game=game)
        )
    elif game.turn_version == game.version:
        your_turn_queue(game=game, seat=seat)


def bot_move_delay(*, game: Game, now: datetime | None = None) -> float:
    """The seconds a bot waits before its next action: a brief pause when a player has the table
    open (presence), so that their eye follows the bot's draw, then its discard; else
    BOT_MOVE_DELAY_SECONDS, at correspondence pace, when nobody waits on it. Being watched
    never makes a bot slower."""
    now = now or timezone.now()
    if any(is_watching(seat, now) for seat in game.seats.all()):
        return min(settings.BOT_MOVE_DELAY_WATCHED_SECONDS, settings.BOT_MOVE_DELAY_SECONDS)
    return settings.BOT_MOVE_DELAY_SECONDS


# -- other writes ----------------------------------------------------------------------------


@transaction.atomic
def game_resign(*, game_id: int, user: User) -> Game:
    """Resign: the player ranks last and a bot plays the seat to the end. When fewer than two
    people are left playing, the game ends at once, ranked by the totals so far."""
    game = lock_game(game_id)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("Only a game in play can be resigned."), status=409)
    seat = seat_of(game, user)
    if seat.resigned:
        raise GameError(_("You have already resigned."), status=409)
    seat.resigned = True
    seat.save(update_fields=["resigned"])
    return game_play_on(game=game, end_now=other_people_playing(game, seat) < 2, ended_by=user)


def game_play_on(*, game: Game, end_now: bool, ended_by: User | None = None) -> Game:
    """After a seat left play (resigned, or its player departed, games/departure.py), in the
    caller's transaction with the game locked: the game ends at once, ranked by the totals so
    far, when `end_now`; else a bot plays the seat on. Either way the next turn's work is queued."""
    if end_now:
        assert game.state is not None, "a game in play has a state"
        state = GameState.from_dict(game.state)
        game_finish(
            game=game,
            state=state,
            now=timezone.now(),
            reason=Game.EndReason.RESIGNED,
            ended_by=ended_by,
        )
    game.save()
    game_queue_next(game=game)
    return game


def seat_set_hand_order(
    *, game_id: int, user: User, sort: str, order: list[str] | None = None
) -> Seat:
    """A sort by suit or by rank holds until the player chooses another; an order of their own
    (`sort` "manual", the cards in `order`) holds for the round it was made in."""
    if sort not in ("suit", "rank", "manual"):
        raise GameError(_("Sort by suit, by rank, or keep your own order."))
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NoSuchGame
    seat = seat_of(game, user)
    if sort == "manual":
        tokens = _card_tokens((order or [])[:40])
        if not tokens:
            raise GameError(_("Drag cards to arrange your hand"))
        seat.hand_order, seat.hand_order_round = tokens, game.round_index
    else:
        seat.hand_sort, seat.hand_order, seat.hand_order_round = sort, [], None
    seat.save(update_fields=["hand_sort", "hand_order", "hand_order_round"])
    return seat


def seat_mark_seen(*, seat: Seat, version: int, chat: int | None = None) -> None:
    """The player saw the table at `version`, and the chat's first `chat` messages, and is at
    the table now (presence): one write at most, which need not wait for the disk."""
    seen: dict[str, int | datetime] = (
        {"seen_version": version} if seat.seen_version != version else {}
    )
    if chat is not None and seat.seen_chat != chat:
        seen["seen_chat"] = chat
    now = timezone.now()
    if presence_due(seat, now):
        seen["last_seen_at"] = now
    if seen:
        with asynchronous_commit():
            Seat.objects.filter(pk=seat.pk).update(**seen)
        for field, value in seen.items():
            setattr(seat, field, value)
