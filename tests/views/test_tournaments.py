"""Tournaments' pages: the list and opening one without JavaScript, a tournament's page
(players, then the standing with its tie-breaks written out, each round's tables), joining,
leaving, the host's "start now", junk and the wrong player, the winner on the profile."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.competitions import tournaments
from games.models import Rating, Tournament, TournamentTable
from tests.competitions.helpers import finish_round, with_players
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def form(**change) -> dict:
    starts = timezone.localtime() + timedelta(days=2)
    return {
        "name": "Autumn open",
        "preset": "classic",
        "seats_per_table": "2",
        "rounds": "2",
        "time_per_move_days": "3",
        "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
        "bot_level": "",
    } | change


def test_the_list_shows_the_form_to_a_player_and_sends_a_visitor_to_log_in(client):
    assert "login" in client.get(reverse("tournaments"))["Location"]
    client.force_login(UserFactory())
    html = client.get(reverse("tournaments")).content.decode()
    assert "Open for entries" in html
    assert "Open a tournament" in html and 'type="datetime-local"' in html


def test_a_host_opens_one_and_is_its_first_player(client):
    host = UserFactory()
    client.force_login(host)
    response = client.post(reverse("tournaments"), form())
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament", args=[tournament.pk])
    assert list(tournament.entries.values_list("user", flat=True)) == [host.pk]
    html = client.get(response["Location"]).content.decode()
    assert "Autumn open" in html and "Start now" in html and "Leave" in html
    assert "Autumn open" in client.get(reverse("tournaments")).content.decode()


@pytest.mark.parametrize(
    "change", [{"seats_per_table": "7"}, {"rounds": "0"}, {"starts_at": "yesterday"}, {"name": ""}]
)
def test_a_bad_form_is_a_400(client, change):
    client.force_login(UserFactory())
    assert client.post(reverse("tournaments"), form(**change)).status_code == 400
    assert not Tournament.objects.exists()


def test_a_start_in_the_past_is_refused_with_its_reason(client):
    client.force_login(UserFactory())
    past = (timezone.localtime() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("tournaments"), form(starts_at=past))
    assert response.status_code == 400 and "next 90 days" in response.content.decode()


def test_a_visitor_posting_the_form_is_sent_to_log_in(client):
    response = client.post(reverse("tournaments"), form())
    assert response.status_code == 302 and "login" in response["Location"]


def test_join_leave_and_start_through_the_pages(client):
    tournament = with_players(1, seats_per_table=2, rounds=1)
    player = UserFactory()
    client.force_login(player)
    assert client.post(reverse("tournament_join", args=[tournament.pk])).status_code == 302
    again = client.post(reverse("tournament_join", args=[tournament.pk]))
    assert again.status_code == 409 and "already in" in again.content.decode()
    assert client.post(reverse("tournament_start", args=[tournament.pk])).status_code == 403
    client.force_login(tournament.created_by)
    assert client.post(reverse("tournament_start", args=[tournament.pk])).status_code == 302
    client.force_login(player)
    late = client.post(reverse("tournament_leave", args=[tournament.pk]))
    assert late.status_code == 409 and "already started" in late.content.decode()
    table = TournamentTable.objects.get(round__tournament=tournament)
    html = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert reverse("game", args=[table.game_id]) in html and "Round 1" in html


def test_the_standing_writes_out_its_tie_breaks_and_the_winner(client):
    tournament = with_players(4, seats_per_table=2, rounds=2)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    finish_round(tournament)
    finish_round(tournament)
    client.force_login(UserFactory())
    html = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert "Buchholz" in html and "the lower sum of your final totals" in html
    assert f"Won by {tournament.winner.name}" in html
    profile = client.get(reverse("player", args=[tournament.winner.username])).content.decode()
    assert "Spring cup" in profile and "1 win" in profile and "1st of 4" in profile


def test_a_bye_shows_on_its_round(client):
    tournament = with_players(3, seats_per_table=2, rounds=1)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    client.force_login(tournament.created_by)
    bye = TournamentTable.objects.get(round__tournament=tournament, bye__isnull=False).bye
    html = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert f"{bye.name}: a bye" in html


@pytest.mark.parametrize("name", ["tournament_join", "tournament_leave", "tournament_start"])
def test_a_missing_tournament_is_a_404_and_get_is_refused(client, name):
    client.force_login(UserFactory())
    assert client.post(reverse(name, args=[999_999])).status_code == 404
    assert client.get(reverse(name, args=[999_999])).status_code == 405
    assert client.get(reverse("tournament", args=[999_999])).status_code == 404


def test_a_tables_page_links_back_to_its_tournament_and_round(client):
    tournament = with_players(2, seats_per_table=2, rounds=1)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    table = TournamentTable.objects.get(round__tournament=tournament)
    client.force_login(tournament.created_by)
    html = client.get(reverse("game", args=[table.game_id])).content.decode()
    assert f'href="{reverse("tournament", args=[tournament.pk])}"' in html
    assert "Spring cup · Round 1" in html


def test_the_notice_centre_lists_a_tournaments_end_with_a_link_to_it(client):
    tournament = with_players(2, seats_per_table=2, rounds=1)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    finish_round(tournament)
    client.force_login(tournament.created_by)
    html = client.get(reverse("notices")).content.decode()
    assert "Spring cup is over: see the final standing." in html
    assert f'href="{reverse("tournament", args=[tournament.pk])}"' in html


def test_before_the_start_each_player_shows_todays_rating_a_newcomers_marked_provisional(client):
    """The players' list had a Rating column left empty until the start (the seeding)."""
    host = UserFactory()
    client.force_login(host)
    tournament = Tournament.objects.get(
        pk=client.post(reverse("tournaments"), form())["Location"].split("/")[-2]
    )
    rated = UserFactory()
    Rating.objects.create(user=rated, mu=28, sigma=1, ordinal=5, games=12)  # shown 1200
    tournaments.tournament_join(tournament_id=tournament.pk, user=rated)
    html = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert '<span class="rating provisional"' in html and "1000?" in html  # the host, new here
    assert ">1200</span>" in html
