"""The clock filter: a game's time per move in words, in the viewer's language."""

from django.template import Context, Template
from django.utils import translation

from games.presentation import per_move


def test_days_per_move_or_no_time_limit():
    assert per_move(None) == "no time limit"
    assert per_move(1) == "1 day per move"
    assert per_move(3) == "3 days per move"


def test_in_the_viewers_language_with_its_plural_forms():
    with translation.override("cs"):
        assert [per_move(days) for days in (None, 1, 3, 7)] == [
            "bez časového limitu", "1 den na tah", "3 dny na tah", "7 dní na tah",
        ]  # fmt: skip


def test_a_template_loads_it_from_the_clock_library():
    template = Template("{% load clock %}{{ days|per_move }}")
    assert template.render(Context({"days": 2})) == "2 days per move"
