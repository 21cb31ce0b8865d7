"""Cards on a page, drawn in Python: a table shows up to a hundred of them (the hand, the piles,
every seat's melds and left-over cards in the round's summary, the hint), and an `{% include %}`
per card made them a third of the table's rendering time.

    {% card item.card %}                  one card (a CardInfo, games/presentation.py)
    {% card card small=1 %}               a small one, as in a meld
    {% cards meld %}                      a row of small cards spoken as one named group
    {% cards left kind="deadwood" %}      ... named "left over" (also "layoff", "shown")
"""

from django import template
from django.utils.html import format_html, format_html_join
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
    classes = f"pc s{info.suit}" + " red" * info.red + " wild" * info.wild + " small" * bool(small)
    return format_html(
        '<span class="{}" data-card="{}" role="img" aria-label="{}">'
        '<span class="r" aria-hidden="true">{}</span><span class="s" aria-hidden="true">{}</span>'
        "{}</span>\n",  # the newline: the gap between cards, as the page's markup always had
        classes,
        info.token,
        info.name,
        info.rank,
        info.symbol,
        format_html('<span class="w" aria-hidden="true">{}</span>', _("wild")) if info.wild else "",
    )


@register.simple_tag
def cards(infos, kind=""):
    kind = kind or "meld"
    label = _(GROUP_NAMES[kind]) if kind in GROUP_NAMES else _("meld")
    return format_html(
        '<span class="{}" role="group" aria-label="{}">{}</span>\n',
        kind,
        label,
        format_html_join("", "{}", ((card(info, small=True),) for info in infos)),
    )
