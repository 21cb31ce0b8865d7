"""A game's clock in words, the same on every page and in every mail:
`{{ game.time_per_move_days|per_move }}` is "3 days per move", or "no time limit"."""

from django import template
from django.utils.translation import gettext, ngettext

register = template.Library()


@register.filter
def per_move(days: int | None) -> str:
    if not days:
        return gettext("no time limit")
    # The new-game form's words too (forms.TIME_CHOICES): one string to translate.
    return ngettext("%(n)d day per move", "%(n)d days per move", days) % {"n": days}
