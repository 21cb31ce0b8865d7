"""Who may take which name. A name shown at the table stands for one account: a display name may
not read the same (validators.fold_name: whatever its case, width, compatibility form or
look-alike letters, lookalikes.py) as another account's display name or username, nor as a
bot's name, and a new username not as another account's name either; a new name is written in
one script (no Cyrillic "\u0430" among Latin letters). The database holds the heart of it
(User.name_key is unique); these checks give the player a reason, and keep the usernames behind
display names too (User.username_key)."""

import re

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .lookalikes import character_name, passes_for_another
from .models import User
from .validators import fold_name, name_shape, validate_one_script

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
DIGITS = "|".join(sorted({re.escape(fold_name(digit)) for digit in "0123456789"}))  # "1" is "l"
BOT_NAME = re.compile(f"^({BOT_NAMES})( (?:{DIGITS})+)?$")
BOT_PREFIX_FOLDED = fold_name(BOT_USERNAME_PREFIX)

NAME_TAKEN = _("Another player goes by that name, or one that reads the same: choose another.")
LOOKALIKE_TAKEN = _(
    "Another player goes by a name that reads the same: %(characters)s can pass for other "
    "letters. Choose another."
)
BOT_NAME_TAKEN = _("That name is kept for the site's bots: choose another.")


def is_bot_name(name: str) -> bool:
    """`name` reads as a bot's, its siblings' ("Hard Bot 7") included, made or not yet."""
    return any(
        BOT_NAME.match(folded) or folded.startswith(BOT_PREFIX_FOLDED)
        for folded in (fold_name(name), name_shape(name))
    )


def name_taken(name: str, *, by_other_than: User | None = None) -> bool:
    """Another account shows `name` or logs in with it, folded (validators.fold_name: whatever
    its case, width, or look-alike letters), or as it looks in its own case (name_shape)."""
    folded = {fold_name(name), name_shape(name)}
    others = User.objects.filter(Q(name_key__in=folded) | Q(username_key__in=folded))
    if by_other_than is not None and by_other_than.pk is not None:
        others = others.exclude(pk=by_other_than.pk)
    return others.exists()


def _refuse_taken(name: str) -> ValidationError:
    """NAME_TAKEN, naming the characters that pass for others when there are any (a Cyrillic
    "\u0430" in "\u0430lice")."""
    lookalikes = [c for c in dict.fromkeys(name) if passes_for_another(c)]
    if not lookalikes:
        return ValidationError(NAME_TAKEN, code="name_taken")
    characters = ", ".join(character_name(c) for c in lookalikes)
    return ValidationError(LOOKALIKE_TAKEN, code="name_taken", params={"characters": characters})


def validate_name(name: str, *, user: User | None = None) -> None:
    """A name someone is to be shown by, new (`user`: whose; None for a new account): in one
    script, not a bot's kind of name, and not another account's name."""
    if user is None or name not in (user.display_name, user.username):
        validate_one_script(name)  # a name kept from before stays as the migration left it
    if is_bot_name(name):
        raise ValidationError(BOT_NAME_TAKEN, code="bot_name")
    if name_taken(name, by_other_than=user):
        raise _refuse_taken(name)


def validate_display_name(name: str, *, user: User | None = None) -> None:
    """A person's new display name (`user`: whose; None at sign-up). Empty is always fine: the
    username shows instead, and it was checked when it was chosen."""
    if name:
        validate_name(name, user=user)


def validate_username(username: str) -> None:
    """A new account's username: not a bot's kind of name, not another account's name."""
    validate_name(username)
