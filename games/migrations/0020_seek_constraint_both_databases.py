"""One open seek per player and combination, held by SQLite too: the unique index reads "any"
seats and "no time" (NULL) as 0 instead of relying on NULLS NOT DISTINCT, which SQLite lacks.

On SQLite the old constraint was not enforced, so two racing clicks may have left two open seeks
of one combination: the later ones are marked cancelled first (their player keeps the seat they
were given, and the game starts when it fills, as any waiting game)."""

import django.db.models.functions.comparison
from django.conf import settings
from django.db import migrations, models


def cancel_duplicate_open_seeks(apps, schema_editor):
    Seek = apps.get_model("games", "Seek")
    seen = set()
    for seek in Seek.objects.filter(status="open").order_by("created_at", "pk"):
        key = (seek.player_id, seek.seats or 0, seek.preset, seek.time_per_move_days or 0)
        if key in seen:
            Seek.objects.filter(pk=seek.pk).update(status="cancelled")
        seen.add(key)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_mail_play'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='seek',
            name='seek_one_open_per_combination',
        ),
        migrations.RunPython(cancel_duplicate_open_seeks, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='seek',
            constraint=models.UniqueConstraint(models.F('player'), django.db.models.functions.comparison.Coalesce('seats', 0), models.F('preset'), django.db.models.functions.comparison.Coalesce('time_per_move_days', 0), condition=models.Q(('status', 'open')), name='seek_one_open_per_combination'),
        ),
        migrations.AddConstraint(
            model_name='seek',
            constraint=models.CheckConstraint(condition=models.Q(('time_per_move_days__isnull', True), ('time_per_move_days__gte', 1), _connector='OR'), name='seek_time_at_least_a_day'),
        ),
    ]
