"""Names that read alike by their look-alike letters are one name (validators.fold_name now
takes the skeleton of UTS #39: "аlice" with a Cyrillic а is "alice"; name_shape reads "AIice"
as "Alice"). Every account's name_key is folded anew, and a username_key kept beside it for the
checks of new names; names that now read as an older account's are numbered as 0012 numbered
them ("аlice 2"), bots first, then accounts in the order they were made."""

import importlib

import accounts.models
from django.db import migrations, models
from django.db.models import Value
from django.db.models.functions import Cast, Concat

_0012 = importlib.import_module("accounts.migrations.0012_shown_names_unique")


def fold_anew(apps, schema_editor):
    from accounts.names import is_bot_name
    from accounts.validators import fold_name, name_shape

    User = apps.get_model("accounts", "User")
    users = list(
        User.objects.order_by("-is_bot", "pk").only("username", "display_name", "is_bot")
    )
    _0012.make_unique(users, lambda name: [fold_name(name), name_shape(name)], is_bot_name)
    # Every key first set aside, so that no row meets another's old key on its way.
    User.objects.update(name_key=Concat(Value("#"), Cast("pk", models.TextField())))
    for user in users:
        User.objects.filter(pk=user.pk).update(
            display_name=user.display_name,
            name_key=fold_name(user.name),
            username_key=fold_name(user.username),
        )


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0014_api_tokens_own_bots'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='username_key',
            field=accounts.models.NameKeyField(db_index=True, default='', editable=False, of='username', verbose_name='username, folded'),
        ),
        migrations.RunPython(fold_anew, migrations.RunPython.noop),
    ]
