import re
import zoneinfo
from functools import cache

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from .validators import fold_name, validate_one_line, validate_time_zone

# The site's languages (settings.LANGUAGES, each named in itself): pages and mails in the one the
# player chose.
LANGUAGE_CHOICES = settings.LANGUAGES


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """Every IANA zone this machine knows, sorted; the form's list (the model only validates,
    so that a new tzdata release needs no migration)."""
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class NameKeyField(models.TextField):
    """A name of the account folded (validators.fold_name), worked out whenever the row is
    written, by save() as by bulk_create(): `of` "shown" (User.name: the display name, else the
    username; unique, so no two accounts show names that read the same, for every way an account
    is made or renamed) or "username" (the login name behind a display name, looked up when a
    new name is checked: names.name_taken)."""

    def __init__(self, *args, of: str = "shown", **kwargs):
        self.of = of
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if self.of != "shown":
            kwargs["of"] = self.of
        return name, path, args, kwargs

    def pre_save(self, model_instance, add):
        name = model_instance.username
        if self.of == "shown":
            name = model_instance.display_name or name
        value = fold_name(name)
        setattr(model_instance, self.attname, value)
        return value


class User(AbstractUser):
    """A player: a person, or a bot account that plays the seats given to it."""

    display_name = models.CharField(
        _("display name"), max_length=40, blank=True, validators=[validate_one_line]
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_kind = models.CharField(_("bot kind"), max_length=20, blank=True)
    # A player's own bot (docs/api.md): a program of theirs plays it through the API with a
    # token; the site's bots (a bot_kind, no owner) are played by the site itself.
    owner = models.ForeignKey(
        "self",
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="own_bots",
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text=_("Deadlines and times on pages and in emails are shown in this zone."),
    )
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES, default="en")
    # How the table looks to this player; on the user row because every page's frame reads them.
    four_colour_deck = models.BooleanField(
        _("four-colour deck"),
        default=False,
        help_text=_("Spades black, hearts red, diamonds blue, clubs green."),
    )
    table_tour_done = models.BooleanField(_("table tour seen"), default=False)
    # The notice centre lists what happened in the player's games after this (None: since they
    # joined); opening it moves this on.
    notices_seen_at = models.DateTimeField(_("notices last looked at"), null=True, blank=True)
    # Raised by "sign out everywhere else" (accounts/sessions.py): every session signed in
    # before it no longer matches the account, as after a password change.
    session_epoch = models.PositiveIntegerField(_("sessions ended"), default=0, db_default=0)
    # The staff's measures (games/moderation.py): no chat until, no new games until (their games
    # go on with the autopilot), and a new name asked for.
    chat_muted_until = models.DateTimeField(_("muted in chat until"), null=True, blank=True)
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True)
    name_change_due = models.BooleanField(_("name change due"), default=False, db_default=False)
    name_key = NameKeyField(_("name, folded"), editable=False, default="")
    username_key = NameKeyField(
        _("username, folded"), of="username", editable=False, default="", db_index=True
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["name_key"], name="one_account_per_shown_name"),
            # A site's bot has a kind; a player's own bot has an owner; a person has neither.
            models.CheckConstraint(
                condition=models.Q(is_bot=True, bot_kind__gt="", owner__isnull=True)
                | models.Q(is_bot=True, bot_kind="", owner__isnull=False)
                | models.Q(is_bot=False, bot_kind="", owner__isnull=True),
                name="bot_kind_or_owner_iff_bot",
            ),
            models.UniqueConstraint(
                fields=["bot_kind"],
                condition=models.Q(is_bot=True, owner__isnull=True),
                name="one_account_per_bot_kind",
            ),
            models.CheckConstraint(
                condition=models.Q(language__in=[code for code, _name in LANGUAGE_CHOICES]),
                name="user_language_valid",
            ),
        ]

    def _get_session_auth_hash(self, secret=None) -> str:
        """Django's hash of the password, which a session carries and must match (made with the
        secret key and with each of SECRET_KEY_FALLBACKS); with the sessions' epoch in it once
        the player has signed out everywhere else. Epoch 0 leaves it as Django makes it, so no
        session ended with the upgrade that brought the epoch."""
        if not self.session_epoch:
            return super()._get_session_auth_hash(secret=secret)
        return salted_hmac(
            "accounts.User.get_session_auth_hash",
            f"{self.password}:{self.session_epoch}",
            secret=secret,
            algorithm="sha256",
        ).hexdigest()

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        # A save of some fields only writes name_key along with the names it is made from.
        fields = kwargs.get("update_fields")
        if fields is not None and {"display_name", "username"} & set(fields):
            kwargs["update_fields"] = {*fields, "name_key", "username_key"}
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        if self.is_deleted:
            return str(DELETED_PLAYER)  # translated when shown, in the viewer's language
        bot = SITE_BOT_NAME.match(self.display_name)
        if bot:  # no person may take a bot's name (names.is_bot_name): read by the name alone
            return f"{SITE_BOT_NAMES[bot[1]]}{bot[2]}"
        if self.name_change_due:  # the staff found it abusive: hidden until the player changes it
            return str(RENAMED_PLAYER) % {"number": self.pk}
        return self.display_name or self.username

    def is_suspended(self, now) -> bool:
        """Kept from starting or joining games by the staff (closed accounts are inactive)."""
        return self.suspended_until is not None and self.suspended_until > now

    def is_chat_muted(self, now) -> bool:
        return self.chat_muted_until is not None and self.chat_muted_until > now

    @property
    def is_deleted(self) -> bool:
        """Deleted by its player (services.user_delete): the seats stay, the person is gone."""
        return self.username.startswith(DELETED_USERNAME_PREFIX) and not self.is_active

    @property
    def is_site_bot(self) -> bool:
        """One of the site's bots, which the site plays (not a player's own bot)."""
        return self.is_bot and self.owner_id is None

    @property
    def bot_level(self) -> str:
        """A bot's level, in words ("Hard"); empty for a person or a bot without levels."""
        level = self.bot_kind.split("-")[0]
        return BotLevel(level).label if level in BotLevel.values else ""


DELETED_PLAYER = _("deleted player")
# A name the staff asked its player to change (games/moderation.py), shown meanwhile.
RENAMED_PLAYER = _("player %(number)s")
# The site's bots' names, kept in English on their rows (names.BOT_ACCOUNTS) and shown in the
# reader's language, their numbered siblings' too ("Hard Bot 2").
SITE_BOT_NAMES = {
    "Easy Bot": _("Easy Bot"),
    "Medium Bot": _("Medium Bot"),
    "Hard Bot": _("Hard Bot"),
    "Random Bot": _("Random Bot"),
}
SITE_BOT_NAME = re.compile(f"^({'|'.join(SITE_BOT_NAMES)})((?: [0-9]+)?)$")
# A deleted account's username: this prefix and its id (unique, and never a valid sign-up name
# because sign-up names cannot contain "~").
DELETED_USERNAME_PREFIX = "~deleted-"

VACATION_DAYS_PER_YEAR = 14


class BotLevel(models.TextChoices):
    """The levels a player may choose for a bot (games.engine.bots.LEVELS)."""

    EASY = "easy", _("Easy")
    MEDIUM = "medium", _("Medium")
    HARD = "hard", _("Hard")


class Preferences(models.Model):
    """What mail a player wants, whether their player page is public, and their vacation bank.
    No row means the defaults."""

    class TurnMail(models.TextChoices):
        EACH = "each", _("An email each time it is my turn")
        DIGEST = "digest", _("One daily digest of the games waiting on me")
        OFF = "off", _("No email about my turns")

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="preferences")
    turn_mail = models.CharField(
        _("your turn"), max_length=8, choices=TurnMail.choices, default=TurnMail.EACH
    )
    turn_mail_while_watching = models.BooleanField(
        _("even while I have the table open"),
        default=False,
        help_text=_("Otherwise no 'your turn' email while you are looking at that table."),
    )
    mail_play = models.BooleanField(
        _("play by answering the mail"),
        default=True,
        help_text=_(
            "A turn mail you answer with your move (such as “stock, discard 7h”) plays it."
        ),
    )
    reminders = models.BooleanField(
        _("deadline reminders"),
        default=True,
        help_text=_("When your time for a move is running out, and when it has run out."),
    )
    invitations = models.BooleanField(_("invitations to games"), default=True)
    game_over = models.BooleanField(
        _("game-over summaries with the scoresheet"),
        default=True,
        help_text=_("Also: when you are dropped from a game for running out of time."),
    )
    push = models.BooleanField(
        _("notices on my devices"),
        default=True,
        help_text=_(
            "On the phones and browsers where you turned them on: your turn, invitations and,"
            " with reminders on, your time running out."
        ),
    )
    profile_hidden = models.BooleanField(
        _("hide my player page"),
        default=False,
        help_text=_(
            "Then only you and the players who shared a game with you see your statistics."
        ),
    )
    autopilot_level = models.CharField(
        _("autopilot level"),
        max_length=8,
        choices=BotLevel.choices,
        default=BotLevel.MEDIUM,
        help_text=_("How well the bot plays your seat when your time for a move runs out."),
    )
    vacation_days_per_year = models.PositiveSmallIntegerField(
        _("vacation days per year"), default=VACATION_DAYS_PER_YEAR
    )

    class Meta:
        verbose_name_plural = _("preferences")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(turn_mail__in=["each", "digest", "off"]),
                name="preferences_turn_mail_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(autopilot_level__in=BotLevel.values),
                name="preferences_autopilot_level_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Preferences of {self.user_id}"


class Vacation(models.Model):
    """Time off: the player's clocks stand still from starts_at to ends_at. Booked as whole days
    (UTC midnight to midnight); ending it early moves ends_at to that moment."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="vacation_ends_after_it_starts",
            ),
        ]
        indexes = [models.Index(fields=["user", "ends_at"])]

    def __str__(self) -> str:
        return f"Vacation of {self.user_id}: {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"


class PushSubscription(models.Model):
    """A browser or phone that takes Web Push notices for this player: where the push service
    accepts them (the endpoint, one device each) and the keys that encrypt them for it. Deleted
    when the player turns notices off there, or when the push service says it is gone."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="The browser's public key (base64url).")
    auth = models.CharField(max_length=40, help_text="The shared authentication secret.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Push device {self.pk} of {self.user_id}"


def display_name(user: User) -> str:
    """How allauth names a player in its pages and messages (ACCOUNT_USER_DISPLAY)."""
    return user.name


class ApiToken(models.Model):
    """A personal access token for the API (docs/api.md): shown once when made, kept only as its
    SHA-256 (`digest`) and its first characters (`prefix`, to tell tokens apart); what it may
    do (`scopes`), until when, and when it was last used. A player's own bot gets its tokens
    from its owner's settings."""

    class Scope(models.TextChoices):
        READ = "read", _("read: your games, their tables as you see them, their chat")
        PLAY = "play", _("play: moves, joining games and answering invitations")
        CHAT = "chat", _("chat: write in the games' chat")

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=40, validators=[validate_one_line])
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    scopes = models.CharField(_("scopes"), max_length=20)  # space-separated Scope values
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "revoked_at"])]

    def __str__(self) -> str:
        return f"API token {self.pk} ({self.prefix}…) of {self.user_id}"

    @property
    def scope_set(self) -> frozenset[str]:
        return frozenset(self.scopes.split())
