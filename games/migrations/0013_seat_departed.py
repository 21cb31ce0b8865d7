"""A seat whose player deleted their account during the game (games/departure.py): a bot keeps
it, and the game is not rated for them."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_drop_chat_author_recent_index'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='departed',
            field=models.BooleanField(default=False, help_text='The player deleted their account: resigned, a bot keeps the seat, and the game is not rated for them.'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(('departed', False), ('resigned', True), _connector='OR'), name='seat_departed_is_resigned'),
        ),
    ]
