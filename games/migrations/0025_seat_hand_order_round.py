"""A seat's own card order belongs to the round it was made in (hand_order_round); hand_sort
keeps the sort the player last chose. Seats with an own order in a game in play keep it for the
round they are in. The column is nullable and "manual" stays a valid hand_sort, so the version
still running beside this one (docs/operations.md, "Upgrades without a stop") works on."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def own_orders_in_play_keep_their_round(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    round_now = Game.objects.filter(pk=OuterRef("game_id")).values("round_index")[:1]
    Seat.objects.filter(hand_sort="manual", game__status="active").update(
        hand_order_round=Subquery(round_now)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0024_reviews"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="hand_order_round",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(own_orders_in_play_keep_their_round, migrations.RunPython.noop),
    ]
