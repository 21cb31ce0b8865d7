"""The load test's players read the table's HTML (loadtest/table.py): these render real tables and
check what they read, and play a turn with it, so a template change that would leave `make
loadtest` blind fails here first."""

import pytest
from django.urls import reverse

from games import services
from games.engine import GameState
from loadtest.table import csrf_token, parse_table

pytestmark = pytest.mark.django_db


def hand_of(game, seat_index):
    return {card.token for card in GameState.from_dict(game.state).hands[seat_index]}


def test_a_turn_is_played_from_what_the_table_shows(client, duel):
    game, by_seat = duel
    mover = game.to_move_seat
    client.force_login(by_seat[mover])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    table = parse_table(page)
    assert csrf_token(page)
    assert table.version == game.version and not table.over
    assert table.poll_url == reverse("game_table", args=[game.pk])
    assert table.marks["v"] == str(game.version) and table.marks["r"] == str(game.round_index)
    assert table.ask_url.startswith(f"{table.poll_url}?v={game.version}&c=0&r=")
    assert table.poll_seconds == 5 and table.chat == "0"
    assert table.events_url == reverse("game_events", args=[game.pk])
    assert "stock" in table.sources and table.discards == [] and table.go_out == []

    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "table",
               "HTTP_X_CSRFTOKEN": csrf_token(page)}  # fmt: skip
    data = {**table.marks, "source": "stock", "version": table.version}
    drawn = client.post(reverse("move_draw", args=[game.pk]), data, **headers)
    assert 'id="chat"' not in drawn.content.decode()  # the page has the chat already
    assert drawn["HX-Reswap"] == "none"  # the parts, read into the table the page holds
    table = parse_table(drawn.content.decode(), table)
    game.refresh_from_db()
    assert table.version == game.version and table.sources == []
    assert {token for token, _name in table.discards} == hand_of(game, mover)
    assert table.hint in {name for _token, name in table.discards}
    advised = table.advised_discard()
    assert dict(table.discards)[advised] == table.hint

    data = {**table.marks, "card": advised, "version": table.version}
    discarded = client.post(reverse("move_discard", args=[game.pk]), data, **headers)
    assert discarded.status_code == 200
    game.refresh_from_db()
    assert game.to_move_seat != mover and advised not in hand_of(game, mover)
    table = parse_table(discarded.content.decode(), table)
    assert table.version == game.version and table.sources == [] and table.discards == []
    assert table.poll_url == reverse("game_table", args=[game.pk])  # kept from the page


def test_anothers_move_read_from_the_parts_keeps_the_hand(client, duel):
    game, by_seat = duel
    waiting = 1 - game.to_move_seat
    client.force_login(by_seat[waiting])
    table = parse_table(client.get(reverse("game", args=[game.pk])).content.decode())
    hand = table.discards, table.hint
    services.move_draw(game_id=game.pk, user=by_seat[game.to_move_seat], version=game.version,
                       source="stock")  # fmt: skip
    game.refresh_from_db()
    answer = client.get(table.ask_url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="table")
    assert answer["HX-Reswap"] == "none" and 'id="my-hand"' not in answer.content.decode()
    read = parse_table(answer.content.decode(), table)
    assert read.version == game.version and (read.discards, read.hint) == hand


def test_the_other_player_may_not_draw_and_a_finished_game_stops_polling(client, duel):
    game, by_seat = duel
    waiting = by_seat[1 - game.to_move_seat]
    client.force_login(waiting)
    table = parse_table(client.get(reverse("game", args=[game.pk])).content.decode())
    assert table.sources == [] and table.discards == [] and not table.over
    services.game_resign(game_id=game.pk, user=waiting)
    table = parse_table(client.get(reverse("game", args=[game.pk])).content.decode())
    assert table.over and table.events_url is None


def test_a_page_without_a_table_reads_as_none(client, duel):
    client.force_login(duel[1][0])
    assert parse_table(client.get(reverse("home")).content.decode()) is None
