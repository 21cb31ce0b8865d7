"""Leagues' pages: the list and the new-league form, a league's page with join and leave, a
division's standings (tie-breaks written, movement after the end) and games, the player's league
history on their profile, the season mail's opt-in (a GET writes nothing), junk ids."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.competitions import leagues
from games.models import Game, League, LeagueEntry, LeagueSeason, Notification
from games.notifications.optin import optin_token
from games.notifications.outbox import notification_send
from tests.competitions.helpers import make_league, play_season, season_of
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NEW = {
    "name": "Thursday",
    "preset": "classic",
    "seats_per_table": "2",
    "time_per_move_days": "3",
    "division_size": "6",
    "bots_fill": "on",
}


def test_a_player_starts_a_league_from_the_list_and_it_is_listed_open(client):
    alice = UserFactory()
    client.force_login(alice)
    page = client.get(reverse("leagues")).content.decode()
    assert "Start a league" in page
    response = client.post(reverse("leagues"), NEW)
    league = League.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "league", args=[league.pk]
    )
    listing = client.get(reverse("leagues")).content.decode()
    assert "Thursday" in listing and "open for players" in listing


def test_bad_forms_and_duplicate_names_are_4xx(client):
    client.force_login(UserFactory())
    assert client.post(reverse("leagues"), {**NEW, "division_size": "9"}).status_code == 400
    client.post(reverse("leagues"), NEW)
    assert client.post(reverse("leagues"), NEW).status_code == 409


def test_joining_and_leaving_from_the_league_page(client):
    league = leagues.league_create(user=UserFactory(), name="L", preset="classic")
    bob = UserFactory()
    client.force_login(bob)
    page = client.get(reverse("league", args=[league.pk])).content.decode()
    assert "Join the league" in page
    assert client.post(reverse("league_join", args=[league.pk])).status_code == 302
    assert LeagueEntry.objects.filter(user=bob).exists()
    assert client.post(reverse("league_join", args=[league.pk])).status_code == 409
    page = client.get(reverse("league", args=[league.pk])).content.decode()
    assert "You play in this season." in page and "Leave the season" in page
    assert client.post(reverse("league_leave", args=[league.pk])).status_code == 302
    assert not LeagueEntry.objects.filter(user=bob).exists()


def test_the_standings_page_shows_the_table_tie_breaks_games_and_movement(client):
    people = [UserFactory() for _ in range(4)]
    league = make_league(people, movers=1)
    leagues.season_start(season_id=season_of(league).pk)
    url = reverse("league_division", args=[league.pk, 1, 1])
    client.force_login(people[0])
    page = client.get(url).content.decode()
    assert "Standings" in page and "Ties: more wins" in page
    assert "Wave 1" in page and "Wave 3" in page and "not started" in page
    assert all(p.name in page for p in people)
    play_season(league)
    page = client.get(url).content.decode()
    assert "▲" not in page  # the top division: nobody moves up
    assert "▼" not in page  # nor down: it is the only one
    profile = client.get(reverse("player", args=[people[0].username])).content.decode()
    assert 'id="league-history"' in profile and "Tuesday" in profile


def test_the_season_mail_links_to_a_page_whose_get_writes_nothing(client, mailoutbox):
    people = [UserFactory() for _ in range(4)]
    league = make_league(people)
    leagues.season_start(season_id=season_of(league).pk)
    play_season(league)
    row = Notification.objects.get(user=people[1], kind=Notification.Kind.LEAGUE_SEASON)
    assert notification_send(notification_id=row.pk) == "sent"
    [message] = [m for m in mailoutbox if m.to == [people[1].email]]
    assert "Tuesday, season 1: you finished" in message.subject
    entry = LeagueEntry.objects.get(user=people[1], season__number=1)
    link = reverse("league_optin", args=[optin_token(user_id=people[1].pk, entry_id=entry.pk)])
    assert link in message.body
    following = season_of(league, 2)
    client.force_login(people[1])
    assert client.get(reverse("notices")).status_code == 200  # no game: not a notice there
    preview = reverse("mail_preview", args=[Notification.Kind.LEAGUE_SEASON])
    client.force_login(UserFactory(is_staff=True))
    assert "Play next season" in client.get(preview).content.decode()
    assert client.get(link).status_code == 200
    assert not following.entries.filter(user=people[1]).exists()
    assert client.post(link).status_code == 302
    assert following.entries.filter(user=people[1]).exists()
    assert client.post(link).status_code == 302  # twice: still in, once
    for user in people:
        mine = LeagueEntry.objects.get(user=user, season__number=1)
        leagues.league_optin(token=optin_token(user_id=user.pk, entry_id=mine.pk))
    following.starts_at = timezone.now()
    following.save()
    leagues.season_start(season_id=following.pk)
    assert client.post(link).status_code == 409  # too late


@pytest.mark.parametrize(
    "name, args",
    [("league", [999]), ("league_division", [999, 1, 1]), ("league_optin", ["1.1.x"])],
)
def test_junk_ids_are_404(client, name, args):
    assert client.get(reverse(name, args=args)).status_code == 404


def test_a_season_in_registration_has_no_division_page(client):
    league = leagues.league_create(user=UserFactory(), name="L", preset="classic")
    assert client.get(reverse("league_division", args=[league.pk, 1, 1])).status_code == 404
    assert LeagueSeason.objects.get().status == "registration"


def test_a_league_games_table_names_its_league_season_and_division(client):
    people = [UserFactory() for _ in range(4)]
    league = make_league(people)
    leagues.season_start(season_id=season_of(league).pk)
    game = Game.objects.get(seats__user=people[0])
    client.force_login(people[0])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Tuesday · Season 1 · Division 1" in page
    assert reverse("league_division", args=[league.pk, 1, 1]) in page


def test_starting_leagues_past_the_limit_is_a_429(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "league": (2, 86400)}
    client.force_login(UserFactory())
    for name in ("One", "Two"):
        assert client.post(reverse("leagues"), {**NEW, "name": name}).status_code == 302
    assert client.post(reverse("leagues"), {**NEW, "name": "Three"}).status_code == 429
    assert League.objects.count() == 2


def test_before_the_start_the_page_lists_who_joined_and_its_host_may_start_it_now(client):
    """A season could only be started early through the shell; and before its start the page
    showed a count, not who joined."""
    host, anna, ben = (
        UserFactory(display_name="Hosta"),
        UserFactory(display_name="Anna"),
        UserFactory(),
    )
    league = make_league([host, anna, ben], bots_fill=True)
    LeagueSeason.objects.filter(league=league).update(starts_at=timezone.now() + timedelta(days=5))
    start = reverse("league_start", args=[league.pk])
    client.force_login(anna)
    page = client.get(reverse("league", args=[league.pk])).content.decode()
    assert "Hosta" in page and "Anna" in page and reverse("player", args=[ben.username]) in page
    assert start not in page  # not the host
    assert client.post(start).status_code == 403
    assert season_of(league).status == "registration"
    client.force_login(host)
    assert start in client.get(reverse("league", args=[league.pk])).content.decode()
    assert client.post(start).status_code == 302
    season = season_of(league)
    assert (
        season.status == "playing"
        and Game.objects.filter(league_fixture__division__season=season).exists()
    )
    assert client.post(start).status_code == 409  # started already


def test_a_season_without_enough_players_is_not_started_now_and_waits(client):
    host = UserFactory()
    league = make_league([host, UserFactory()], bots_fill=False)
    later = timezone.now() + timedelta(days=5)
    LeagueSeason.objects.filter(league=league).update(starts_at=later)
    client.force_login(host)
    response = client.post(reverse("league_start", args=[league.pk]))
    assert response.status_code == 409 and "At least 4 players" in response.content.decode()
    season = season_of(league)
    assert season.status == "registration" and season.starts_at == later


def test_the_sweep_command_starts_seasons_and_makes_their_games(capsys):
    from django.core.management import call_command

    league = make_league([UserFactory(), UserFactory()], bots_fill=True)
    LeagueSeason.objects.filter(league=league).update(starts_at=timezone.now() + timedelta(days=5))
    call_command("leagues_sweep")
    assert season_of(league).status == "registration"
    call_command("leagues_sweep", "--start")
    assert season_of(league).status == "playing"
    assert "Seasons started: 1" in capsys.readouterr().out
