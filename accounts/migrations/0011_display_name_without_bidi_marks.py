"""The check on display names refuses the bidirectional marks too (U+061C, U+200E, U+200F): names
set before it hold them folded into spaces, as 0003 folded the rest, so every stored name passes
its form again."""

from django.db import migrations


def fold_names(apps, schema_editor):
    from accounts.validators import one_line

    User = apps.get_model("accounts", "User")
    marked = User.objects.filter(display_name__regex="[\u061c\u200e\u200f]").only("display_name")
    for user in marked:
        User.objects.filter(pk=user.pk).update(display_name=one_line(user.display_name))


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0010_push_devices_notices_seen'),
    ]

    operations = [
        migrations.RunPython(fold_names, migrations.RunPython.noop),
    ]
