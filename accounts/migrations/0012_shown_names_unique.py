"""No two accounts show names that read the same (User.name_key, unique), and no display name reads
as another account's username or as a bot's name (accounts/names.py). Names set before that are
made unique here: bots first, then accounts in the order they were made; the first keeps a name,
a later one whose name is taken gets the lowest number after it that no one has ("Alice 2"). A person named
as a bot is shown by their username. An account shown by its username is renamed only when an
older username differs from it in case or width alone."""

import re
import unicodedata

import accounts.models
from django.db import migrations, models

DISPLAY_NAME_LENGTH = 40
BOT_NAME = re.compile("^(easy|medium|hard|random) bot( [0-9]+)?$")  # as names.BOT_NAME then


def fold_then(name: str) -> str:
    """validators.fold_name as it was then: case, width and invisible characters (0015 adds the
    look-alikes)."""
    visible = "".join(char for char in name if unicodedata.category(char) != "Cf")
    return " ".join(unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", visible).casefold()).split())


def numbered(name: str, number: int) -> str:
    suffix = f" {number}"
    return name[: DISPLAY_NAME_LENGTH - len(suffix)].rstrip() + suffix


def make_unique(users, keys, reads_as_bot) -> None:
    """Gives each of `users` (bots first, then by age) a shown name (user.name, and
    user.display_name where it changes) none of whose `keys` another account's shown name or
    username has; `keys(name)` are its folded forms. Also used by 0015."""
    logins = {}  # a folded username -> the first account with it
    for user in users:
        for key in keys(user.username):
            logins.setdefault(key, user.pk)
    shown = set()

    def free(user, name: str) -> bool:
        return all(key not in shown and logins.get(key, user.pk) == user.pk for key in keys(name))

    renamed = []  # the accounts whose name was taken first: numbered once every kept name is known
    for user in users:
        name = user.display_name or user.username
        if not user.is_bot and reads_as_bot(name):
            # No number makes a bot's name a person's ("Hard Bot 2" is a bot's too).
            name, user.display_name = user.username, ""
        if free(user, name):
            shown.update(keys(name))
        else:
            renamed.append((user, name))
        user.name = name
    for user, name in renamed:
        number = 2
        while not free(user, numbered(name, number)):
            number += 1
        user.display_name = user.name = numbered(name, number)
        shown.update(keys(user.name))


def unique_names(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    users = list(
        User.objects.order_by("-is_bot", "pk").only("username", "display_name", "is_bot")
    )
    make_unique(users, lambda name: [fold_then(name)], lambda name: BOT_NAME.match(fold_then(name)))
    for user in users:
        User.objects.filter(pk=user.pk).update(
            display_name=user.display_name, name_key=fold_then(user.name)
        )


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0011_display_name_without_bidi_marks'),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='name_key',
            field=accounts.models.NameKeyField(default='', editable=False, verbose_name='name, folded'),
        ),
        migrations.RunPython(unique_names, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='user',
            constraint=models.UniqueConstraint(fields=('name_key',), name='one_account_per_shown_name'),
        ),
    ]
