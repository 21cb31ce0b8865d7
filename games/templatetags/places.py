"""A place in a ranking as the active language writes it: `{{ rank|place }}` is 1st in English,
1. in Czech, Hungarian and Icelandic, 1e in Dutch, ke-1 in Indonesian. (Django's humanize
`ordinal` wrote "1st" in every language but English: their catalogues miss the case of 1.)"""

from django import template
from django.contrib.humanize.templatetags.humanize import ordinal
from django.utils.translation import get_language

register = template.Library()

# By language; English (and any language not named) takes humanize's 1st, 2nd, 3rd, 11th.
PLACE_FORMATS = {"cs": "{}.", "hu": "{}.", "is": "{}.", "nl": "{}e", "id": "ke-{}"}


@register.filter
def place(rank: int) -> str:
    written = PLACE_FORMATS.get(get_language())
    return written.format(rank) if written else ordinal(rank)
