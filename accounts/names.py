"""Who may take which name. A name shown at the table stands for one account: a display name may
not read the same (validators.fold_name: whatever its case, width or compatibility form) as
another account's display name or username, nor as a bot's name, and a new username not as
another account's name either. The database holds the heart of it (User.name_key is unique);
these checks give the player a reason, and keep the usernames behind display names too."""

import re

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .models import User
from .validators import fold_name

# The bot accounts every installation has; the engine's bot registry plays them. A bot's further
# seats at one game go to its numbered siblings ("Hard Bot 2", username "bot-hard-2").
BOT_ACCOUNTS = {
    "easy": "Easy Bot",
    "medium": "Medium Bot",
    "hard": "Hard Bot",
    "random": "Random Bot",
}
BOT_USERNAME_PREFIX = "bot-"
BOT_NAMES = "|".join(re.escape(fold_name(name)) for name in BOT_ACCOUNTS.values())
BOT_NAME = re.compile(f"^({BOT_NAMES})( [0-9]+)?$")

NAME_TAKEN = _("Another player goes by that name, or one that reads the same: choose another.")
BOT_NAME_TAKEN = _("That name is kept for the site's bots: choose another.")


def is_bot_name(name: str) -> bool:
    """`name` reads as a bot's, its siblings' ("Hard Bot 7") included, made or not yet."""
    folded = fold_name(name)
    return bool(BOT_NAME.match(folded)) or folded.startswith(BOT_USERNAME_PREFIX)


def name_taken(name: str, *, by_other_than: User | None = None) -> bool:
    """Another account shows `name` or logs in with it (folded). Usernames are compared without
    regard to case (sign-up keeps them in NFKC: AccountAdapter.clean_username)."""
    folded = fold_name(name)
    others = User.objects.filter(Q(name_key=folded) | Q(username__iexact=folded))
    if by_other_than is not None and by_other_than.pk is not None:
        others = others.exclude(pk=by_other_than.pk)
    return others.exists()


def validate_display_name(name: str, *, user: User | None = None) -> None:
    """A person's new display name (`user`: whose; None at sign-up). Empty is always fine: the
    username shows instead, and it was checked when it was chosen."""
    if not name:
        return
    if is_bot_name(name):
        raise ValidationError(BOT_NAME_TAKEN, code="bot_name")
    if name_taken(name, by_other_than=user):
        raise ValidationError(NAME_TAKEN, code="name_taken")


def validate_username(username: str) -> None:
    """A new account's username: not a bot's kind of name, not another account's name."""
    if is_bot_name(username):
        raise ValidationError(BOT_NAME_TAKEN, code="bot_name")
    if name_taken(username):
        raise ValidationError(NAME_TAKEN, code="name_taken")
