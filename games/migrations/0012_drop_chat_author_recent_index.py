"""The chat's limit is a cache counter now (games/ratelimit.py): nothing reads a player's recent
messages in a game any more, so their index only cost writes."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0011_seat_players_and_history_indexes")]

    operations = [migrations.RemoveIndex(model_name="chatmessage", name="chat_author_recent")]
