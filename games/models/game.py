"""A game and what it is made of: its seats, invitations, moves and round results. The engine
snapshot in Game.state is a cache: the moves rebuild it exactly
(games.selectors.history.replayed_state). Whether a game is over, and why, is the row's `status`
and `end_reason`: an early end leaves the snapshot mid-round."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

TIME_PER_MOVE_DAYS = (1, 2, 3, 5, 7, 14)
DEFAULT_TIME_PER_MOVE_DAYS = 3  # the new-game form's, and a one-click invitation's
# Consecutive timeouts after which a player is dropped: 1 to this many, per game.
MAX_TIMEOUTS_LIMIT = 10


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


def new_seed() -> str:
    return secrets.token_hex(16)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class EndReason(models.TextChoices):
        COMPLETED = "completed", _("Every round played")
        RESIGNED = "resigned", _("Ended by a resignation")
        DROPPED = "dropped", _("Ended by a player dropped for timeouts")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_created"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    rules = models.JSONField(help_text="games.engine.Rules.to_dict()")
    seat_count = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, default=new_seed)
    invite_code = models.CharField(max_length=20, unique=True, default=new_invite_code)
    is_public = models.BooleanField(default=True, help_text="Listed in the lobby.")
    rated = models.BooleanField(
        default=True,
        help_text="False for a practice game: it changes no rating and stays out of the "
        "players' records.",
    )
    friends_only = models.BooleanField(
        default=False,
        help_text="Listed, and open, only to the players the host follows (and those invited).",
    )
    time_per_move_days = models.PositiveSmallIntegerField(null=True, blank=True)
    max_timeouts = models.PositiveSmallIntegerField(default=3)
    start_when_full = models.BooleanField(
        default=True, help_text="Starts by itself when its last seat is taken (else by its host)."
    )
    quick = models.BooleanField(
        default=False,
        help_text="Opened by quick play (a Seek): no host acts for it; its first seeker is only "
        "created_by.",
    )
    state = models.JSONField(
        null=True, blank=True, help_text="GameState.to_dict() after `version` moves"
    )
    version = models.PositiveIntegerField(default=0, help_text="Moves applied so far.")
    # Copied from the state by every move (services._store_state), so that lists need no state.
    round_index = models.PositiveSmallIntegerField(default=0, help_text="0-based current round.")
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    to_move_seat = models.SmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_version = models.PositiveIntegerField(
        default=0, help_text="The version at which the current turn began: names the turn."
    )
    deadline = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=10, choices=EndReason.choices, blank=True)
    # The chat (ChatMessage): how many messages so far, so that a poll sees a new one from the game
    # row alone; and whether the host opened it to spectators (players only by default).
    chat_count = models.PositiveIntegerField(default=0, help_text="Chat messages posted so far.")
    chat_spectators = models.BooleanField(
        default=False, help_text="Spectators may read and write in the chat."
    )
    # Not a column: True on a game that locking.lock_game(seats=True) read with its seats in seat
    # order, players and their settings included, so that a write reads them from there
    # (locking.seat_at, guards.seat_of) and its answer needs no second look (viewer.game_as_left).
    seats_loaded: bool = False
    # Not a column either: set on the games selectors.friends.friends returns, for its page
    # (declared for the type checker; a game read otherwise has none).
    mine: bool

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=2, seat_count__lte=8), name="game_seat_count_2_to_8"
            ),
            models.CheckConstraint(
                condition=Q(time_per_move_days__isnull=True)
                | Q(time_per_move_days__in=TIME_PER_MOVE_DAYS),
                name="game_time_per_move_allowed",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "active", "finished", "cancelled"]),
                name="game_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status="open", state__isnull=True, version=0)
                | Q(status="cancelled", state__isnull=True)
                | Q(
                    status__in=["active", "finished"], state__isnull=False, started_at__isnull=False
                ),
                name="game_state_iff_started",
            ),
            models.CheckConstraint(
                condition=Q(status="finished", finished_at__isnull=False)
                | ~Q(status="finished") & Q(finished_at__isnull=True),
                name="game_finished_at_iff_finished",
            ),
            models.CheckConstraint(
                condition=Q(status="finished", end_reason__in=["completed", "resigned", "dropped"])
                | ~Q(status="finished") & Q(end_reason=""),
                name="game_end_reason_iff_finished",
            ),
            models.CheckConstraint(
                condition=Q(to_move_seat__isnull=True)
                | Q(to_move_seat__gte=0, to_move_seat__lt=F("seat_count")),
                name="game_to_move_is_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(max_timeouts__gte=1, max_timeouts__lte=MAX_TIMEOUTS_LIMIT),
                name="game_max_timeouts_allowed",
            ),
            models.CheckConstraint(
                condition=Q(friends_only=False) | Q(is_public=False),
                name="game_friends_only_is_unlisted",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "deadline"]),
            models.Index(fields=["status", "is_public", "-created_at"]),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    # How the hand is shown: the sort the player last chose ("suit" or "rank"; "manual" is what
    # versions before games 0025 wrote, read as "suit"), or in the round `hand_order_round` the
    # player's own order (tokens, from a drag), which a new round's new cards do not keep.
    hand_order = models.JSONField(default=list, blank=True)
    hand_sort = models.CharField(max_length=8, default="suit")
    hand_order_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # The game version the player last saw: "what the others did since my last visit".
    seen_version = models.PositiveIntegerField(default=0)
    # The game's chat_count the player last saw: the chat's part of "since your last visit".
    seen_chat = models.PositiveIntegerField(default=0)
    resigned = models.BooleanField(default=False)
    autopilot = models.BooleanField(default=False, help_text="A bot plays a timed-out seat.")
    timeouts = models.PositiveSmallIntegerField(default=0)
    # When the first of the current run of timeouts ran out; each further time per move on
    # autopilot counts one more (games/deadlines/timeouts.py).
    autopilot_since = models.DateTimeField(null=True, blank=True)
    dropped = models.BooleanField(
        default=False, help_text="Dropped after too many timeouts: resigned, a bot keeps the seat."
    )
    departed = models.BooleanField(
        default=False,
        help_text="The player deleted their account: resigned, a bot keeps the seat, and the "
        "game is not rated for them.",
    )
    # The last time the player had this table open and visible (throttled): no 'your turn' mail
    # to someone who is looking.
    last_seen_at = models.DateTimeField(null=True, blank=True)
    final_total = models.IntegerField(null=True, blank=True)
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # How many played the game (its seat_count), copied with the results: the player page groups
    # a player's games by it from the seat index alone.
    players = models.PositiveSmallIntegerField(null=True, blank=True)
    # When the game ended (the game's finished_at, copied): a player's finished games are listed
    # newest first from the seat alone, through the (user, finished_at, game) index.
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        indexes = [
            # With the results it carries, the player page reads a long history from the index
            # alone (selectors/player_stats.py).
            models.Index(
                fields=["user", "-finished_at", "-game", "final_rank", "final_total", "players"],
                name="seat_user_finished",
            ),
            # A player's seats in games not yet over: what a table reads of the player's other
            # games (selectors/lists.next_game) stays as quick at 10,000 finished games as at none.
            models.Index(
                fields=["user", "index"],
                condition=Q(finished_at__isnull=True),
                name="seat_user_unfinished",
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.CheckConstraint(condition=Q(index__lt=8), name="seat_index_below_8"),
            models.CheckConstraint(
                condition=Q(hand_sort__in=["suit", "rank", "manual"]), name="seat_hand_sort_valid"
            ),
            models.CheckConstraint(
                condition=Q(final_rank__isnull=True) | Q(final_rank__gte=1),
                name="seat_rank_from_1",
            ),
            models.CheckConstraint(
                condition=Q(dropped=False) | Q(resigned=True), name="seat_dropped_is_resigned"
            ),
            models.CheckConstraint(
                condition=Q(departed=False) | Q(resigned=True), name="seat_departed_is_resigned"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.index}"

    @property
    def played_by_bot(self) -> bool:
        """The site plays this seat: one of its bots', one on autopilot, or one given up (resigned
        or dropped). A player's own bot plays its seat itself, through the API, on the clock like
        a person. The sweep's query for the same fact is deadlines.due's bot_to_move."""
        return self.user.is_site_bot or self.autopilot or self.resigned


class Invitation(models.Model):
    """The host asked a player to a game, by name or email. One row per name the host typed,
    whether or not such a player exists (the host is never told): `invitee` is the player it
    named, if any, and only they can answer it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Invited")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    invited_as = models.CharField(max_length=254, help_text="The name or email the host gave.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "invitee"],
                condition=Q(invitee__isnull=False),
                name="invitation_once_per_player",
            ),
            models.UniqueConstraint(
                F("game"), Lower("invited_as"), name="invitation_once_per_name"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "accepted", "declined"]),
                name="invitation_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status="pending", answered_at__isnull=True)
                | ~Q(status="pending") & Q(answered_at__isnull=False, invitee__isnull=False),
                name="invitation_answered_by_its_player",
            ),
            models.CheckConstraint(
                condition=Q(invitee__isnull=True) | ~Q(invitee=F("invited_by")),
                name="invitation_not_to_oneself",
            ),
        ]
        indexes = [models.Index(fields=["invitee", "status"])]

    def __str__(self) -> str:
        return f"{self.game} invites {self.invited_as} ({self.status})"


class Move(models.Model):
    """One action, in order. (game, seq) is unique: two racing moves cannot both be number n."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(help_text="0-based position in the game's action log")
    seat = models.PositiveSmallIntegerField()
    round_index = models.PositiveSmallIntegerField()
    action = models.JSONField(help_text="engine Action.to_dict()")
    record = models.JSONField(help_text="engine MoveRecord.to_dict(): private to the mover")
    by_bot = models.BooleanField(default=False, help_text="Played by a bot or autopilot.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
            models.CheckConstraint(condition=Q(seat__lt=8), name="move_seat_below_8"),
        ]

    def __str__(self) -> str:
        return f"{self.game} move {self.seq}"


class RoundScore(models.Model):
    """One seat's result for one round: for scoresheets and statistics."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="round_scores")
    round_index = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="round_scores",
        db_index=False,  # roundscore_user_hand leads with it
    )
    hand_size = models.PositiveSmallIntegerField()
    wild_rank = models.PositiveSmallIntegerField()
    penalty = models.PositiveIntegerField()
    went_out = models.BooleanField()
    melds = models.JSONField()
    deadwood = models.JSONField()

    class Meta:
        ordering = ["game", "round_index", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "round_index", "seat"], name="roundscore_unique"
            ),
            models.CheckConstraint(
                condition=Q(went_out=False) | Q(penalty=0), name="roundscore_out_scores_zero"
            ),
        ]
        # A player's rounds by hand size with what the player page sums, from the index alone.
        indexes = [
            models.Index(
                fields=["user", "hand_size", "penalty", "went_out"], name="roundscore_user_hand"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} round {self.round_index + 1} seat {self.seat}: {self.penalty}"
