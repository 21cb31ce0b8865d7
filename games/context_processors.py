"""What every page's frame shows: the count of new notices on the bar, read only when the page
renders the bar (one query)."""

from django.utils.functional import SimpleLazyObject

from .selectors.notices import notice_count


def notices(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"notice_count": SimpleLazyObject(lambda: notice_count(user))}
