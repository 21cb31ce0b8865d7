"""Games, seats, moves and round results. The engine snapshot in Game.state is a cache: the moves
rebuild it exactly (games.selectors.history.replayed_state). Whether a game is over, and why, is the
row's `status` and `end_reason`: an early end leaves the snapshot mid-round."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length, Lower
from django.db.models.lookups import Range
from django.utils import timezone
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
    # The player's own card order (tokens), kept between visits; "suit"/"rank" sort or manual.
    hand_order = models.JSONField(default=list, blank=True)
    hand_sort = models.CharField(max_length=8, default="suit")
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
            )
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
        """A bot plays this seat: a bot's own, one on autopilot, or one given up (resigned or
        dropped). The sweep's query for the same fact is deadlines.due's bot_to_move."""
        return self.user.is_bot or self.autopilot or self.resigned


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


class Heartbeat(models.Model):
    """The last time a named background process proved it was alive (the worker, via beat)."""

    name = models.CharField(max_length=40, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} @ {self.seen_at:%Y-%m-%d %H:%M:%S}"


class Notification(models.Model):
    """One email or push the site decided to send, recorded before it is sent (an outbox), a row
    per channel. The unique constraints make each one happen once per channel: a 'your turn'
    notice per turn, a reminder per turn per threshold, an invitation per game, a game-over
    summary per game, a digest per day, a timed-out mail per turn, a dropped mail per game."""

    class Channel(models.TextChoices):
        MAIL = "mail", _("Email")
        PUSH = "push", _("Push notice")

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Your turn")
        REMINDER = "reminder", _("Deadline reminder")
        INVITATION = "invitation", _("Invitation")
        GAME_OVER = "game_over", _("Game over")
        DIGEST = "digest", _("Daily digest")
        TIMED_OUT = "timed_out", _("Timed out: a bot plays for you")
        DROPPED = "dropped", _("Dropped after too many timeouts")
        # The waiting room's news: to the host, a player took a seat or declined; to the people
        # seated, the game started by itself.
        JOINED = "joined", _("A player took a seat")
        DECLINED = "declined", _("A player declined an invitation")
        STARTED = "started", _("The game started")

    class Status(models.TextChoices):
        PENDING = "pending", _("To send")
        SENT = "sent", _("Sent")
        SKIPPED = "skipped", _("Not sent")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    channel = models.CharField(max_length=4, choices=Channel.choices, default=Channel.MAIL)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    turn = models.PositiveIntegerField(default=0, help_text="Game.turn_version of the turn.")
    threshold = models.PositiveSmallIntegerField(
        default=0, help_text="Reminders: the percent of the time per move used."
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who took a seat or declined (JOINED, DECLINED): once per player and game.",
    )
    day = models.DateField(null=True, blank=True, help_text="Digests: the day.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    reason = models.CharField(max_length=40, blank=True, help_text="Why it was not sent.")
    created_at = models.DateTimeField(auto_now_add=True)
    enqueued_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "channel", "game", "turn", "threshold"],
                condition=Q(game__isnull=False, player__isnull=True),
                name="notification_once_per_turn",
            ),
            models.UniqueConstraint(
                fields=["user", "kind", "channel", "game", "player"],
                condition=Q(player__isnull=False),
                name="notification_once_per_player",
            ),
            models.UniqueConstraint(
                fields=["user", "kind", "channel", "day"],
                condition=Q(game__isnull=True),
                name="notification_once_per_day",
            ),
            models.CheckConstraint(
                condition=Q(
                    kind__in=[
                        "your_turn",
                        "reminder",
                        "invitation",
                        "game_over",
                        "digest",
                        "timed_out",
                        "dropped",
                        "joined",
                        "declined",
                        "started",
                    ]
                ),
                name="notification_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "sent", "skipped", "failed"]),
                name="notification_status_valid",
            ),
            # Pushes are for the moments that call for a player (notifications.policy.PUSH_KINDS).
            models.CheckConstraint(
                condition=Q(channel="mail")
                | Q(
                    channel="push",
                    kind__in=[
                        "your_turn",
                        "reminder",
                        "invitation",
                        "joined",
                        "declined",
                        "started",
                    ],
                ),
                name="notification_channel_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind="digest", game__isnull=True, day__isnull=False)
                | ~Q(kind="digest") & Q(game__isnull=False, day__isnull=True),
                name="notification_digest_has_a_day_others_a_game",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=True) | Q(kind__in=["joined", "declined"]),
                name="notification_player_iff_seat_news",
            ),
            models.CheckConstraint(
                condition=Q(kind="reminder", threshold__gt=0, threshold__lt=100)
                | ~Q(kind="reminder") & Q(threshold=0),
                name="notification_threshold_iff_reminder",
            ),
            models.CheckConstraint(
                condition=Q(status="sent", sent_at__isnull=False)
                | ~Q(status="sent") & Q(sent_at__isnull=True),
                name="notification_sent_at_iff_sent",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "enqueued_at"]),
            # The notice centre and the bar's count: a player's mails since their last look
            # (selectors/notices.py), not all their mails ever.
            models.Index(
                fields=["user", "created_at"],
                condition=Q(channel="mail"),
                name="notification_user_mail",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.channel} to {self.user_id} ({self.status})"


class Rating(models.Model):
    """A player's current OpenSkill (Plackett-Luce) rating: people and bot accounts alike, so that
    a newcomer can see how strong each bot is. Each bot account is rated on its own, the numbered
    siblings ("Easy Bot 2") too: two seats of one kind at a table must be two players to the
    model, and a sibling only ever sits beside its first account, so their numbers agree.
    `ordinal` (mu - 3 sigma, a conservative estimate) orders the leaderboard; games/ratings.py
    says which games are rated and writes this row with the game's RatingChange rows."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0, help_text="Rated games played.")

    class Meta:
        indexes = [models.Index(fields=["-ordinal", "user"], name="rating_leaderboard")]
        constraints = [
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"Rating of {self.user_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating. Unique per (game, user): a game can change
    a rating once, whatever calls the rating code twice (the constraint, not a check, says so)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_after = models.FloatField()
    # The game's finished_at, copied: a player's history is read from these rows alone.
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["finished_at", "game"]
        indexes = [models.Index(fields=["user", "finished_at", "game"], name="ratingchange_user")]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="ratingchange_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game} rating of {self.user_id}"


class Follow(models.Model):
    """One player follows another: the followee is on the follower's friends page and may take a
    seat at the follower's friends-only games. One-way, like a bookmark; two rows are a mutual
    follow. Only people are followed (friends.follow_create says why)."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followee"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followee")), name="follow_not_oneself"),
        ]
        # "Does the host follow me", "do they follow me back": read from the followee's side.
        indexes = [models.Index(fields=["followee", "follower"], name="follow_followee")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followee_id}"


CHAT_MESSAGE_MAX_LENGTH = 500


class ChatMessage(models.Model):
    """One message in a game's chat, kept with the game. `seq` numbers the game's messages from 1
    (the game's chat_count after it); `version` is the game's version when it was written, so the
    replay shows it after the move it followed. The text is shown escaped, as typed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    seq = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.TextField(help_text="At most CHAT_MESSAGE_MAX_LENGTH characters (a constraint).")
    version = models.PositiveIntegerField(help_text="The game's version when it was written.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="chat_unique_seq"),
            models.CheckConstraint(
                condition=Range(Length("text"), (1, CHAT_MESSAGE_MAX_LENGTH)),
                name="chat_text_length",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="chat_seq_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.game} message {self.seq}"


class Mute(models.Model):
    """`muter` no longer sees what `muted` writes, in any game's chat."""

    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes"
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="muted_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="mute_once"),
            models.CheckConstraint(condition=~Q(muter=F("muted")), name="mute_not_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.muter_id} mutes {self.muted_id}"


class ChatReport(models.Model):
    """A player flagged a chat message for the staff, who read reports in the admin."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False, help_text="A staff member has dealt with it.")

    class Meta:
        ordering = ["resolved", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]

    def __str__(self) -> str:
        return f"Report of {self.message} by {self.reporter_id}"


class QuickPreset(models.TextChoices):
    """Quick play's rules presets: the kinds of rounds (Rules.rounds), every variant switch off."""

    CLASSIC = "classic", _("Standard")
    EXTENDED = "extended", _("Extended")
    UP_AND_DOWN = "up_and_down", _("Up and down")


QUICK_PRESETS = tuple(QuickPreset.values)


class Seek(models.Model):
    """A player's "find me a game": seated at once in a waiting quick-play game (games/seeks.py),
    open while that game waits, matched when it starts, or cancelled (the seat freed)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        MATCHED = "matched", _("Matched")
        CANCELLED = "cancelled", _("Cancelled")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks"
    )
    seats = models.PositiveSmallIntegerField(null=True, blank=True, help_text="None: any.")
    preset = models.CharField(max_length=12, choices=QuickPreset.choices)
    time_per_move_days = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="seeks"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "seats", "preset", "time_per_move_days"],
                condition=Q(status="open"),
                nulls_distinct=False,
                name="seek_one_open_per_combination",
            ),
            models.CheckConstraint(
                condition=Q(seats__isnull=True) | Q(seats__gte=2, seats__lte=4),
                name="seek_seats_2_to_4",
            ),
            models.CheckConstraint(condition=Q(preset__in=QUICK_PRESETS), name="seek_preset_valid"),
            models.CheckConstraint(
                condition=Q(status__in=["open", "matched", "cancelled"]),
                name="seek_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Seek {self.pk}"
