"""Writes for accounts."""

from .models import Preferences, User

# The bot accounts every installation has; the engine's bot registry plays them.
BOT_ACCOUNTS = {
    "easy": "Easy Bot",
    "medium": "Medium Bot",
    "hard": "Hard Bot",
    "random": "Random Bot",
}


def bots_ensure() -> list[User]:
    """Create the bot accounts that are missing; idempotent."""
    bots = []
    for kind, display_name in BOT_ACCOUNTS.items():
        user, _created = User.objects.get_or_create(
            is_bot=True,
            bot_kind=kind,
            defaults={"username": f"bot-{kind}", "display_name": display_name},
        )
        if user.has_usable_password():
            user.set_unusable_password()
            user.save(update_fields=["password"])
        bots.append(user)
    return bots


PREFERENCE_FIELDS = (
    "turn_mail",
    "turn_mail_while_watching",
    "reminders",
    "invitations",
    "game_over",
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
