"""Reads for ratings: the leaderboard, a player's rating and its history as a chart. Every read
is a fixed number of queries however many players or games there are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import BooleanField, ExpressionWrapper, Q

from accounts.models import User

from ..models import Rating, RatingChange
from ..ratings import display_rating, shown_rating

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations  # django-stubs' own: a dev dependency

LEADERBOARD_PER_PAGE = 20
HISTORY_ROWS = 50  # the table under the chart: the latest games
CHART_POINTS = 200  # the chart: the latest games
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 600, 200, 24


class Provisional(TypedDict):
    provisional: bool


def leaderboard(page: str | None = None) -> Page[WithAnnotations[Rating, Provisional]]:
    """One page of the rated players: those with at least settings.LEADERBOARD_MIN_GAMES rated
    games, strongest (by the conservative estimate) first and numbered, then the newcomers,
    marked provisional and unnumbered (a few lucky games would otherwise put one on top, and a
    board that waits for five games shows a new site empty): a count and a page, two queries.

    A deleted account leaves the list (its rating rows stay: other players' rating history rests
    on them). A hidden profile stays listed by name: its games and results are public to
    everyone who sat at them anyway, and a leaderboard that players could leave by a setting
    would rank only those who are winning; its link leads to the "this profile is private" page
    for those who may not see it (views.ratings.player)."""
    provisional = Q(games__lt=settings.LEADERBOARD_MIN_GAMES)
    ratings = (
        Rating.objects.filter(user__is_active=True)
        .annotate(provisional=ExpressionWrapper(provisional, output_field=BooleanField()))
        .select_related("user")
        .only(
            "ordinal",
            "games",
            "user__username",
            "user__display_name",
            "user__is_bot",
            "user__name_change_due",
        )
        .order_by("provisional", "-ordinal", "user_id")
    )
    page_obj: Page[WithAnnotations[Rating, Provisional]]
    page_obj = Paginator(ratings, LEADERBOARD_PER_PAGE).get_page(page)
    for place, rating in enumerate(page_obj, start=page_obj.start_index()):
        # The established come first, so their places run on from page to page.
        # django-stubs 6.1 loses an annotate()d field through a Paginator's Page in a function.
        rating.place = None if rating.provisional else place  # type: ignore[attr-defined]
        rating.display = display_rating(rating.ordinal)
    return page_obj


@dataclass(frozen=True)
class Chart:
    """A history (the rating, the accuracy) as an SVG polyline in a CHART_WIDTH x CHART_HEIGHT
    viewBox, its latest point marked (a history of one game is that point alone)."""

    points: str
    last_x: str
    last_y: str
    first: int
    last: int
    low: int
    high: int
    count: int
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    pad: int = CHART_PAD


def line_chart(values: list[int]) -> Chart | None:
    if not values:
        return None
    low, high = min(values), max(values)
    step = (CHART_WIDTH - 2 * CHART_PAD) / max(len(values) - 1, 1)
    inner = CHART_HEIGHT - 2 * CHART_PAD

    def x(index: int) -> float:  # one game: its point in the middle
        return CHART_WIDTH / 2 if len(values) == 1 else CHART_PAD + index * step

    def y(value: int) -> float:  # a flat history: across the middle
        if high == low:
            return CHART_PAD + inner / 2
        return CHART_PAD + (high - value) / (high - low) * inner

    xys = [(f"{x(i):.1f}", f"{y(value):.1f}") for i, value in enumerate(values)]
    points = " ".join(f"{x},{y}" for x, y in xys)
    return Chart(points, *xys[-1], values[0], values[-1], low, high, len(values))


def player_profile(user: User) -> dict[str, Any]:
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
        "shown_rating": shown_rating(rating),
        "chart": line_chart([change.display for change in changes]),
        "history": changes[::-1][:HISTORY_ROWS],
    }
