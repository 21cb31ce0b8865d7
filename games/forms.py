from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import BotLevel

from .engine import BOTS
from .models import DEFAULT_TIME_PER_MOVE_DAYS, MAX_TIMEOUTS_LIMIT, TIME_PER_MOVE_DAYS
from .newgame import VARIANTS, new_game
from .presentation import per_move

# Lazy all the way: a label formatted here, at import, would stay in the language of that moment
# (ngettext_lazy(...) % {...} formats at once, so the words are presentation.per_move's, made
# lazy).
TIME_CHOICES = [("", _("No time limit"))] + [
    (str(d), lazy(per_move, str)(d)) for d in TIME_PER_MOVE_DAYS
]


def time_per_move_field(**extra) -> forms.TypedChoiceField:
    """The time per move a game is made with (the new-game form's and quick play's): a number of
    days, or none for no limit."""
    return forms.TypedChoiceField(
        label=_("Time per move"),
        choices=TIME_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        initial=str(DEFAULT_TIME_PER_MOVE_DAYS),
        **extra,
    )


# The bot levels are accounts.models.BotLevel's; here, what each is called where a game is made.
FILL_NAMES = {
    BotLevel.EASY: _("Fill them with easy bots"),
    BotLevel.MEDIUM: _("Fill them with medium bots"),
    BotLevel.HARD: _("Fill them with hard bots"),
}
SEAT_NAMES = {
    BotLevel.EASY: _("Easy bot: makes the obvious melds, sometimes throws a card it should keep"),
    BotLevel.MEDIUM: _("Medium bot: always the best card for its own hand, one move ahead"),
    BotLevel.HARD: _("Hard bot: thinks ahead over the cards it cannot see"),
}
BOT_CHOICES = [
    ("", _("Wait for people to join")),
    *((level, FILL_NAMES[level]) for level in BotLevel),
    ("random", _("Fill them with random bots")),
]
VISIBILITY_CHOICES = [
    ("listed", _("Listed in the lobby: anyone may join")),
    ("friends", _("Friends only: listed for the players you follow, and only they may join")),
    ("private", _("Private: only by its invitation link or by name")),
]
SEAT_CHOICES = [
    ("", _("A person (invite or wait)")),
    *((level, SEAT_NAMES[level]) for level in BotLevel),
]
ROUNDS_CHOICES = [
    ("classic", _("Classic: 11 rounds, 3 to 13 cards")),
    ("extended", _("Extended: 13 rounds, up to 15 cards; aces, then 2s, wild in the last two")),
    ("up_and_down", _("Up and down: 22 rounds, 3 up to 13 cards and back down to 3")),
]

# The on/off variants (docs/playing.md, "Variants"), each explained where the game is created.
VARIANT_SWITCHES = {
    "aces_high": (_("Aces high or low"), _(
        "An ace may also rank above the king in a run (Q-K-A), never both ends; "
        "a left-over ace costs 15.")),
    "face_cards_by_rank": (_("Face cards by rank"), _(
        "A left-over J, Q, K costs 11, 12, 13 instead of 10.")),
    "wild_penalty_15": (_("Wild penalty 15"), _(
        "A left-over wild costs 15 instead of its face value.")),
    "one_wild_per_meld": (_("One wild per meld"), _("A meld may hold at most one wild.")),
    "all_wild_melds": (_("All-wild melds"), _(
        "A meld may be made of wilds alone (normally it needs one natural card).")),
    "jokers": (_("Jokers"), _("Two jokers per deck, always wild; a left-over joker costs 20.")),
    "double_face_rounds": (_("Double face rounds"), _(
        "Penalties count double in the Jack, Queen and King rounds.")),
    "redemption": (_("Redemption"), _(
        "After someone goes out, the others lay down their melds in their last turn "
        "and may lay off cards onto anyone's shown melds.")),
}  # fmt: skip


class GameCreateForm(forms.Form):
    seat_count = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in range(2, 9)],
        coerce=int,
        initial=2,
        help_text=_("Best with 2 to 4. One deck for 2 players, two for 3 to 6, three for 7 or 8."),
    )
    time_per_move_days = time_per_move_field(
        help_text=_("A player who runs out of time has a bot play for them until they are back."),
    )
    max_timeouts = forms.TypedChoiceField(
        label=_("Timeouts before a player is dropped"),
        choices=[(n, str(n)) for n in range(1, MAX_TIMEOUTS_LIMIT + 1)],
        coerce=int,
        initial=3,
        required=False,
        empty_value=3,
        help_text=_("Every time per move a player stays away counts one timeout; at this many "
                    "they lose their seat, and a bot keeps it."),
    )  # fmt: skip
    bots = forms.ChoiceField(
        label=_("Other empty seats"), choices=BOT_CHOICES, required=False,
        help_text=_("The seats above left to a person, once the game is created."),
    )  # fmt: skip
    visibility = forms.TypedChoiceField(
        label=_("Who may join"),
        choices=VISIBILITY_CHOICES,
        widget=forms.RadioSelect,
        initial="listed",
        required=False,
        empty_value="private",  # as the old unticked "list in the lobby": nothing shown by default
        help_text=_("Players you invite by name may always join."),
    )
    rounds = forms.ChoiceField(label=_("Rounds"), choices=ROUNDS_CHOICES, initial="classic")
    start_when_full = forms.BooleanField(
        label=_("Start when full"),
        required=False,
        initial=True,
        help_text=_("The game starts by itself when its last seat is taken. Untick it to start "
                    "the game yourself."),
    )  # fmt: skip

    TABLE_FIELDS = (
        "seat_count",
        "time_per_move_days",
        "max_timeouts",
        "visibility",
        "rounds",
        "start_when_full",
    )
    SWITCHES = VARIANTS  # VARIANT_SWITCHES's names, in the order the engine's rules take them
    SEATS = tuple(f"seat_{n}" for n in range(2, 9))  # seat 1 is the creator's

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, (label, help_text) in VARIANT_SWITCHES.items():
            self.fields[name] = forms.BooleanField(label=label, required=False, help_text=help_text)
        for number, name in enumerate(self.SEATS, start=2):
            self.fields[name] = forms.ChoiceField(
                label=_("Seat %(n)d") % {"n": number}, choices=SEAT_CHOICES, required=False
            )

    def chosen_seat_count(self) -> int:
        """The number of players the form was sent or opened with, or the default when that is
        no number of players: which seats to show."""
        field = self.fields["seat_count"]
        raw = self.data.get("seat_count") if self.is_bound else self.initial.get("seat_count")
        try:
            return field.clean(raw)
        except forms.ValidationError:
            return field.initial

    def seat_fields(self):
        """Who takes each seat after the creator's, up to the chosen count: a person, or a bot
        of a chosen level; then what becomes of the seats left to people."""
        return [self[name] for name in (*self.SEATS[: self.chosen_seat_count() - 1], "bots")]

    def seat_bots(self) -> list[str | None]:
        """The bot level chosen for seats 2, 3, ... (None: a person's seat), up to the count."""
        data = self.cleaned_data
        return [data.get(name) or None for name in self.SEATS[: data["seat_count"] - 1]]

    def table_fields(self):
        """The fields that set up the table (players, clock, seats, listing, rounds)."""
        return [self[name] for name in self.TABLE_FIELDS]

    def variant_fields(self):
        """One switch per variant of the rules, each off by default."""
        return [self[name] for name in self.SWITCHES]

    def clean_bots(self):
        value = self.cleaned_data.get("bots") or ""
        if value and value not in BOTS:
            raise forms.ValidationError(_("There is no such bot."))
        return value or None

    def game_kwargs(self) -> dict:
        """What services.game_create makes of the form (newgame.new_game: the API's check too).
        Raises GameError for a choice the form's own fields let through."""
        data = self.cleaned_data
        return new_game(
            seat_count=data["seat_count"],
            time_per_move_days=data["time_per_move_days"],
            max_timeouts=data["max_timeouts"],
            visibility=data["visibility"],
            rounds=data["rounds"],
            variants=[name for name in self.SWITCHES if data[name]],
            start_when_full=data["start_when_full"],
            bots=data["bots"],
            seats=[data.get(name) for name in self.SEATS],
        )


QUICK_SEAT_CHOICES = [("any", _("Any number of players")), *((str(n), str(n)) for n in (2, 3, 4))]
# Quick play's presets (models.QUICK_PRESETS): the kinds of rounds, every variant switch off.
QUICK_PRESET_CHOICES = [
    ("classic", _("Standard: 11 rounds, 3 to 13 cards")),
    *ROUNDS_CHOICES[1:],
]


class QuickPlayForm(forms.Form):
    """Quick play's "Find me a game": how many players, which rules, how long a move may take."""

    seats = forms.ChoiceField(label=_("Players"), choices=QUICK_SEAT_CHOICES, initial="2")
    preset = forms.ChoiceField(label=_("Rules"), choices=QUICK_PRESET_CHOICES, initial="classic")
    time_per_move_days = time_per_move_field()

    def seat_count(self) -> int | None:
        value = self.cleaned_data["seats"]
        return None if value == "any" else int(value)


class BotFillForm(forms.Form):
    """The waiting room's choice of a level for the bots that take the empty seats."""

    bot = forms.ChoiceField(
        label=_("Bot level"),
        choices=BotLevel.choices,
        initial=BotLevel.MEDIUM,
        widget=forms.Select(attrs={"id": "fill-level"}),
    )


class VacationForm(forms.Form):
    first_day = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(
        label=_("Last day"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Whole days, midnight to midnight UTC."),
    )


class VacationEndForm(forms.Form):
    """Which vacation to cancel or end: a database id, whatever the form was given."""

    vacation_id = forms.IntegerField(min_value=1, max_value=2**31 - 1)

    def __init__(self, data):
        super().__init__({"vacation_id": data.get("vacation", "")})
