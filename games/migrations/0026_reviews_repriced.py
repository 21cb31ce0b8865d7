"""Reviews are priced in the player's own penalty points, bounded (engine bots/review.py). The
rows priced the old way (the going-out bonus counted as the player's points, no bound) are
removed rather than kept beside the new ones: a game's figures are a sum over its rounds, and a
sum over two scales means nothing. Reviews are derived from the moves and deterministic, so
nothing is lost: a review page that finds a round missing queues it again, and `manage.py
review_games` queues the finished games left with none (docs/operations.md)."""

from django.db import migrations, models


def remove_old_reviews(apps, schema_editor):
    apps.get_model("games", "RoundReview").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0025_seat_hand_order_round"),
    ]

    operations = [
        migrations.AlterField(
            model_name="roundreview",
            name="lost",
            field=models.FloatField(
                help_text=(
                    "penalty points given up: the decisions' expected costs summed, at most the "
                    "round's penalty"
                )
            ),
        ),
        migrations.RunPython(remove_old_reviews, migrations.RunPython.noop, elidable=True),
    ]
