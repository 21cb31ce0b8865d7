from django import template
from django.utils import timezone

from .. import zones

register = template.Library()


@register.filter
def zoned(value) -> str:
    """An absolute time in the viewer's (or mail recipient's) zone, naming the zone."""
    return zones.zoned(value)


@register.simple_tag
def current_zone() -> str:
    return timezone.get_current_timezone_name()


@register.filter
def local_time(value) -> str:
    """An absolute time in the viewer's zone, without the zone's name."""
    return zones.local_time(value)
