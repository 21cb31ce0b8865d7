"""A game's clock in words, the same on every page and in every mail:
`{{ game.time_per_move_days|per_move }}` is "3 days per move", or "no time limit"
(presentation.per_move)."""

from django import template

from ..presentation import per_move

register = template.Library()
register.filter("per_move", per_move)
