"""The forms a host opens a league or a tournament with."""

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import BotLevel

from ..forms import QUICK_PRESET_CHOICES, TIME_CHOICES, time_per_move_field
from ..models import TOURNAMENT_MAX_ROUNDS, TOURNAMENT_SEATS
from .records import LIMIT_CHOICES

BOT_FILL_CHOICES = [
    ("", _("No bots: a bye or smaller tables")),
    (BotLevel.EASY, _("Easy bots fill short tables")),
    (BotLevel.MEDIUM, _("Medium bots fill short tables")),
    (BotLevel.HARD, _("Hard bots fill short tables")),
]


def _record_choices() -> list[tuple[str, str]]:
    """Read when the form is shown, in the reader's language."""
    return [("", gettext("Anyone"))] + [
        (str(n), gettext("Players who abandoned at most %(n)d%% of their games") % {"n": n})
        for n in LIMIT_CHOICES
    ]


def record_field():
    """The record a host may ask of those who join (games/competitions/records.py)."""
    return forms.TypedChoiceField(
        label=_("Who may join"),
        choices=_record_choices,
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("Abandoned: dropped after running out of time again and again."),
    )


def _tomorrow() -> str:
    return (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:00")


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    preset = forms.ChoiceField(label=_("Rules"), choices=QUICK_PRESET_CHOICES, initial="classic")
    seats_per_table = forms.TypedChoiceField(
        label=_("Players at a table"),
        choices=[(n, str(n)) for n in TOURNAMENT_SEATS],
        coerce=int,
        initial="3",
    )
    rounds = forms.TypedChoiceField(
        label=_("Rounds"),
        choices=[(n, str(n)) for n in range(1, TOURNAMENT_MAX_ROUNDS + 1)],
        coerce=int,
        initial="3",
    )
    time_per_move_days = time_per_move_field()
    starts_at = forms.DateTimeField(
        label=_("Starts"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("In your time zone. Players join until then; you may start it earlier."),
    )
    bot_level = forms.ChoiceField(label=_("Bots"), choices=BOT_FILL_CHOICES, required=False)
    max_abandoned_percent = record_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["starts_at"].initial = _tomorrow


class LeagueForm(forms.Form):
    """A new league: its name, rules, tables, time per move and divisions."""

    name = forms.CharField(label=_("Name"), max_length=60)
    preset = forms.ChoiceField(label=_("Rules"), choices=QUICK_PRESET_CHOICES, initial="classic")
    seats_per_table = forms.TypedChoiceField(
        label=_("Players at a table"), choices=[("2", "2"), ("3", "3")], coerce=int, initial="2"
    )
    time_per_move_days = forms.TypedChoiceField(
        label=_("Time per move"), choices=TIME_CHOICES[1:], coerce=int, initial="3"
    )
    division_size = forms.TypedChoiceField(
        label=_("Players in a division"),
        choices=[(str(n), str(n)) for n in range(4, 9)],
        coerce=int,
        initial="6",
    )
    bots_fill = forms.BooleanField(
        label=_("Bots fill a short division"), required=False, initial=True
    )
    max_abandoned_percent = record_field()
