"""Learning the game (games/views/learn.py): the How to play page's pictures say what the engine
says, and a practice game is one click from the dashboard."""

import pytest
from django.urls import reverse

from games.engine import Rules, arrange, parse_cards
from games.models import Game
from games.views.learn import MELD_EXAMPLES, NOT_MELDS, SCORED_HAND
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("caption,text,wild_rank", MELD_EXAMPLES)
def test_each_meld_pictured_is_one_whole_meld(caption, text, wild_rank):
    cards = parse_cards(text)
    result = arrange(cards, wild_rank=wild_rank, rules=Rules())
    assert result.penalty == 0 and len(result.melds) == 1, caption


@pytest.mark.parametrize("caption,text,wild_rank", NOT_MELDS)
def test_each_non_meld_pictured_melds_nothing(caption, text, wild_rank):
    assert arrange(parse_cards(text), wild_rank=wild_rank, rules=Rules()).melds == [], caption


def test_the_page_pictures_cards_and_counts_the_scored_hand_as_the_engine_does(client):
    response = client.get(reverse("how_to_play"))
    html = response.content.decode()
    assert response.status_code == 200
    text, wild_rank = SCORED_HAND
    penalty = arrange(parse_cards(text), wild_rank=wild_rank, rules=Rules()).penalty
    assert f"{penalty} points" in html
    assert 'aria-label="7 of spades"' in html and "9 of clubs, wild" in html
    assert "Redemption" in html  # the variants, explained as on the new-game form
    assert "Sign up to play a practice game" in html  # a visitor is offered to sign up


def test_a_practice_game_starts_at_once_against_the_easy_bot(client):
    player = UserFactory()
    client.force_login(player)
    assert "Practice against a bot" in client.get(reverse("home")).content.decode()
    response = client.post(reverse("practice_start"))
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert game.status == Game.Status.ACTIVE and not game.is_public and game.deadline is None
    seats = list(game.seats.order_by("index").select_related("user"))
    assert seats[0].user == player and seats[1].user.is_bot and seats[1].user.bot_kind == "easy"
    assert client.get(reverse("practice_start")).status_code == 405


def test_the_table_tour_shows_until_dismissed_for_good(client, duel):
    game, by_seat = duel
    player = by_seat[0]
    client.force_login(player)
    url = reverse("game", args=[game.pk])
    assert "First time at the table?" in client.get(url).content.decode()
    assert client.get(reverse("table_tour_done")).status_code == 405
    response = client.post(reverse("table_tour_done"), {"next": url}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response.content == b""
    player.refresh_from_db()
    assert player.table_tour_done
    assert "First time at the table?" not in client.get(url).content.decode()
    other = by_seat[1]
    client.force_login(other)
    response = client.post(reverse("table_tour_done"), {"next": "https://elsewhere.example/"})
    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_a_four_colour_deck_is_a_setting_that_colours_each_suit(client, duel):
    game, by_seat = duel
    player = by_seat[0]
    client.force_login(player)
    url = reverse("game", args=[game.pk])
    html = client.get(url).content.decode()
    assert 'class="four-colour"' not in html and 'class="pc s' in html
    data = {"section": "profile", "display_name": "", "time_zone": "UTC", "language": "en",
            "four_colour_deck": "on"}  # fmt: skip
    assert client.post(reverse("notification_preferences"), data).status_code == 302
    assert '<body class="four-colour"' in client.get(url).content.decode()
