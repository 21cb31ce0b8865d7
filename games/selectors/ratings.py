"""Reads for ratings: the leaderboard, a player's rating and its history as a chart. Every read
is a fixed number of queries however many players or games there are."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.paginator import Page, Paginator

from accounts.models import User

from ..models import Rating, RatingChange
from ..ratings import display_rating

LEADERBOARD_PER_PAGE = 20
HISTORY_ROWS = 50  # the table under the chart: the latest games
CHART_POINTS = 200  # the chart: the latest games
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 600, 200, 24


def leaderboard(page: str | None = None) -> Page:
    """One page of players with at least settings.LEADERBOARD_MIN_GAMES rated games, strongest
    (by the conservative estimate) first: a count and a page, two queries.

    A deleted account leaves the list (its rating rows stay: other players' rating history rests
    on them). A hidden profile stays listed by name: its games and results are public to
    everyone who sat at them anyway, and a leaderboard that players could leave by a setting
    would rank only those who are winning; its link leads to the "this profile is private" page
    for those who may not see it (views.ratings.player)."""
    ratings = (
        Rating.objects.filter(games__gte=settings.LEADERBOARD_MIN_GAMES, user__is_active=True)
        .select_related("user")
        .only("ordinal", "games", "user__username", "user__display_name", "user__is_bot")
        .order_by("-ordinal", "user_id")
    )
    page_obj = Paginator(ratings, LEADERBOARD_PER_PAGE).get_page(page)
    for place, rating in enumerate(page_obj, start=page_obj.start_index()):
        rating.place = place
        rating.display = display_rating(rating.ordinal)
    return page_obj


@dataclass(frozen=True)
class Chart:
    """The rating history as an SVG polyline in a CHART_WIDTH x CHART_HEIGHT viewBox."""

    points: str
    first: int
    last: int
    low: int
    high: int
    count: int
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    pad: int = CHART_PAD


def _chart(values: list[int]) -> Chart | None:
    if not values:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (CHART_WIDTH - 2 * CHART_PAD) / max(len(values) - 1, 1)
    inner = CHART_HEIGHT - 2 * CHART_PAD
    points = " ".join(
        f"{CHART_PAD + i * step:.1f},{CHART_PAD + inner - (value - low) / span * inner:.1f}"
        for i, value in enumerate(values)
    )
    return Chart(points, values[0], values[-1], low, high, len(values))


def player_profile(user: User) -> dict:
    """A player's current rating, the chart of their latest rated games and the table of them."""
    rating = Rating.objects.filter(user=user).first()
    changes = list(
        RatingChange.objects.filter(user=user).order_by("-finished_at", "-game_id")[:CHART_POINTS]
    )
    changes.reverse()
    for change in changes:
        change.display = display_rating(change.ordinal_after)
        change.delta = change.display - display_rating(change.mu_before - 3 * change.sigma_before)
    return {
        "rating": rating,
        "display": display_rating(rating.ordinal) if rating else None,
        "chart": _chart([change.display for change in changes]),
        "history": changes[::-1][:HISTORY_ROWS],
    }
