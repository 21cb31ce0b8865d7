"""Cards on a page, drawn in Python: a table shows up to a hundred of them (the hand, the piles,
every seat's melds and left-over cards in the round's summary, the hint), and an `{% include %}`
per card made them a third of the table's rendering time.

    {% card item.card %}                  one card (a CardInfo, games/presentation.py)
    {% card card small=1 %}               a small one, as in a meld
    {% cards meld %}                      a row of small cards spoken as one named group
    {% cards left kind="deadwood" %}      ... named "left over" (also "layoff", "shown")
"""

from html import escape

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

register = template.Library()

GROUP_NAMES = {
    "deadwood": gettext_noop("left over"),
    "layoff": gettext_noop("laid off"),
    "shown": gettext_noop("a hand"),
}


@register.simple_tag
def card(info, small=False):
    return mark_safe(_card_html(info, small))


def _card_html(info, small) -> str:
    """Built with the standard library's escape (what Django's does, without its lazy-string
    checks, a fifth of a table's rendering time)."""
    classes = f"pc s{info.suit}" + " red" * info.red + " wild" * info.wild + " small" * bool(small)
    word = _("wild") if info.wild else ""  # (not inside the f-string: xgettext would miss it)
    wild = f'<span class="w" aria-hidden="true">{escape(word)}</span>' if info.wild else ""
    # The newline: the gap between cards, as the page's markup always had.
    return (
        f'<span class="{escape(classes)}" data-card="{escape(info.token)}" role="img" '
        f'aria-label="{escape(info.name)}"><span class="r" aria-hidden="true">'
        f'{escape(str(info.rank))}</span><span class="s" aria-hidden="true">'
        f"{escape(info.symbol)}</span>{wild}</span>\n"
    )


@register.simple_tag
def cards(infos, kind=""):
    kind = kind or "meld"
    label = _(GROUP_NAMES[kind]) if kind in GROUP_NAMES else _("meld")
    inside = "".join(_card_html(info, True) for info in infos)
    return mark_safe(
        f'<span class="{escape(kind)}" role="group" aria-label="{escape(label)}">{inside}</span>\n'
    )
