"""Writes for accounts. Accounts imports nothing from games: deleting an account from the site
goes through games.departure.account_delete, which lets the games forget the player first and then
calls user_delete here."""

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from .models import (
    DELETED_USERNAME_PREFIX,
    ApiToken,
    Preferences,
    PushSubscription,
    User,
    Vacation,
)
from .names import (
    BOT_ACCOUNTS,
    BOT_USERNAME_PREFIX,
    NAME_TAKEN,
    validate_display_name,
    validate_username,
)


def bots_ensure() -> list[User]:
    """Create the bot accounts that are missing; idempotent."""
    bots = []
    for kind, display_name in BOT_ACCOUNTS.items():
        user, _created = User.objects.get_or_create(
            is_bot=True,
            bot_kind=kind,
            defaults={"username": f"{BOT_USERNAME_PREFIX}{kind}", "display_name": display_name},
        )
        if user.has_usable_password():
            user.set_unusable_password()
            user.save(update_fields=["password"])
        bots.append(user)
    return bots


MAX_OWN_BOTS = 3


@transaction.atomic
def own_bot_create(*, owner: User, username: str) -> User:
    """A bot account of `owner`'s (docs/api.md): a program of theirs plays it through the API.
    It logs in with no password, gets no mail, and is marked as a bot wherever it is named.
    ValidationError for a name that is not free or a person with bots enough."""
    User.objects.select_for_update().get(pk=owner.pk)
    if owner.is_bot:
        raise ValidationError(_("A bot cannot own a bot."))
    if User.objects.filter(owner=owner).count() >= MAX_OWN_BOTS:
        raise ValidationError(_("You have as many bots as a player may."))
    username = (username or "").strip()
    if not username:
        raise ValidationError(_("Give your bot a name."))
    User._meta.get_field("username").run_validators(username)
    validate_username(username)
    bot = User(username=username, is_bot=True, owner=owner, language=owner.language)
    bot.set_unusable_password()
    try:
        with transaction.atomic():
            bot.save()
    except IntegrityError:
        raise ValidationError(NAME_TAKEN) from None
    return bot


PREFERENCE_FIELDS = (
    "turn_mail",
    "turn_mail_while_watching",
    "mail_play",
    "reminders",
    "invitations",
    "game_over",
    "push",
    "profile_hidden",
    "autopilot_level",
)


def preferences_update(*, user: User, **changes) -> Preferences:
    """Change some of the player's mail preferences (the others keep their values)."""
    unknown = set(changes) - set(PREFERENCE_FIELDS)
    if unknown:
        raise ValueError(f"Not a preference: {', '.join(sorted(unknown))}")
    preferences, _created = Preferences.objects.update_or_create(user=user, defaults=changes)
    return preferences


PROFILE_FIELDS = ("display_name", "time_zone", "language", "four_colour_deck", "table_tour_done")


def profile_update(*, user: User, **changes) -> User:
    """Change the player's display name, time zone, language or how their table looks (validated
    by the model; a display name also by names.validate_display_name). Raises ValidationError."""
    unknown = set(changes) - set(PROFILE_FIELDS)
    if unknown:
        raise ValueError(f"Not a profile field: {', '.join(sorted(unknown))}")
    if changes.get("display_name"):
        try:
            validate_display_name(changes["display_name"], user=user)
        except ValidationError as error:
            raise ValidationError({"display_name": error}) from None
    # A new name meets the moderators' request for one (games/moderation.py).
    renamed = user.name_change_due and changes.get("display_name", user.display_name) not in (
        "",
        user.display_name,
    )
    for field, value in changes.items():
        setattr(user, field, value)
    user.full_clean(exclude=[f.name for f in User._meta.fields if f.name not in changes])
    if renamed:
        user.name_change_due = False
    try:
        with transaction.atomic():
            user.save(update_fields=list(changes) + (["name_change_due"] if renamed else []))
    except IntegrityError:  # another account took the name since the check
        raise ValidationError({"display_name": NAME_TAKEN}, code="name_taken") from None
    return user


def push_subscription_save(*, user: User, endpoint: str, p256dh: str, auth: str) -> None:
    """This device takes the player's push notices from now on. An endpoint names one browser
    profile: whoever subscribed it last (a shared computer, a new login) gets its notices."""
    PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
    )


def push_subscription_delete(*, endpoint: str, user: User | None = None) -> int:
    """No more notices to this device: its player turned them off there (`user`: only their
    own), or the push service said it is gone (any player's). Returns how many were deleted."""
    rows = PushSubscription.objects.filter(endpoint=endpoint)
    if user is not None:
        rows = rows.filter(user=user)
    return rows.delete()[0]


@transaction.atomic
def user_delete(*, user: User) -> User:
    """Forget the person behind an account, keep the row: their seats, moves and results stay in
    other players' games, shown as 'deleted player' (User.name). The username becomes a unique
    placeholder, the password unusable (which also ends every session of theirs: a session
    carries a hash of the password), the account inactive. Only the accounts side: the site's
    way in is games.departure.account_delete."""
    if user.is_bot:
        raise ValueError("Bot accounts are not deleted.")
    Preferences.objects.filter(user=user).delete()
    Vacation.objects.filter(user=user).delete()
    PushSubscription.objects.filter(user=user).delete()
    EmailAddress.objects.filter(user=user).delete()  # allauth's copies of the address
    Authenticator.objects.filter(user=user).delete()  # two-factor: its secret, codes, passkeys
    UserSession.objects.filter(user=user).delete()  # where they were logged in, and from where
    # Their bots stop with them (their seats then run out of time like anyone's); every token
    # of theirs and their bots' opens nothing.
    User.objects.filter(owner=user).update(is_active=False)
    ApiToken.objects.filter(Q(user=user) | Q(user__owner=user)).delete()
    user.username = f"{DELETED_USERNAME_PREFIX}{user.pk}"
    user.display_name = user.first_name = user.last_name = user.email = ""
    user.time_zone, user.language = "UTC", "en"
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    return user


def notices_mark_seen(*, user: User, at) -> None:
    """The player looked at their notices: the notice centre's 'new' starts after `at`."""
    User.objects.filter(pk=user.pk).update(notices_seen_at=at)
    user.notices_seen_at = at
