"""Leagues in a browser: a new player finds the leagues page from the menu, joins a league, and
once its season has started sees the standings of their division and opens a league game."""

import pytest
from django.utils import timezone

from games.competitions import leagues
from games.models import Game, League, LeagueEntry
from tests.competitions.helpers import make_league, play_season, season_of
from tests.e2e.conftest import artifact, log_in, sign_up
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.worker]


def test_a_new_player_joins_a_league_and_opens_a_game_from_their_divisions_standings(open_page):
    host = UserFactory(display_name="Hana")
    league = leagues.league_create(user=host, name="Evening league", preset="classic")
    for name in ("Ivo", "Jana"):
        leagues.league_join(league_id=league.pk, user=UserFactory(display_name=name))

    page = open_page(width=1280)
    page.goto("/accounts/signup/")
    sign_up(page, "newcomer", "Nela")
    page.get_by_role("link", name="Leagues").first.click()
    page.wait_for_url("**/leagues/")
    page.screenshot(path=str(artifact("leagues-list-1280px.png")), full_page=True)
    with page.expect_navigation():
        page.get_by_role("link", name="Evening league").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Join the league").click()
    assert page.get_by_text("You play in this season.").is_visible()
    nela = LeagueEntry.objects.get(user__username="newcomer")

    # The season's start comes (beat's sweep in production): bots fill the division of six.
    league.seasons.update(starts_at=timezone.now())
    leagues.season_start(season_id=nela.season_id)
    page.reload()
    with page.expect_navigation():
        page.get_by_role("link", name="Division 1").click()
    assert page.locator("#standings").get_by_text("Nela").is_visible()
    assert page.get_by_text("Ties: more wins").is_visible()
    page.screenshot(path=str(artifact("league-division-1280px.png")), full_page=True)
    game = Game.objects.filter(
        league_fixture__division__entries=nela.pk, seats__user__username="newcomer"
    ).first()
    assert game is not None and game.status == Game.Status.ACTIVE
    with page.expect_navigation():
        page.locator(f"#division-games a[href='/games/{game.pk}/']").click()
    page.locator("#table").wait_for()
    assert page.url.endswith(f"/games/{game.pk}/")

    phone = open_page(width=360, height=740)
    phone.goto(f"/leagues/{league.pk}/seasons/1/divisions/1/")
    phone.screenshot(path=str(artifact("league-division-360px.png")), full_page=True)
    phone.goto(f"/leagues/{league.pk}/")
    phone.screenshot(path=str(artifact("league-360px.png")), full_page=True)
    phone.goto("/leagues/")
    phone.screenshot(path=str(artifact("leagues-list-360px.png")), full_page=True)
    assert League.objects.count() == 1


def test_a_finished_seasons_standings_and_a_players_league_history_fit_a_phone(open_page):
    """The movement column's header is read aloud only (a visually-hidden span): inside the
    table's scrolling box it must not widen the page at 360 px (it made it 500 px wide)."""
    members = [UserFactory(display_name=f"Player {n}") for n in range(4)]
    league = make_league(members)
    leagues.season_start(season_id=season_of(league).pk)
    assert play_season(league).status == "finished"

    phone = open_page(width=360, height=740)
    wide = []
    for path in (
        f"/leagues/{league.pk}/seasons/1/divisions/1/",
        f"/players/{members[0].username}/",
    ):
        phone.goto(path)
        width = phone.evaluate("document.documentElement.scrollWidth")
        wide += [f"{path}: {width} px"] if width > 360 else []
    phone.screenshot(path=str(artifact("league-history-360px.png")), full_page=True)
    assert not wide, wide


def test_forfeiting_a_season_asks_once_more_before_it_is_done(open_page):
    """Forfeiting cannot be undone: one click on the league's page only opens the question."""
    members = [UserFactory(display_name=f"Player {n}") for n in range(4)]
    league = make_league(members)
    leagues.season_start(season_id=season_of(league).pk)
    page = open_page(width=360, height=740)
    log_in(page, members[1], next_path=f"/leagues/{league.pk}/")
    yes = page.get_by_role("button", name="Yes, forfeit")
    assert not yes.is_visible()
    page.get_by_text("Forfeit the rest of the season…").click()
    assert yes.is_visible()
    page.screenshot(path=str(artifact("league-forfeit-asked-360px.png")), full_page=True)
    assert LeagueEntry.objects.get(user=members[1]).status == LeagueEntry.Status.PLAYING
    with page.expect_navigation():
        yes.click()
    assert page.get_by_text("You left this season.").is_visible()
    assert LeagueEntry.objects.get(user=members[1]).status == LeagueEntry.Status.FORFEITED
