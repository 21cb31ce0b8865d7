"""The table page around the moves: how a game's end shows, the resign step, the hint, errors on
moves with and without HTMX, and logged-out readers following a link."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import dateformat, timezone

from accounts.models import Vacation
from games import services
from games.deadlines import timeouts
from games.engine import Card, Discard, Draw, GameState, Rules
from games.models import Game
from games.presentation import card_info
from tests.factories import UserFactory, play_on, play_one, started_game
from tests.views.helpers import TABLE_ASKS, marks

pytestmark = pytest.mark.django_db


def page(client, name, game, **params):
    return client.get(reverse(name, args=[game.pk]), params)


def post(client, name, game, data=None, htmx=False):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse(name, args=[game.pk]), data or {}, **headers)


# -- the end of a game: the game row is the one source of truth ------------------------------


def test_a_game_ended_by_resignation_shows_as_over_to_the_other_player(client, duel):
    game, by_seat = duel
    alice, bob = by_seat[game.to_move_seat], by_seat[1 - game.to_move_seat]
    services.game_resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == Game.EndReason.RESIGNED
    client.force_login(alice)
    for response in (page(client, "game", game), page(client, "game_table", game, v=0)):
        html = response.content.decode()
        assert response.status_code == 200
        assert "Game over" in html and "ended early by a resignation" in html
        turn_words = html.replace("How to play", "")  # the bar's link is not a turn
        assert "Your turn" not in turn_words and "to play" not in turn_words
        html = html.split('id="chat"')[0]  # the chat's own forms (report, mute) stay
        posts = re.findall(r'<form method="post" action="(/games/[^"]*)"', html)
        assert 'name="source"' not in html  # no move: only the rematch is offered
        assert posts == [reverse("game_rematch", args=[game.pk])]
        assert "Final ranking" in html and "hx-get" not in html  # the poll stops
        assert f'action="{reverse("move_discard", args=[game.pk])}"' not in html
    # The stock and discard are gone, so nothing invites a click that would answer 409.
    assert response.context["hand"] is None and not response.context["my_turn"]


@pytest.mark.slow  # a whole game
def test_a_game_played_to_the_end_says_so_without_an_early_end(client, duel):
    game, by_seat = duel
    play_on(game)
    assert game.end_reason == Game.EndReason.COMPLETED
    client.force_login(by_seat[0])
    html = page(client, "game", game).content.decode()
    assert "Game over" in html and "ended early" not in html and "Final ranking" in html


def test_a_drop_that_ends_the_game_records_why(duel):
    game, _by_seat = duel
    seat = game.seats.get(index=game.to_move_seat)
    timeouts.seat_drop(game=game, seat=seat, now=game.started_at)
    game.save()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == Game.EndReason.DROPPED
    assert game.to_move_seat is None and game.deadline is None


# -- resigning asks first --------------------------------------------------------------------


def test_resign_is_a_link_to_a_question_and_only_the_post_resigns(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[0])
    table = page(client, "game", game).content.decode()
    resign = reverse("game_resign", args=[game.pk])
    assert f'href="{resign}"' in table and f'action="{resign}"' not in table
    question = client.get(resign)
    html = question.content.decode()
    assert question.status_code == 200 and "Yes, resign" in html and "keep playing" in html
    assert "ends the game now" in html  # two people: resigning ends it
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and not game.seats.filter(resigned=True).exists()
    assert post(client, "game_resign", game).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.seats.get(index=0).resigned
    # Asking again after the end just goes back to the table.
    assert client.get(resign).status_code == 302


# -- the hint --------------------------------------------------------------------------------


def _hinted(client, duel, hand: str, taken: str):
    """The table of the player to move holding `hand`, after taking `taken` from the discard
    pile; and the state it shows."""
    game, by_seat = duel
    state = GameState.from_dict(game.state)
    seat = state.to_move
    state.hands[seat] = [Card.from_token(t) for t in hand.split()]
    state.discard_pile = [Card.from_token("5D"), Card.from_token(taken)]
    state.apply(Draw(seat, "discard"))
    game.state, game.version = state.to_dict(), state.action_count
    game.save()
    client.force_login(by_seat[seat])
    return page(client, "game", game), state


def _hint_for(client, duel, hand: str, taken: str) -> dict:
    """The hint of the player to move holding `hand`, after taking `taken` from the discards."""
    return _hinted(client, duel, hand, taken)[0].context["hint"]


def test_the_hint_never_suggests_throwing_back_the_card_just_taken(client, duel):
    """5H 6H 7H + the KS taken from the discard pile: throwing the KS back would leave a run
    (penalty 0), but the rules forbid it; the hint picks among the legal discards."""
    response, state = _hinted(client, duel, "5H 6H 7H", "KS")
    assert not state.is_legal(Discard(state.to_move, Card.from_token("KS")))
    hint = response.context["hint"]
    legal = {a.card.token for a in state.legal_actions() if isinstance(a, Discard)}
    assert hint["discard"] is not None and hint["discard"].token in legal


def test_the_hint_says_why_in_a_sentence(client, duel):
    """7H 8H KS, and the 2C taken: the hint throws the KS, which goes with none of the others,
    and says it keeps the 7 and 8 of hearts towards a run. Only the player's own cards."""
    response, _ = _hinted(client, duel, "7H 8H KS", "2C")
    hint = response.context["hint"]
    assert hint["discard"].token == "KS"
    assert hint["why"] == [
        "The king of spades goes with none of your other cards.",
        "It keeps the 7 of hearts and 8 of hearts towards a run.",
    ]
    assert "It keeps the 7 of hearts and 8 of hearts towards a run." in response.content.decode()


def test_the_hints_reasons_name_a_set_and_never_a_wild_card(client, duel):
    """3s are wild in the first round. 9C 9D KH + 2C: the two 9s are kept towards a set. 3S 9C
    KH + 2C: the wild 3S goes with anything, so no reason names it."""
    hint = _hint_for(client, duel, "9C 9D KH", "2C")
    assert hint["discard"].token == "KH"
    assert hint["why"] == [
        "The king of hearts goes with none of your other cards.",
        "It keeps the 9 of clubs and 9 of diamonds towards a set.",
    ]
    game, _ = duel
    game.refresh_from_db()
    game.state = GameState.new(Rules(), 2, "again").to_dict()
    game.save()
    hint = _hint_for(client, duel, "3S 9C KH", "2C")
    assert hint["discard"].token == "KH"
    assert hint["why"] == ["The king of hearts goes with none of your other cards."]


def test_no_discard_hint_while_another_player_is_to_discard(client, duel):
    game, by_seat = duel
    play_one(game, by_seat)  # the player to move drew; now they discard
    client.force_login(by_seat[1 - game.to_move_seat])
    hint = page(client, "game", game).context["hint"]
    assert hint["discard"] is None


# -- this round's discards ------------------------------------------------------------------


def test_this_rounds_discards_list_who_took_and_threw_what_in_order_and_no_stock_card(client, duel):
    game, by_seat = duel
    first, second = game.to_move_seat, 1 - game.to_move_seat
    turned = GameState.from_dict(game.state).discard_pile[-1]

    def take(actions):
        return next(a for a in actions if isinstance(a, Draw) and a.source == "discard")

    play_one(game, by_seat, take)
    thrown = play_one(game, by_seat)["card"]
    play_one(game, by_seat, lambda actions: next(a for a in actions if a.source == "stock"))
    drawn = GameState.from_dict(game.state).hands[second][-1]
    other = play_one(game, by_seat, lambda actions: next(a for a in actions if a.card != drawn))
    client.force_login(by_seat[first])
    html = page(client, "game", game).content.decode()
    log = html.split("This round's discards")[1].split("</details>")[0]
    lines = re.findall(r"<li>(.*?)</li>", log, re.S)

    def name(token):
        return card_info(Card.from_token(token)).name

    assert len(lines) == 4
    assert name(turned.token) in lines[0] and "turned up" in lines[0]
    assert lines[1].startswith(by_seat[first].name) and name(turned.token) in lines[1]
    assert lines[2].startswith(by_seat[first].name) and name(thrown) in lines[2]
    assert lines[3].startswith(by_seat[second].name) and name(other["card"]) in lines[3]
    assert name(drawn.token) not in log  # a draw from the stock shows no card


# -- every player's clock --------------------------------------------------------------------


def seat_boxes(html: str) -> list[str]:
    """Each seat's box on the table, in seat order."""
    players = html.split('aria-label="Players"')[1].split("</section>")[0]
    return players.split('<div class="player')[1:]


def test_each_seat_shows_its_clock_and_vacation_in_the_viewers_time_zone(client):
    users = [UserFactory(time_zone="Asia/Jakarta"), UserFactory(), UserFactory()]
    game = started_game(users, time_per_move_days=3)
    deadline = (timezone.now() + timedelta(days=2)).replace(minute=0, second=0, microsecond=0)
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    away = next(s for s in game.seats.all() if s.index != game.to_move_seat)
    back = (timezone.now() + timedelta(days=9)).replace(hour=0, minute=0, second=0, microsecond=0)
    Vacation.objects.create(user=away.user, starts_at=timezone.now() - timedelta(hours=1),
                            ends_at=back)  # fmt: skip
    client.force_login(users[0])
    boxes = seat_boxes(page(client, "game", game).content.decode())
    jakarta = ZoneInfo("Asia/Jakarta")

    def local(moment):
        return dateformat.format(moment.astimezone(jakarta), "D j M, H:i")

    to_move = boxes[game.to_move_seat]
    assert "left" in to_move and local(deadline) in to_move and "per move" not in to_move
    assert f"on vacation until {local(back)}" in boxes[away.index]
    for index, box in enumerate(boxes):
        if index not in (game.to_move_seat, away.index):
            assert "3 days per move" in box and " left" not in box


def test_a_game_without_a_clock_shows_no_clock_in_the_seats(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[0])
    boxes = seat_boxes(page(client, "game", game).content.decode())
    assert all("pclock" not in box for box in boxes)


def test_each_seat_shows_its_rating_and_a_newcomers_as_provisional(client, duel, settings):
    from games.models import Rating

    settings.LEADERBOARD_MIN_GAMES = 5
    game, by_seat = duel
    Rating.objects.create(user=by_seat[0], mu=30.0, sigma=4.0, ordinal=18.0, games=5)
    Rating.objects.create(user=by_seat[1], mu=25.0, sigma=8.0, ordinal=1.0, games=4)
    client.force_login(by_seat[0])
    boxes = [" ".join(re.sub(r"<[^>]+>", " ", box).split()) for box in seat_boxes(
        page(client, "game", game).content.decode())]  # fmt: skip
    assert "1720 ·" in boxes[0] and "provisional" not in boxes[0]
    assert "1040? provisional ·" in boxes[1]


# -- the next game waiting on you ------------------------------------------------------------


def my_turn_at(me) -> Game:
    """A started duel whose turn is `me`'s."""
    while True:
        game = started_game([me, UserFactory()])
        if game.seats.get(index=game.to_move_seat).user == me:
            return game
        Game.objects.filter(pk=game.pk).delete()


def test_after_a_move_the_table_offers_the_next_game_waiting_on_you(client):
    me = UserFactory()
    here, waiting = my_turn_at(me), my_turn_at(me)
    client.force_login(me)
    html = post(client, "move_draw", here, {"source": "stock", "version": 0}, htmx=True)
    html = html.content.decode()
    link = f'href="{reverse("game", args=[waiting.pk])}"'
    assert "Next game (1 waiting on you)" in html and link in html
    assert 'aria-keyshortcuts="n"' in html
    html = page(client, "game", waiting).content.decode()
    assert f'href="{reverse("game", args=[here.pk])}"' in html  # a discard to make there
    services.game_resign(game_id=here.pk, user=me)
    html = page(client, "game", waiting).content.decode()  # this one waits too, but is here
    assert "No other game is waiting on you" in html and "Next game (" not in html


def test_games_next_goes_to_the_most_urgent_game_or_says_none_waits(client):
    me = UserFactory()
    client.force_login(me)
    response = client.get(reverse("game_next"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "No game is waiting on you" in response.content.decode()
    game = my_turn_at(me)
    assert client.get(reverse("game_next")).url == reverse("game", args=[game.pk])
    client.logout()
    assert client.get(reverse("game_next")).url.startswith(reverse("account_login"))


# -- errors on moves: once, in the table's message area --------------------------------------


def test_an_unrated_game_says_so_at_the_table_and_a_rated_one_does_not(client, duel):
    player = UserFactory()
    practice = services.game_practice_create(user=player)
    client.force_login(player)
    assert "unrated" in page(client, "game", practice).content.decode()
    game, users = duel
    client.force_login(users[0])
    assert "unrated" not in page(client, "game", game).content.decode()


def test_an_htmx_move_refused_answers_the_table_with_the_message_once(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[game.to_move_seat])
    response = post(client, "move_discard", game, {"card": "7H", "version": 0}, htmx=True)
    html = response.content.decode()
    assert response.status_code == 400
    assert html.lstrip().startswith('<div id="table"') and "<html" not in html
    assert html.count("Draw a card first") == 1 and 'class="message error"' in html


def test_a_move_refused_without_javascript_shows_the_message_once(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[game.to_move_seat])
    response = post(client, "move_discard", game, {"card": "7H", "version": 0})
    html = response.content.decode()
    assert response.status_code == 400 and "<html" in html
    assert html.count("Draw a card first") == 1
    # ... and not again on the next page either (no stored message left behind).
    assert "Draw a card first" not in page(client, "game", game).content.decode()


def test_a_refusal_on_a_game_the_player_may_not_see_is_a_styled_message(client):
    game = services.game_create(creator=UserFactory(), rules=Rules(), seat_count=2, is_public=False)
    client.force_login(UserFactory())
    for htmx in (False, True):
        response = post(client, "move_draw", game, {"source": "stock", "version": 0}, htmx=htmx)
        html = response.content.decode()
        # Its page is a 404; the refusal says no more (not "you have no seat": no such game).
        assert response.status_code == 404 and 'class="message error"' in html
        assert "no such game" in html
        assert ("<html" in html) is not htmx
        assert game.invite_code not in html


def test_htmx_swaps_4xx_answers_into_the_page(client):
    """The page's htmx configuration swaps every 4xx (they carry the table with its message)
    and loads htmx without django-htmx's DEBUG helper, which would replace the whole page."""
    client.force_login(UserFactory())
    html = client.get(reverse("home")).content.decode()
    assert '{"code": "4..", "swap": true, "error": false}' in html
    assert "django-htmx.js" not in html and "htmx-2.min.js" in html


# -- links followed while logged out ----------------------------------------------------------


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize("name", ["game", "game_history", "game_replay"])
def test_a_logged_out_reader_logs_in_and_lands_on_the_game(client, public, name):
    users = [UserFactory(), UserFactory()]
    game = started_game(users, is_public=public)
    url = reverse(name, args=[game.pk])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={url.replace('/', '%2F')}"
    login = client.post(
        response["Location"],
        {"login": users[1].username, "password": "correct horse battery", "next": url},
    )
    assert login.status_code == 302 and login["Location"] == url


def test_an_htmx_poll_after_the_session_ended_navigates_to_the_login(client, duel):
    game, _by_seat = duel
    response = client.get(reverse("game_table", args=[game.pk]), {"v": 0}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and reverse("account_login") in response["HX-Redirect"]


def test_the_log_in_link_comes_back_to_the_page(client):
    game = services.game_create(creator=UserFactory(), rules=Rules(), seat_count=2)
    html = page(client, "game", game).content.decode()
    login = f'href="{reverse("account_login")}?next={reverse("game", args=[game.pk])}"'
    assert f"<a {login}>Log in</a>" in html  # the bar's own link, not only the page's button


# -- what a whole game in the browser turned up ------------------------------------------------


def test_the_final_ranking_says_1_point_not_1_points(client, duel):
    game, by_seat = duel
    services.game_resign(game_id=game.pk, user=by_seat[game.to_move_seat])
    game.refresh_from_db()
    game.seats.filter(final_rank=1).update(final_total=1)
    client.force_login(by_seat[0])
    html = page(client, "game", game).content.decode()
    assert "1 point" in html and "1 points" not in html


def test_an_empty_discard_pile_keeps_its_place(client, duel):
    game, by_seat = duel
    state = GameState.from_dict(game.state)
    state.discard_pile = state.discard_pile[-1:]
    state.apply(Draw(state.to_move, "discard"))
    game.state, game.version = state.to_dict(), state.action_count
    game.save()
    client.force_login(by_seat[state.to_move])
    html = page(client, "game", game).content.decode()
    assert 'class="empty-pile"' in html and "The discard pile is empty" in html


def test_a_finished_table_says_where_it_ended_and_hides_card_counts(client, duel):
    game, by_seat = duel
    services.game_resign(game_id=game.pk, user=by_seat[0])
    client.force_login(by_seat[1])
    html = page(client, "game", game).content.decode()
    assert "Ended in round 1 of 11" in html and 'class="backs"' not in html


def test_the_finished_table_offers_a_rematch_to_its_players_not_to_spectators(client, duel):
    game, by_seat = duel
    Game.objects.filter(pk=game.pk).update(is_public=True)  # a spectator may look
    services.game_resign(game_id=game.pk, user=by_seat[0])
    rematch = reverse("game_rematch", args=[game.pk])
    client.force_login(UserFactory())
    assert rematch not in page(client, "game", game).content.decode()
    client.force_login(by_seat[1])
    html = page(client, "game", game).content.decode()
    assert f'action="{rematch}"' in html and "Rematch" in html
    response = client.post(rematch)  # a plain form post, as without JavaScript
    made = Game.objects.get(rematch_of=game)
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[made.pk])
    assert made.seats.get(index=0).user == by_seat[1]


@pytest.mark.slow  # a whole game
def test_the_replay_offers_no_step_before_the_first_or_after_the_last(client, duel):
    game, by_seat = duel
    play_on(game)
    client.force_login(by_seat[0])
    first = page(client, "game_replay", game, step=0).content.decode()
    last = page(client, "game_replay", game, step=game.version).content.decode()
    assert "step=-1" not in first and 'rel="next"' in first
    assert f"step={game.version + 1}" not in last and 'rel="prev"' in last


def test_the_hints_left_over_cards_follow_the_hands_order(client, duel):
    game, by_seat = duel
    state = GameState.from_dict(game.state)
    seat = state.to_move
    state.hands[seat] = [Card.from_token(t) for t in ("10C", "5S", "7S")]  # no meld: all left
    game.state = state.to_dict()
    game.save()
    client.force_login(by_seat[seat])
    context = page(client, "game", game).context
    shown = [item["card"].token for item in context["hand"]]
    assert [c.token for c in context["hint"]["deadwood"]] == shown


def test_the_table_looks_again_every_second_while_a_bot_is_to_move(client):
    human = UserFactory()
    game = started_game([human], seat_count=2, bots="easy")
    players = {s.index: s.user for s in game.seats.select_related("user")}
    client.force_login(human)
    seen = set()
    for _ in range(4):  # the bot's turns are played here, by hand (no worker in this test)
        bot_to_move = players[game.to_move_seat].is_bot
        html = page(client, "game", game).content.decode()
        assert f'hx-trigger="every {1 if bot_to_move else 5}s' in html
        seen.add(bot_to_move)
        play_one(game, players)
    assert seen == {True, False}


def test_signing_up_from_a_link_comes_back_to_it(client):
    game = services.game_create(creator=UserFactory(), rules=Rules(), seat_count=2)
    url = reverse("game", args=[game.pk])
    login = client.get(reverse("account_login"), {"next": url}).content.decode()
    assert "Log in to go on" in login and f"signup/?next={url.replace('/', '%2F')}" in login
    password = "correct horse battery"
    data = {"username": "newbie", "email": "newbie@example.com", "password1": password,
            "password2": password, "next": url}  # fmt: skip
    response = client.post(reverse("account_signup"), data)
    assert response.status_code == 302 and response["Location"] == url
    client.logout()
    data.update(username="other", email="other@example.com", next="https://elsewhere.example/")
    assert client.post(reverse("account_signup"), data)["Location"] == reverse("home")


# -- an answer in parts: what a move changed, swapped in place --------------------------------


def swapped(response) -> set[str]:
    """The ids of what an answer swaps in place (out of band)."""
    return set(re.findall(r'id="([\w-]+)"[^>]*hx-swap-oob="true"', response.content.decode()))


def test_anothers_move_answers_the_parts_it_changed_and_leaves_the_hand(client, duel):
    """The table's poll after the other player's draw, from a page that shows this round: the
    head, the players, the piles and the round's news, each swapped in place, and the marks of
    what the page now holds; not the hand (its mark is the page's), nor the round's summary, the
    scoresheet or the rules, which no move within a round changes."""
    game, by_seat = duel
    viewer = 1 - game.to_move_seat
    client.force_login(by_seat[viewer])
    shown = marks(page(client, "game", game))
    assert shown["v"] == str(game.version) and shown["r"] == str(game.round_index)
    play_one(game, by_seat, choose=lambda actions: next(a for a in actions if a.source == "stock"))
    answer = client.get(reverse("game_table", args=[game.pk]), shown, **TABLE_ASKS)
    html = answer.content.decode()
    assert answer.status_code == 200 and answer["HX-Reswap"] == "none"
    assert swapped(answer) == {"table-marks", "table-head", "table-banners", "players", "piles",
                               "table-news"}  # fmt: skip
    assert 'id="table"' not in html and "Scoresheet" not in html and "Move history" not in html
    assert marks(answer) == {**shown, "v": str(game.version)}  # the same hand, a new version


def test_the_players_own_move_answers_its_hand_in_the_parts(client, duel):
    """The hand's mark changes with the cards it holds: the draw's answer carries the hand (the
    card drawn among it) and the hint, and a new mark."""
    game, by_seat = duel
    mover = game.to_move_seat
    client.force_login(by_seat[mover])
    shown = marks(page(client, "game", game))
    data = {**shown, "version": game.version, "source": "stock"}
    answer = client.post(reverse("move_draw", args=[game.pk]), data, **TABLE_ASKS)
    game.refresh_from_db()
    drawn = GameState.from_dict(game.state).hands[mover][-1]
    assert answer["HX-Reswap"] == "none" and "my-hand" in swapped(answer)
    assert f'data-card="{drawn.token}"' in answer.content.decode()
    assert marks(answer)["h"] != shown["h"]


@pytest.mark.parametrize(
    ("changed", "headers"),
    [
        ({"r": "7"}, TABLE_ASKS),  # a page of another round
        ({"v": "9999"}, TABLE_ASKS),  # a version ahead of the game's
        ({}, {"HTTP_HX_REQUEST": "true"}),  # not the table's own request
        ({}, {}),  # no HTMX: the page
    ],
)
def test_a_page_out_of_step_gets_the_whole_table(client, duel, changed, headers):
    game, by_seat = duel
    client.force_login(by_seat[0])
    shown = {**marks(page(client, "game", game)), **changed}
    play_one(game, by_seat)  # something to answer with
    answer = client.get(reverse("game_table", args=[game.pk]), shown, **headers)
    assert answer.status_code == 200 and not answer.has_header("HX-Reswap")
    assert 'id="table"' in answer.content.decode() and not swapped(answer) - {"chat"}


def test_a_refused_move_answers_the_whole_table_with_its_message(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[game.to_move_seat])
    shown = marks(page(client, "game", game))
    data = {**shown, "version": game.version - 1 if game.version else 99, "source": "stock"}
    answer = client.post(reverse("move_draw", args=[game.pk]), data, **TABLE_ASKS)
    assert answer.status_code == 409 and not answer.has_header("HX-Reswap")
    assert 'id="table"' in answer.content.decode()


def test_the_parts_close_the_last_rounds_summary_once_each_has_played_a_turn(client, duel):
    """The summary of the round just ended opens with the new round, and closes as each player
    has played a turn in it: the parts carry it while it is fresh and as it stops being so."""
    game, by_seat = duel
    play_on(game, until=lambda game: game.round_index >= 1)
    viewer = 1 - game.to_move_seat
    client.force_login(by_seat[viewer])
    shown = marks(page(client, "game", game))
    summaries = []
    for _move in range(6):  # three turns of draw and discard: past a turn each
        play_one(game, by_seat)
        if game.round_index != 1:
            break
        answer = client.get(reverse("game_table", args=[game.pk]), shown, **TABLE_ASKS)
        html = answer.content.decode()
        found = re.search(r'<details[^>]*id="round-summary"[^>]*>', html)
        summaries.append(None if found is None else " open" in found.group(0))
        shown = marks(answer)
    assert summaries[:2] == [True, True] and False in summaries  # fresh, then closed
    assert summaries[-1] is None  # and no longer sent
