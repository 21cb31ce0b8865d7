"""A place in a ranking as the active language writes it: `{{ rank|place }}` is 1st in English,
1. in Czech (presentation.place)."""

from django import template

from ..presentation import place

register = template.Library()
register.filter("place", place)
