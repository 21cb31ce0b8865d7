import re

import pytest
from django.urls import reverse

from games.engine import GameState, Rules
from games.models import Game, Move
from tests.factories import UserFactory, legal_actions, started_game

pytestmark = pytest.mark.django_db


def post(client, name, game, data, htmx=False):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse(name, args=[game.pk]), data, **headers)


def test_create_game_form_explains_every_switch_and_creates(client):
    client.force_login(UserFactory())
    page = client.get(reverse("game_new")).content.decode()
    for words in ("Aces high or low", "Face cards by rank", "Wild penalty 15", "One wild per meld",
                  "All-wild melds", "Jokers", "Extended", "Up and down", "Double face rounds",
                  "Redemption"):  # fmt: skip
        assert words in page
    response = client.post(
        reverse("game_new"),
        {"seat_count": "3", "time_per_move_days": "7", "rounds": "up_and_down", "redemption": "on"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert game.rules["rounds"] == "up_and_down" and game.rules["redemption"]
    assert game.time_per_move_days == 7


@pytest.mark.parametrize(
    "data",
    [{"seat_count": "9"}, {"seat_count": "x"}, {"seat_count": "2", "time_per_move_days": "4"},
     {"seat_count": "2", "rounds": "forever"}, {"seat_count": "2", "bots": "genius"}],
)  # fmt: skip
def test_create_game_with_junk_is_a_400_that_creates_nothing(client, data):
    client.force_login(UserFactory())
    response = client.post(reverse("game_new"), data)
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_table_shows_my_turn_hand_wild_and_forms_that_work_without_javascript(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[game.to_move_seat])
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Your turn: draw a card" in html
    assert "3s are wild" in html
    assert f'action="{reverse("move_draw", args=[game.pk])}#hand"' in html
    assert f'hx-post="{reverse("move_draw", args=[game.pk])}"' in html
    hand = GameState.from_dict(game.state).hands[game.to_move_seat]
    for card in hand:
        assert f'data-card="{card.token}"' in html


def test_a_move_without_javascript_redirects_back_to_the_table(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[game.to_move_seat])
    response = post(client, "move_draw", game, {"source": "stock", "version": game.version})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 1


def test_a_move_with_htmx_answers_the_table_partial(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[game.to_move_seat])
    response = post(client, "move_draw", game, {"source": "discard", "version": 0}, htmx=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="table"') and "<html" not in html
    assert "Your turn: discard a card" in html


@pytest.mark.parametrize(
    ("name", "data", "status", "message"),
    [
        ("move_draw", {"source": "stock", "version": "99"}, 409, "moved on"),
        ("move_draw", {"source": "stock", "version": "abc"}, 400, "out of date"),
        ("move_draw", {"source": "stock"}, 400, "out of date"),
        ("move_draw", {"source": "<b>", "version": "0"}, 400, "Draw from the stock"),
        ("move_discard", {"card": "7H", "version": "0"}, 400, "Draw a card first"),
        ("move_discard", {"card": "junk" * 50, "version": "0"}, 400, "not a card"),
        ("move_go_out", {"card": "", "version": "0"}, 400, "not a card"),
    ],
)
def test_bad_moves_get_a_readable_4xx_and_change_nothing(client, duel, name, data, status, message):
    game, by_seat = duel
    client.force_login(by_seat[game.to_move_seat])
    for htmx in (False, True):
        response = post(client, name, game, data, htmx=htmx)
        assert response.status_code == status
        assert message in response.content.decode()
    assert not Move.objects.filter(game=game).exists()


def test_stale_htmx_move_gets_409_with_a_fresh_table(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[game.to_move_seat])
    post(client, "move_draw", game, {"source": "stock", "version": 0}, htmx=True)
    response = post(client, "move_draw", game, {"source": "stock", "version": 0}, htmx=True)
    assert response.status_code == 409
    assert 'data-version="1"' in response.content.decode()


def test_out_of_turn_and_strangers_are_refused(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[1 - game.to_move_seat])
    response = post(client, "move_draw", game, {"source": "stock", "version": 0})
    assert response.status_code == 400
    assert "not your turn" in response.content.decode()
    client.force_login(UserFactory())
    response = post(client, "move_draw", game, {"source": "stock", "version": 0})
    assert response.status_code == 403
    client.logout()
    response = post(client, "move_draw", game, {"source": "stock", "version": 0})
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    assert not Move.objects.filter(game=game).exists()


def test_missing_games_are_404(client):
    client.force_login(UserFactory())
    assert client.get(reverse("game", args=[999])).status_code == 404
    assert post(client, "move_draw", Game(pk=999), {"version": 0}).status_code == 404
    assert client.get(reverse("invite", args=["nope"])).status_code == 404


def test_polling_is_204_until_someone_moves(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[1 - game.to_move_seat])
    url = reverse("game_table", args=[game.pk])
    assert client.get(url, {"v": game.version}).status_code == 204
    action = legal_actions(game)[0].to_dict()
    mover = by_seat[game.to_move_seat]
    from games import services

    services.move_draw(game_id=game.pk, user=mover, version=0, source=action["source"])
    response = client.get(url, {"v": 0})
    assert response.status_code == 200
    assert 'data-version="1"' in response.content.decode()


def test_private_games_are_hidden_from_strangers_but_open_by_invite(client):
    host = UserFactory()
    from games import services
    from games.engine import Rules

    game = services.game_create(creator=host, rules=Rules(), seat_count=2, is_public=False)
    client.force_login(UserFactory())
    assert client.get(reverse("game", args=[game.pk])).status_code == 404
    response = client.get(reverse("invite", args=[game.invite_code]), follow=True)
    assert response.status_code == 200 and "Take a seat" in response.content.decode()
    assert post(client, "game_join", game, {}).status_code == 302
    assert game.seats.count() == 2


def test_dashboard_lists_my_turn_first(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[game.to_move_seat])
    html = client.get(reverse("home")).content.decode()
    mine = html.index("Your turn")
    assert html.index(f'href="{reverse("game", args=[game.pk])}"') > mine
    assert html.index(f'href="{reverse("game", args=[game.pk])}"') < html.index("Waiting on others")


def test_history_hides_stock_draws_of_others_and_replay_waits_for_the_end(client, duel):
    game, by_seat = duel
    from games import services

    mover = by_seat[game.to_move_seat]
    services.move_draw(game_id=game.pk, user=mover, version=0, source="stock")
    drawn = Move.objects.get(game=game, seq=0).record["card"]
    client.force_login(by_seat[1 - game.to_move_seat])
    html = client.get(reverse("game_history", args=[game.pk])).content.decode()
    assert "drew from the stock" in html
    assert not re.search(rf'data-card="{re.escape(drawn)}"', html)
    assert client.get(reverse("game_replay", args=[game.pk])).status_code == 403


def test_a_stranger_cannot_join_a_private_game_without_its_invitation(client):
    """Game ids are sequential: a join POST alone must not seat anyone at a private game (nor
    show them its invitation link); the invitation link or an invitation by name does."""
    from games import invitations, services
    from games.engine import Rules

    host, stranger, named = UserFactory(), UserFactory(), UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=4, is_public=False)
    client.force_login(stranger)
    response = post(client, "game_join", game, {})
    assert response.status_code == 404 and game.invite_code not in response.content.decode()
    assert game.seats.count() == 1
    client.get(reverse("invite", args=[game.invite_code]))  # by the link: welcome
    assert post(client, "game_join", game, {}).status_code == 302
    invitations.game_invite(game_id=game.pk, user=host, who=named.username)
    services.game_join(game_id=game.pk, user=named)  # invited by name
    assert game.seats.count() == 3


@pytest.mark.parametrize("public", [True, False])
def test_a_stranger_walks_every_game_page_and_sees_no_private_game(client, public):
    from games import services
    from games.engine import Rules

    users = [UserFactory(), UserFactory()]
    game = started_game(users, is_public=public)
    client.force_login(UserFactory())
    for name in ("game", "game_table", "game_history"):
        response = client.get(reverse(name, args=[game.pk]), {"v": 1})
        assert response.status_code == (200 if public else 404)
        assert game.invite_code not in response.content.decode()
    replay = client.get(reverse("game_replay", args=[game.pk]))
    assert replay.status_code == (403 if public else 404)
    waiting = services.game_create(creator=users[0], rules=Rules(), seat_count=3, is_public=public)
    response = post(client, "game_join", waiting, {})
    assert response.status_code == (302 if public else 404)
    assert waiting.seats.count() == (2 if public else 1)


def test_the_new_game_form_shows_every_field_in_exactly_one_of_its_groups():
    from games.forms import GameCreateForm

    form = GameCreateForm(initial={"seat_count": 8})
    grouped = [f.name for f in form.table_fields()] + [f.name for f in form.variant_fields()]
    grouped += [f.name for f in form.seat_fields()]
    assert sorted(grouped) == sorted(form.fields) and len(set(grouped)) == len(grouped)


def seat_names(html: str) -> list[str]:
    return re.findall(r'<select name="(seat_\d)"', html)


def selected(html: str, name: str) -> str:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S).group(0)
    return re.search(r'<option value="([^"]*)" selected>', select).group(1)


def test_the_new_game_form_shows_the_seats_of_the_chosen_number_of_players(client):
    client.force_login(UserFactory())
    new = reverse("game_new")
    page = client.get(new).content.decode()
    assert seat_names(page) == ["seat_2"]  # two players by default
    # Without JavaScript: a button posts the form back, and the page comes back with the seats
    # of that count, every choice kept, and no game.
    assert re.search(r'<noscript><button type="submit" name="show_seats"[^>]*>', page)
    data = {"seat_count": "4", "rounds": "classic", "seat_3": "hard", "jokers": "on"}
    shown = client.post(new, {**data, "show_seats": "1"})
    again = shown.content.decode()
    assert shown.status_code == 200 and not Game.objects.exists()
    assert seat_names(again) == ["seat_2", "seat_3", "seat_4"]
    assert selected(again, "seat_3") == "hard" and selected(again, "seat_count") == "4"
    assert re.search(r'<input type="checkbox" name="jokers"[^>]* checked', again)
    # With htmx: a change of count swaps the seats alone, the choices made so far kept.
    assert re.search(r'<fieldset id="seats"[^>]*hx-get="/games/new/"', page)
    assert 'hx-trigger="change from:#id_seat_count"' in page
    part = client.get(new, {"seat_count": "5", "seat_2": "medium"}, HTTP_HX_REQUEST="true")
    html = part.content.decode()
    assert part.status_code == 200 and "<form" not in html and html.lstrip().startswith("<fieldset")
    assert seat_names(html) == ["seat_2", "seat_3", "seat_4", "seat_5"]
    assert selected(html, "seat_2") == "medium"
    # Junk counts are the default; a refused form keeps the seats of its count.
    for junk in ("abc", "99", "1", "", "\uff13"):
        answer = client.get(new, {"seat_count": junk})
        assert answer.status_code == 200 and seat_names(answer.content.decode()) == ["seat_2"]
    refused = client.post(new, {"seat_count": "3", "rounds": "forever"})
    assert refused.status_code == 400 and seat_names(refused.content.decode()) == [
        "seat_2",
        "seat_3",
    ]


@pytest.mark.parametrize(
    ("people", "bots", "says", "ends"),
    [
        (1, "easy", "You are the only person playing", True),
        (2, None, "You are one of the last two people playing", True),
        (3, None, "a bot will play your seat to the end", False),
        (2, "easy", "You are one of the last two people playing", True),
    ],
)
def test_the_resign_page_says_what_resigning_will_do(client, people, bots, says, ends):
    from games.models import Seat

    users = [UserFactory() for _ in range(people)]
    game = started_game(users, bots=bots, seat_count=people + (1 if bots else 0))
    client.force_login(users[0])
    page = client.get(reverse("game_resign", args=[game.pk])).content.decode()
    assert says in page
    assert ("ends the game now" in page) == ends
    assert ("play your seat to the end" in page) != ends
    post(client, "game_resign", game, {})
    game.refresh_from_db()
    assert (game.status == Game.Status.FINISHED) == ends
    assert Seat.objects.get(game=game, user=users[0]).resigned


def test_the_new_game_form_starts_when_full_unless_unticked(client):
    client.force_login(UserFactory())
    page = client.get(reverse("game_new")).content.decode()
    assert re.search(r'<input type="checkbox" name="start_when_full"[^>]* checked', page)
    post_data = {"seat_count": "2", "seat_2": "easy", "rounds": "classic"}
    client.post(reverse("game_new"), {**post_data, "start_when_full": "on"})
    client.post(reverse("game_new"), post_data)  # unticked: a checkbox sends nothing
    assert list(Game.objects.order_by("pk").values_list("start_when_full", "status")) == [
        (True, "active"),
        (False, "open"),
    ]


def test_the_waiting_room_poll_reloads_the_page_once_a_seat_is_taken_or_the_game_starts(client):
    from games import services
    from games.models import Seat

    host = UserFactory()
    game = services.game_create(creator=host, rules=Rules(), seat_count=3)
    client.force_login(host)

    def poll_of_the_page() -> str:
        page = client.get(reverse("game", args=[game.pk])).content.decode()
        found = re.search(r'id="waiting-poll"[^>]*hx-get="([^"]+)"', page)
        return found.group(1).replace("&amp;", "&")

    poll = poll_of_the_page()
    assert client.get(poll).status_code == 204
    assert Seat.objects.get(game=game, user=host).last_seen_at is not None  # the host is there
    for _last in (False, True):
        services.game_join(game_id=game.pk, user=UserFactory())
        answer = client.get(poll)
        assert answer.status_code == 200 and answer["HX-Refresh"] == "true"
        if not _last:
            poll = poll_of_the_page()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_the_waiting_room_lists_the_seats_in_their_order_an_empty_one_where_it_is(client):
    from games import services

    host = UserFactory(display_name="Hostess")
    game = services.game_create(
        creator=host, rules=Rules(), seat_count=3, is_public=False, seat_bots=[None, "hard"]
    )
    client.force_login(host)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    seats = re.search(r'<ol class="seats">(.*?)</ol>', page, re.S).group(1)
    items = [" ".join(re.sub(r"<[^>]+>", " ", li).split()) for li in seats.split("</li>")[:-1]]
    assert items == [
        "Hostess 1000? provisional host",
        "empty seat",
        "Hard Bot 1000? provisional bot",
    ]
