"""League standings' points as a player reads them: 3, ½, 2½ (kept in halves)."""

from django import template

from ..pairing import points_text

register = template.Library()


@register.filter
def points(half_points: int) -> str:
    return points_text(half_points)
