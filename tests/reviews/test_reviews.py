"""Games' reviews: made after each round by the task's service (games/reviews.py), stored once,
a slice of CPU at a time, giving way to pressing work; and shown on their page only to those who
may see them (games/selectors/reviews.py)."""

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import reviews
from games.models import Game, Move, RoundReview
from tests.factories import UserFactory, finish_game, play_on, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def moves_unlimited(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": (10**6, 60)}


@pytest.fixture
def duel(moves_unlimited):
    """A person and the easy bot, two rounds played."""
    people = [UserFactory()]
    game = started_game(people, bots="easy", seat_count=2)
    play_on(game, until=lambda game: game.round_index >= 2, level="medium")
    return game, people[0]


def test_each_ended_round_of_each_person_is_reviewed_once(duel, settings):
    game, person = duel
    settings.REVIEW_SLICE_SECONDS = 60
    assert reviews.game_review(game_id=game.pk) == 2  # the person's two rounds; no bot's
    stored = RoundReview.objects.filter(seat__game=game)
    assert {(r.seat.user_id, r.round_index) for r in stored} == {(person.pk, 0), (person.pk, 1)}
    assert all(r.judged and r.accurate <= r.judged and r.lost >= 0 for r in stored)
    assert reviews.game_review(game_id=game.pk) == 0  # a second run stores nothing
    assert stored.count() == 2


def test_a_run_spends_its_slice_and_leaves_the_rest_for_later(duel, settings, monkeypatch):
    game, _person = duel
    settings.REVIEW_SLICE_SECONDS = 0  # a round per run
    later = []
    monkeypatch.setattr(reviews, "_later", lambda game_id, countdown=None: later.append(game_id))
    assert reviews.game_review(game_id=game.pk) == 1
    assert later == [game.pk]  # the rest queued again
    assert reviews.game_review(game_id=game.pk) == 1
    assert later == [game.pk]  # nothing left: not queued again
    assert reviews.game_review(game_id=game.pk) == 0


def test_a_review_gives_way_to_a_bot_turn_or_a_mail_waiting(duel, monkeypatch):
    game, _person = duel
    later = []
    depths = {"celery": 0, "bots": 3, "reviews": 1}
    monkeypatch.setattr(reviews, "queue_depths", lambda: depths)
    monkeypatch.setattr(reviews, "_later", lambda game_id, countdown=None: later.append(game_id))
    assert reviews.review_when_free(game_id=game.pk) == 0
    assert later == [game.pk] and not RoundReview.objects.exists()
    depths["bots"] = 0
    assert reviews.review_when_free(game_id=game.pk) > 0


def test_the_page_shows_a_player_their_review_and_no_one_else_while_the_game_is_on(duel):
    game, person = duel
    reviews.game_review(game_id=game.pk)
    url = reverse("game_review", args=[game.pk])
    mine = Client()
    mine.force_login(person)
    page = mine.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Accuracy" in text and "Round by round" in text and 'data-round="3"' not in text
    assert mine.get(url, {"seat": 1}).status_code == 403  # the bot's seat: bots are not reviewed
    assert mine.get(url, {"seat": 7}).status_code == 403
    assert mine.get(url, {"seat": "x'"}).status_code == 200  # junk: one's own
    other = Client()
    other.force_login(UserFactory())
    assert other.get(url).status_code == 403  # a listed game, still on
    assert other.get(url, {"seat": 0}).status_code == 403


def test_once_a_listed_game_is_over_anyone_who_may_watch_it_sees_its_reviews(
    moves_unlimited, settings
):
    settings.REVIEW_SLICE_SECONDS = 60
    people = [UserFactory(), UserFactory()]
    game = started_game(people, rules=None)
    play_on(game, level="medium")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    reviews.game_review(game_id=game.pk)
    assert RoundReview.objects.filter(seat__game=game).count() == 22
    url = reverse("game_review", args=[game.pk])
    other = Client()
    other.force_login(UserFactory())
    page = other.get(url, {"seat": 1})
    assert page.status_code == 200
    assert people[1].name in page.content.decode()
    # The player's page links the review from its recent games, for whoever may see it.
    profile = reverse("player", args=[people[1].username])
    link = f'href="{url}?seat=1"'
    assert link in other.get(profile).content.decode()
    Game.objects.filter(pk=game.pk).update(is_public=False)
    player = Client()
    player.force_login(people[0])
    assert player.get(url).status_code == 200
    assert player.get(url, {"seat": 1}).status_code == 403  # not listed: one's own only
    assert other.get(url, {"seat": 1}).status_code == 404  # nor may a stranger watch it
    assert link not in player.get(profile).content.decode()
    owner = Client()
    owner.force_login(people[1])
    assert link in owner.get(profile).content.decode()


def test_a_page_missing_rounds_says_so_and_asks_for_them_once(duel, monkeypatch):
    game, person = duel
    asked = []
    monkeypatch.setattr("games.views.play.review_requested", asked.append)
    client = Client()
    client.force_login(person)
    url = reverse("game_review", args=[game.pk])
    page = client.get(url)
    assert "2 more rounds is being made" in page.content.decode()
    client.get(url)
    assert asked == [game.pk]  # once a minute at most


def test_the_command_queues_the_finished_games_that_have_no_review(duel, monkeypatch):
    """Games finished before reviews were made: `manage.py review_games` queues them, the
    latest finished first, and none that has a review or is still on."""
    game, _person = duel  # on, two rounds played
    asked = []
    monkeypatch.setattr("games.reviews.review_requested", asked.append)
    out = io.StringIO()
    call_command("review_games", stdout=out)
    assert asked == [] and "Queued the review of 0 finished games." in out.getvalue()
    finish_game(game)  # ended where it stood: two rounds to review
    later = started_game([UserFactory()], bots="easy", seat_count=2)
    finish_game(later)
    call_command("review_games", stdout=out)
    assert asked == [later.pk, game.pk]
    assert "Queued the review of 2 finished games." in out.getvalue()
    reviews.game_review(game_id=game.pk)
    asked.clear()
    call_command("review_games", "--limit", "5", stdout=io.StringIO())
    assert asked == [later.pk]


@pytest.fixture
def finished(moves_unlimited, settings):
    """A whole game between a person (playing as the medium level would) and a bot, its
    review made."""
    settings.REVIEW_SLICE_SECONDS = 60
    person = UserFactory()
    game = started_game([person], bots="medium", seat_count=2)
    play_on(game, level="medium")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    reviews.game_review(game_id=game.pk)
    client = Client()
    client.force_login(person)
    return game, person, client


def test_the_move_a_review_names_is_the_move_the_replay_shows(finished):
    """ "Round 3 (5s wild), move 57 · in the replay" opens the replay at "Move 57 of N", whose
    last move is the one reviewed: the person's."""
    game, person, client = finished
    page = client.get(reverse("game_review", args=[game.pk])).content.decode()
    replay = reverse("game_replay", args=[game.pk])
    links = re.findall(rf'move (\d+)</strong> · <a href="{replay}\?step=(\d+)"', page)
    assert len(links) >= 3
    seat = game.seats.get(user=person).index
    for move, step in links[:3]:
        assert step == move
        shown = client.get(replay, {"step": step}).content.decode()
        assert f"Move {move} of {game.version}" in shown
        assert Move.objects.get(game=game, seq=int(move) - 1).seat == seat


def test_the_page_s_points_given_up_are_at_most_the_penalty_and_say_why(finished):
    """The game's points given up are never more than the penalty the person scored in the
    rounds reviewed; each costly decision says why the hard bot's choice was the stronger."""
    game, person, client = finished
    text = client.get(reverse("game_review", args=[game.pk])).content.decode()
    seat = game.seats.get(user=person).index
    scored = sum(r["seats"][seat]["penalty"] for r in game.state["round_results"])
    found = re.search(r"Given up by choices: about (\d+) of the (\d+) penalty points", text)
    assert found, "the game's figures"
    given_up, penalty = int(found[1]), int(found[2])
    assert penalty == scored and given_up <= penalty
    stored = RoundReview.objects.filter(seat__game=game, seat__index=seat)
    assert all(r.lost <= game.state["round_results"][r.round_index]["seats"][seat]["penalty"]
               for r in stored)  # fmt: skip
    assert "expected to cost about" in text
    reasons = ("towards a run", "towards a set", "goes with none", "Going out ends the round")
    assert any(reason in text for reason in reasons)


def test_a_review_stored_the_old_way_is_made_again(duel, settings, monkeypatch):
    """A round reviewed by the code before the player's own points (its decisions have no
    "bound"), as an old worker may store one while a new version rolls out: the page counts it
    as waiting and asks for it, and the next run makes it again, within the round's penalty."""
    game, person = duel
    settings.REVIEW_SLICE_SECONDS = 60
    reviews.game_review(game_id=game.pk)
    old = RoundReview.objects.get(seat__game=game, round_index=0)
    old.decisions = [
        {k: v for k, v in d.items() if k not in ("bound", "out")} for d in old.decisions
    ]
    old.lost = 47.0
    old.save()
    asked = []
    monkeypatch.setattr("games.views.play.review_requested", asked.append)
    client = Client()
    client.force_login(person)
    page = client.get(reverse("game_review", args=[game.pk])).content.decode()
    assert "1 more round is being made" in page and asked == [game.pk]
    assert reviews.game_review(game_id=game.pk) == 1
    again = RoundReview.objects.get(seat__game=game, round_index=0)
    penalty = game.state["round_results"][0]["seats"][again.seat.index]["penalty"]
    assert all("bound" in d for d in again.decisions) and again.lost <= penalty
