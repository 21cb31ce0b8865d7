"""A game's chat (games/chat.py, games/selectors/chat.py, games/views/chat.py): posting with and
without HTMX, the length and rate limits, mutes, reports, spectators, the table's poll, the news
on the table and the dashboard, the replay, escaping, and who may not read or write."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from games import chat, services
from games.engine import GameState
from games.errors import GameError
from games.models import CHAT_MESSAGE_MAX_LENGTH, ChatMessage, ChatReport, Mute
from tests.factories import GameFactory, UserFactory, play_one, started_game

pytestmark = pytest.mark.django_db

EVIL = '<script>alert("x")</script><b>bold</b>'
HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name, game, *args):
    return reverse(name, args=[game.pk, *args])


def say(client, game, text, **headers):
    return client.post(url("chat_post", game), {"text": text}, **headers)


@pytest.fixture
def trio(db):
    """A started public game of three people: (game, host, second, third)."""
    users = [UserFactory(), UserFactory(), UserFactory()]
    return started_game(users), *users


def html(response) -> str:
    return response.content.decode()


# -- posting ---------------------------------------------------------------------------------


def test_a_player_posts_with_htmx_and_gets_the_chat_back(client, trio):
    game, _host, second, _third = trio
    client.force_login(second)
    response = say(client, game, "  good luck   all ", **HTMX)
    assert response.status_code == 200
    assert 'id="chat"' in html(response) and "good luck all" in html(response)
    assert 'id="table"' not in html(response)  # the chat alone: the table stays as it is
    message = ChatMessage.objects.get()
    assert (message.seq, message.version, message.author) == (1, game.version, second)
    game.refresh_from_db()
    assert game.chat_count == 1


def test_a_player_posts_without_javascript_and_lands_back_at_the_chat(client, trio):
    game, host, _second, _third = trio
    client.force_login(host)
    response = say(client, game, "hello")
    assert response.status_code == 302 and response.url == url("game", game) + "#chat"
    page = html(client.get(url("game", game)))
    assert "hello" in page and 'id="chat-form"' in page
    assert f'action="{url("chat_post", game)}"' in page  # a plain form posts too


@pytest.mark.parametrize(
    "text, status",
    [("", 400), ("   \n\t ", 400), ("x" * (CHAT_MESSAGE_MAX_LENGTH + 1), 400)],
)
def test_an_empty_or_too_long_message_is_refused_with_a_message(client, trio, text, status):
    game, host, _second, _third = trio
    client.force_login(host)
    for headers in ({}, HTMX):
        response = say(client, game, text, **headers)
        assert response.status_code == status
        assert 'role="alert"' in html(response)
    assert not ChatMessage.objects.exists()


def test_a_message_sent_after_a_refusal_clears_the_refusal_from_the_form(client, trio):
    game, host, _second, _third = trio
    client.force_login(host)
    refused = html(say(client, game, "", **HTMX))
    assert "Write a message first." in refused and 'id="chat-form-error"' in refused
    sent = html(say(client, game, "hello", **HTMX))
    # The form holding the refusal is replaced (out of band) by a clean one.
    form = sent.split('<form id="chat-form"')[1].split("</form>")[0]
    assert 'hx-swap-oob="true"' in form
    assert "Write a message first." not in sent and "aria-invalid" not in form


def test_a_message_of_the_longest_length_is_kept_whole(client, trio):
    game, host, _second, _third = trio
    client.force_login(host)
    assert say(client, game, "y" * CHAT_MESSAGE_MAX_LENGTH).status_code == 302
    assert len(ChatMessage.objects.get().text) == CHAT_MESSAGE_MAX_LENGTH


def test_the_database_holds_the_length_limit(trio):
    game, host, _second, _third = trio
    for text in ("", "z" * (CHAT_MESSAGE_MAX_LENGTH + 1)):
        with pytest.raises(IntegrityError), transaction.atomic():
            ChatMessage.objects.create(game=game, seq=1, author=host, text=text, version=0)


def test_the_chat_opens_when_the_game_starts(client):
    host = UserFactory()
    waiting = GameFactory(created_by=host)
    client.force_login(host)
    assert say(client, waiting, "anyone?").status_code == 409
    assert client.get(url("game_chat", waiting)).status_code == 302  # to the waiting room


def test_a_finished_games_chat_is_kept_and_closed(client, duel):
    game, by_seat = duel
    chat.chat_post(game_id=game.pk, user=by_seat[0], text="last words")
    services.game_resign(game_id=game.pk, user=by_seat[1])
    client.force_login(by_seat[0])
    page = html(client.get(url("game", game)))
    assert "last words" in page and "chat-form" not in page
    response = say(client, game, "too late")
    assert response.status_code == 409 and "closed" in html(response)


# -- the rate limit --------------------------------------------------------------------------


def test_writing_too_fast_answers_429_until_a_minute_has_passed(client, trio, settings, clock):
    game, host, second, _third = trio
    limit = settings.RATE_LIMITS["chat"][0]
    client.force_login(host)
    for n in range(limit):
        assert say(client, game, f"message {n}", **HTMX).status_code == 200
    response = say(client, game, "one too many", **HTMX)
    assert response.status_code == 429 and "too fast" in html(response)
    # The refusal takes the form's place (not the chat's, which the poll redraws), text kept.
    assert response["HX-Retarget"] == "#chat-form" and 'value="one too many"' in html(response)
    assert ChatMessage.objects.count() == limit
    # Another player, and the same player in another game, are counted apart.
    client.force_login(second)
    assert say(client, game, "me too", **HTMX).status_code == 200
    other = started_game([host, UserFactory()])
    client.force_login(host)
    assert say(client, other, "elsewhere", **HTMX).status_code == 200
    # A minute later, the player may write again.
    clock.advance(60)
    assert say(client, game, "again", **HTMX).status_code == 200


# -- mutes -----------------------------------------------------------------------------------


def test_a_muted_player_is_hidden_from_the_muter_in_every_game_and_shown_again(client, trio):
    game, host, second, third = trio
    other_game = started_game([second, host])
    chat.chat_post(game_id=game.pk, user=second, text="noise in one")
    chat.chat_post(game_id=other_game.pk, user=second, text="noise in two")
    client.force_login(host)
    response = client.post(url("chat_mute", game), {"player": second.username}, **HTMX)
    assert response.status_code == 200 and "noise in one" not in html(response)
    assert "noise in one" not in html(client.get(url("game", game)))
    assert "noise in two" not in html(client.get(url("game", other_game)))
    assert "noise in one" not in html(client.get(url("game_chat", game)))
    # The others still read it.
    client.force_login(third)
    assert "noise in one" in html(client.get(url("game", game)))
    # Shown again.
    client.force_login(host)
    client.post(url("chat_mute", game), {"player": second.username, "mute": "off"})
    assert "noise in two" in html(client.get(url("game", other_game)))


def test_a_mute_is_one_row_and_never_of_oneself(trio):
    _game, host, second, _third = trio
    chat.user_mute(user=host, other=second)
    chat.user_mute(user=host, other=second)
    assert Mute.objects.count() == 1
    with pytest.raises(GameError):
        chat.user_mute(user=host, other=host)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mute.objects.create(muter=second, muted=second)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mute.objects.create(muter=host, muted=second)


def test_muting_a_player_who_does_not_exist_is_a_404(client, trio):
    game, host, _second, _third = trio
    client.force_login(host)
    assert client.post(url("chat_mute", game), {"player": "nobody-here"}).status_code == 404


# -- reports ---------------------------------------------------------------------------------


def test_a_reported_message_reaches_the_staff_in_the_admin_escaped_with_links(client, trio):
    game, host, second, _third = trio
    message = chat.chat_post(game_id=game.pk, user=second, text=EVIL)
    client.force_login(host)
    report = url("chat_report", game, message.pk)
    assert client.post(report, **HTMX).status_code == 200
    assert client.post(report).status_code == 302  # twice: still one report
    assert ChatReport.objects.get().reporter == host
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = html(client.get(reverse("admin:games_chatreport_changelist")))
    assert "&lt;script&gt;" in page and EVIL not in page
    assert reverse("admin:games_chatmessage_change", args=[message.pk]) in page
    assert f"game__id__exact={game.pk}" in page and url("game", game) in page
    detail = client.get(
        reverse("admin:games_chatreport_change", args=[ChatReport.objects.get().pk])
    )
    assert detail.status_code == 200 and "&lt;script&gt;" in html(detail)
    assert client.get(reverse("admin:games_chatmessage_changelist")).status_code == 200


def test_one_cannot_report_ones_own_message_nor_one_from_another_game(client, trio):
    game, host, _second, _third = trio
    mine = chat.chat_post(game_id=game.pk, user=host, text="mine")
    other_game = started_game([UserFactory(), UserFactory()])
    theirs = chat.chat_post(game_id=other_game.pk, user=other_game.created_by, text="theirs")
    client.force_login(host)
    assert client.post(url("chat_report", game, mine.pk)).status_code == 400
    assert client.post(url("chat_report", game, theirs.pk)).status_code == 404
    assert not ChatReport.objects.exists()


THANKS = "Thank you: the moderators will look into it."


def report_buttons(page: str, message) -> int:
    return page.count(f'action="{reverse("chat_report", args=[message.game_id, message.pk])}"')


def test_a_report_is_confirmed_and_the_message_marked_reported_for_its_reporter(client, trio):
    game, host, second, third = trio
    message = chat.chat_post(game_id=game.pk, user=second, text="you play like a potato")
    client.force_login(host)
    report = url("chat_report", game, message.pk)
    for _twice in range(2):  # a second click is answered too, not silently
        answer = html(client.post(report, **HTMX))
        assert THANKS in answer and 'role="status"' in answer
        assert report_buttons(answer, message) == 0 and "Reported" in answer
    landed = client.post(report, follow=True)  # without JavaScript: back at the table
    assert THANKS in html(landed) and report_buttons(html(landed), message) == 0
    for page in (html(client.get(url("game", game))), html(client.get(url("game_chat", game)))):
        assert report_buttons(page, message) == 0 and "Reported" in page
    client.force_login(third)  # the mark is the reporter's own
    page = html(client.get(url("game", game)))
    assert report_buttons(page, message) == 1 and "Reported" not in page
    assert ChatReport.objects.get().reporter == host


def test_a_message_hidden_by_a_moderator_offers_no_report(client, trio):
    game, host, second, _third = trio
    message = chat.chat_post(game_id=game.pk, user=second, text="you play like a potato")
    ChatMessage.objects.filter(pk=message.pk).update(hidden_at=message.created_at)
    client.force_login(host)
    for page in (html(client.get(url("game", game))), html(client.get(url("game_chat", game)))):
        assert report_buttons(page, message) == 0
    assert client.post(url("chat_report", game, message.pk), **HTMX).status_code == 400
    assert not ChatReport.objects.exists()


# -- spectators and strangers ----------------------------------------------------------------


def test_spectators_neither_read_nor_write_until_the_host_opens_the_chat(client, trio):
    game, host, second, _third = trio
    chat.chat_post(game_id=game.pk, user=second, text="between us")
    spectator = UserFactory()
    client.force_login(spectator)
    page = html(client.get(url("game", game)))
    assert "between us" not in page and '<section id="chat"' not in page
    assert "chat-form" not in page
    assert "between us" not in html(client.get(url("game_table", game), {"v": 0}))
    assert client.get(url("game_chat", game)).status_code == 403
    assert say(client, game, "hi", **HTMX).status_code == 403
    refused = say(client, game, "hi")
    assert refused.status_code == 403 and "Only the players" in html(refused)
    assert client.post(url("chat_spectators", game), {"open": "1"}).status_code == 403
    client.force_login(host)
    assert client.post(url("chat_spectators", game), {"open": "1"}).status_code == 302
    client.force_login(spectator)
    assert "between us" in html(client.get(url("game", game)))
    assert say(client, game, "hello players").status_code == 302
    client.force_login(host)
    client.post(url("chat_spectators", game), {"open": "0"}, **HTMX)
    client.force_login(spectator)
    assert "hello players" not in html(client.get(url("game", game)))


def test_a_stranger_or_another_games_player_gets_404_on_a_private_games_chat(client):
    game = started_game([UserFactory(), UserFactory()], is_public=False)
    chat.chat_post(game_id=game.pk, user=game.created_by, text="private words")
    elsewhere = started_game([UserFactory(), UserFactory()], is_public=False)
    for user in (UserFactory(), elsewhere.created_by):
        client.force_login(user)
        assert client.get(url("game_chat", game)).status_code == 404
        assert say(client, game, "let me in").status_code == 404
        assert client.post(url("chat_mute", game), {"player": "x"}).status_code == 404
        message = ChatMessage.objects.get(game=game)
        assert client.post(url("chat_report", game, message.pk)).status_code == 404
        assert client.get(url("game_table", game), {"v": 0}).status_code == 404
    assert ChatMessage.objects.filter(game=game).count() == 1


def test_a_logged_out_visitor_is_sent_to_log_in(client, trio):
    game, _host, _second, _third = trio
    response = say(client, game, "hi")
    assert response.status_code == 302 and reverse("account_login") in response.url
    assert not ChatMessage.objects.exists()


# -- the poll, the news, the dashboard -------------------------------------------------------


def poll(client, game, **params):
    return client.get(url("game_table", game), params)


def test_a_message_changes_the_tables_poll_for_those_who_read_the_chat_only(client, trio):
    game, host, second, _third = trio
    client.force_login(host)
    assert poll(client, game, v=game.version, c=0).status_code == 204
    chat.chat_post(game_id=game.pk, user=second, text="your move")
    response = poll(client, game, v=game.version, c=0)
    assert response.status_code == 200 and "your move" in html(response)
    assert 'name="c" value="1"' in html(response)
    assert poll(client, game, v=game.version, c=1).status_code == 204
    # A spectator's page says nothing of the chat, and their poll stays unchanged.
    client.force_login(UserFactory())
    assert 'name="c" value="0"' in html(client.get(url("game", game)))
    assert poll(client, game, v=game.version, c=0).status_code == 204
    assert poll(client, game, v=game.version).status_code == 204


def test_a_moves_answer_brings_the_chat_only_when_the_page_lacks_its_latest(client, trio):
    game, *_people = trio
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    mover = by_seat[game.to_move_seat]
    other = next(user for user in by_seat.values() if user != mover)
    client.force_login(mover)

    def draw(**chat_known):
        data = {"source": "stock", "version": game.version, **chat_known}
        answer = html(client.post(url("move_draw", game), data, **HTMX))
        game.refresh_from_db()
        return answer

    answer = draw(c=0)  # the page has the chat as it is (empty): only the table comes back
    assert 'id="table"' in answer and 'id="chat"' not in answer
    chat.chat_post(game_id=game.pk, user=other, text="hurry up")
    card = GameState.from_dict(game.state).hands[game.to_move_seat][0].token
    data = {"card": card, "version": game.version, "c": 0}  # the page is a message behind
    answer = html(client.post(url("move_discard", game), data, **HTMX))
    assert 'id="table"' in answer and 'name="c" value="1"' in answer
    chat_part = answer.split('<section id="chat"')[1]
    assert 'hx-swap-oob="true"' in chat_part.split(">")[0] and "hurry up" in chat_part
    # A form that does not say (the sort buttons) gets the chat too.
    sorted_ = html(client.post(url("hand_sort", game), {"sort": "rank"}, **HTMX))
    assert "hurry up" in sorted_ and 'hx-swap-oob="true"' in sorted_


def test_a_spectator_is_brought_the_chat_when_the_host_opens_it(client, trio):
    game, host, second, _third = trio
    chat.chat_post(game_id=game.pk, user=second, text="now you see it")
    client.force_login(UserFactory())
    page = html(client.get(url("game", game)))
    assert '<div id="chat" hidden' in page and 'name="c" value="0"' in page  # its place, empty
    chat.game_set_chat_spectators(game_id=game.pk, user=host, open_to_them=True)
    game.refresh_from_db()
    answer = poll(client, game, v=game.version, c=0)
    assert answer.status_code == 200 and "now you see it" in html(answer)
    assert '<section id="chat" class="card chat"' in html(answer)
    assert 'name="c" value="1"' in html(answer)
    chat.game_set_chat_spectators(game_id=game.pk, user=host, open_to_them=False)
    answer = poll(client, game, v=game.version, c=1)  # closed again: its place is emptied
    assert '<div id="chat" hidden hx-swap-oob="true">' in html(answer)
    assert "now you see it" not in html(answer)


def test_a_waiting_message_is_news_on_the_table_and_the_dashboard_until_seen(client, trio):
    game, host, second, third = trio
    client.force_login(host)
    client.get(url("game", game))  # seen, with nothing new
    chat.chat_post(game_id=game.pk, user=second, text="nice discard")
    chat.user_mute(user=host, other=third)
    chat.chat_post(game_id=game.pk, user=third, text="muted words")
    dashboard = html(client.get(reverse("home")))
    assert "new message" in dashboard
    page = html(client.get(url("game", game)))
    since = page.split("Since your last visit")[1].split("</section>")[0]
    assert "nice discard" in since and "muted words" not in since
    assert "new message" not in html(client.get(reverse("home")))
    assert "Since your last visit" not in html(client.get(url("game", game)))
    # One's own message is no news, nor a muted player's.
    chat.chat_post(game_id=game.pk, user=host, text="thanks")
    chat.chat_post(game_id=game.pk, user=third, text="more muted words")
    assert "new message" not in html(client.get(reverse("home")))


# -- the replay and escaping -----------------------------------------------------------------


def test_the_replay_shows_each_message_where_it_was_written(client, duel):
    game, by_seat = duel
    chat.chat_post(game_id=game.pk, user=by_seat[0], text="before any move")
    for _ in range(3):
        play_one(game, by_seat)
    chat.chat_post(game_id=game.pk, user=by_seat[1], text="after three moves")
    services.game_resign(game_id=game.pk, user=by_seat[1])
    client.force_login(by_seat[0])
    replay = url("game_replay", game)
    start = html(client.get(replay, {"step": 0}))
    assert "before any move" in start and "after three moves" not in start
    assert "after three moves" not in html(client.get(replay, {"step": 2}))
    third = html(client.get(replay, {"step": 3}, **HTMX))
    assert "before any move" in third and "after three moves" in third
    # A spectator of the finished public game reads no players-only chat there either.
    client.force_login(UserFactory())
    assert "before any move" not in html(client.get(replay, {"step": 3}))


def test_a_message_is_escaped_everywhere_it_shows(client, duel):
    game, by_seat = duel
    client.force_login(by_seat[1])
    client.get(url("game", game))
    chat.chat_post(game_id=game.pk, user=by_seat[0], text=EVIL)
    pages = [
        client.get(url("game", game)),  # the chat, and the news
        client.get(url("game_table", game), {"v": 0}),
        client.get(url("game_chat", game)),
        say(client, game, "ok", **HTMX),
    ]
    services.game_resign(game_id=game.pk, user=by_seat[1])
    pages.append(client.get(url("game_replay", game), {"step": game.version}))
    for response in pages:
        assert response.status_code == 200
        assert EVIL not in html(response) and "<b>bold</b>" not in html(response)
        assert "&lt;script&gt;" in html(response)
