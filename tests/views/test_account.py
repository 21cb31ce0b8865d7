"""Deleting one's account (games/departure.py, accounts.services.user_delete) and downloading
one's data (games/selectors/export.py)."""

import datetime
import json

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Preferences, User, Vacation
from games import chat, friends, invitations, services
from games.models import Game, Invitation, Move, Notification, Rating, RatingChange, Seat
from tests.factories import GameFactory, UserFactory, finish_game, play_on, started_game

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"  # tests/factories.UserFactory's
DELETE = reverse("account_delete")


@pytest.fixture
def every_game_rated(settings):
    settings.RATING_MIN_ROUNDS = 0
    settings.LEADERBOARD_MIN_GAMES = 1


def leaving_player():
    """A player with something of everything: a game in play with two others, a game they host
    that has not started, a finished rated game, an invitation to them and one from them,
    preferences, a vacation, mail."""
    me, a, b = UserFactory(display_name="Leaver"), UserFactory(), UserFactory()
    playing = started_game([a, me, b])
    hosting = GameFactory(created_by=me, seat_count=3)
    finished = started_game([me, a])
    services.game_resign(game_id=finished.pk, user=a)
    waiting = GameFactory(created_by=a, seat_count=3, is_public=False)
    invitations.game_invite(game_id=waiting.pk, user=a, who=me.username)
    invitations.game_invite(game_id=hosting.pk, user=me, who=b.username)
    Preferences.objects.create(user=me, turn_mail="digest")
    now = timezone.now()
    Vacation.objects.create(user=me, starts_at=now, ends_at=now + datetime.timedelta(days=1))
    return me, a, b, playing, hosting, finished, waiting


def test_deleting_asks_for_the_password_and_only_a_post_deletes(client):
    me = UserFactory()
    client.force_login(me)
    page = client.get(DELETE)
    assert page.status_code == 200 and 'type="password"' in page.content.decode()
    wrong = client.post(DELETE, {"password": "not it"})
    assert wrong.status_code == 400 and "That is not your password." in wrong.content.decode()
    me.refresh_from_db()
    assert me.is_active and me.has_usable_password()
    assert client.get(reverse("home")).status_code == 200  # still signed in


def test_wrong_passwords_to_delete_the_account_are_limited_before_any_hashing(client, hashes):
    """The delete form checked every password posted to it (30 wrong ones in one session: 30
    answers 400, each hashed): whoever held a stolen session could guess the password there."""
    me = UserFactory()
    client.force_login(me)
    hashes.count = 0
    statuses = [client.post(DELETE, {"password": f"guess {n}"}).status_code for n in range(30)]
    assert statuses == [400] * 5 + [429] * 25 and hashes.count == 5
    refused = client.post(DELETE, {"password": PASSWORD})
    assert refused.status_code == 429 and "Too many wrong passwords" in refused.content.decode()
    assert hashes.count == 5
    me.refresh_from_db()
    assert me.is_active


NEW_PASSWORD = "a fresh pass phrase 3"
PASSWORD_FORMS = {
    "delete": (DELETE, "password", {}),
    "reauthenticate": (reverse("account_reauthenticate"), "password", {}),
    "change password": (
        reverse("account_change_password"), "oldpassword",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    ),
}  # fmt: skip


def post_password(client, form: str, password: str):
    url, field, rest = PASSWORD_FORMS[form]
    return client.post(url, {field: password, **rest})


@pytest.mark.parametrize("last", list(PASSWORD_FORMS))
def test_the_forms_that_check_a_password_share_one_limit(client, hashes, last):
    """Deleting the account, confirming who one is (before changing the email address) and
    changing the password each ask for the password: five wrong ones among them all, and each
    refuses the next before hashing it, the right one too."""
    me = UserFactory()
    client.force_login(me)
    for n, form in enumerate(["delete", "reauthenticate", "change password"] * 2):
        if n == 5:
            break
        assert post_password(client, form, f"guess {n}").status_code == 400
    hashes.count = 0
    refused = post_password(client, last, PASSWORD)
    assert refused.status_code == 429 and hashes.count == 0
    assert "Too many wrong passwords" in refused.content.decode()
    me.refresh_from_db()
    assert me.is_active and me.check_password(PASSWORD)


def test_deleting_an_account_forgets_the_person_and_keeps_the_games(client, every_game_rated):
    me, a, _b, playing, hosting, finished, _waiting = leaving_player()
    assert Rating.objects.filter(user=me).exists()
    elsewhere = Client()
    elsewhere.force_login(me)
    client.force_login(me)
    response = client.post(DELETE, {"password": PASSWORD})
    assert response.status_code == 302
    assert SESSION_KEY not in client.session
    me.refresh_from_db()
    assert me.username == f"~deleted-{me.pk}" and me.email == "" and me.display_name == ""
    assert not me.is_active and not me.has_usable_password() and me.is_deleted
    assert me.name == "deleted player" and str(me) == "deleted player"
    assert not Preferences.objects.filter(user=me).exists()
    assert not Vacation.objects.filter(user=me).exists()
    assert not Notification.objects.filter(user=me).exists()
    assert not Invitation.objects.filter(status="pending", invitee=me).exists()
    assert not Invitation.objects.filter(status="pending", invited_by=me).exists()
    assert not Invitation.objects.filter(invited_as__iexact=me.email or "-").exists()
    # The game in play goes on without them: resigned, a bot plays the seat.
    playing.refresh_from_db()
    assert playing.status == Game.Status.ACTIVE
    assert Seat.objects.get(game=playing, user=me).resigned
    # The game they hosted and had not started is cancelled; the finished one keeps its result.
    assert Game.objects.get(pk=hosting.pk).status == Game.Status.CANCELLED
    assert Seat.objects.get(game=finished, user=me).final_rank == 1
    assert RatingChange.objects.filter(game=finished, user=me).exists()
    # Other players see "deleted player" at the table; the leaderboard no longer lists them.
    client.force_login(a)
    table = client.get(reverse("game", args=[playing.pk])).content.decode()
    assert "deleted player" in table and "Leaver" not in table
    board = client.get(reverse("leaderboard")).content.decode()
    assert "deleted player" not in board and "Leaver" not in board and a.name in board
    # Their page is gone, and every other session of theirs is signed out.
    assert client.get(reverse("player", args=[me.username])).status_code == 404
    assert elsewhere.get(reverse("notification_preferences")).status_code == 302
    # Nobody can sign in as them.
    assert not Client().login(username=f"~deleted-{me.pk}", password=PASSWORD)


def test_a_two_person_game_ends_when_one_of_them_deletes_their_account(client, every_game_rated):
    """Nobody is left to play against: the other has won, and the game is rated for nobody (a
    win by an account deleted is no rating: an account made to lose and be deleted farms none)."""
    me, other = UserFactory(), UserFactory()
    game = started_game([me, other])
    client.force_login(me)
    assert client.post(DELETE, {"password": PASSWORD}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == Game.EndReason.RESIGNED
    assert Seat.objects.get(game=game, user=other).final_rank == 1
    assert not RatingChange.objects.filter(game=game).exists()


def test_a_game_of_two_people_and_a_bot_goes_on_when_one_deletes_their_account(
    client, every_game_rated
):
    """A bot plays the seat of the account deleted, and the other person and the game's bot
    finish the game; it is rated for them, not for the account deleted, which gets no mail."""
    me, other = UserFactory(display_name="Leaver"), UserFactory()
    game = started_game([me, other], bots="easy", seat_count=3)
    mine = Seat.objects.get(game=game, user=me)
    client.force_login(me)
    assert client.post(DELETE, {"password": PASSWORD}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    mine.refresh_from_db()
    assert mine.resigned and mine.departed and mine.played_by_bot
    play_on(game, until=lambda game: Move.objects.filter(game=game, seat=mine.index).exists())
    assert Move.objects.get(game=game, seat=mine.index).by_bot
    client.force_login(other)
    table = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "deleted player" in table and "Leaver" not in table
    finish_game(game)
    assert game.status == Game.Status.FINISHED
    rated = set(RatingChange.objects.filter(game=game).values_list("user_id", flat=True))
    assert rated == {other.pk, game.seats.get(user__is_bot=True).user_id}
    assert not Notification.objects.filter(user=me).exists()
    replay = client.get(reverse("game_replay", args=[game.pk])).content.decode()
    assert "deleted player" in replay and "Leaver" not in replay


def test_two_deleted_accounts_do_not_collide(client):
    first, second = UserFactory(), UserFactory()
    for user in (first, second):
        client.force_login(user)
        assert client.post(DELETE, {"password": PASSWORD}).status_code == 302
    assert User.objects.filter(username__startswith="~deleted-").count() == 2


def test_downloading_my_data_gives_everything_about_me_and_no_hand(client, every_game_rated):
    me, a, b, playing, hosting, finished, waiting = leaving_player()
    friends.follow_create(follower=me, followee=a)
    friends.follow_create(follower=b, followee=me)  # b's follow is b's data, not mine
    client.force_login(me)
    response = client.get(reverse("account_data"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="threethirteen-{me.username}.json"'
    )
    data = json.loads(response.content)
    assert set(data) == {
        "account", "preferences", "vacations", "push_devices", "games", "ratings", "invitations",
        "following", "moves", "chat_messages",
    }  # fmt: skip
    assert data["account"]["email"] == me.email and data["account"]["display_name"] == "Leaver"
    assert "password" not in data["account"] and "pbkdf2" not in response.content.decode()
    assert data["preferences"]["turn_mail"] == "digest"
    assert len(data["vacations"]) == 1
    games = {game["id"]: game for game in data["games"]}
    assert set(games) == {playing.pk, hosting.pk, finished.pk}
    won = games[finished.pk]
    assert won["end_reason"] == "resigned"
    assert [(p["name"], p["rank"]) for p in won["players"]] == [("Leaver", 1), (a.name, 2)]
    assert [p["name"] for p in games[playing.pk]["players"]] == [a.name, "Leaver", b.name]
    assert [r["game"] for r in data["ratings"]] == [finished.pk]
    assert {(i["game"], i["direction"]) for i in data["invitations"]} == {
        (waiting.pk, "received"),
        (hosting.pk, "sent"),
    }
    assert [follow["name"] for follow in data["following"]] == [a.name]
    # No card of any hand: not the game's state, not the seat's own card order.
    text = response.content.decode()
    for word in ("hand", "state", "seed", "deadwood", "melds"):
        assert f'"{word}' not in text, word
    assert (
        reverse("account_data") in client.get(reverse("notification_preferences")).content.decode()
    )


def test_my_data_holds_my_own_moves_and_chat_messages_and_no_one_elses(client):
    other, me = UserFactory(), UserFactory()
    game = started_game([other, me])
    play_on(game, until=lambda game: game.version >= 12)
    chat.chat_post(game_id=game.pk, user=me, text="Good luck!")
    chat.chat_post(game_id=game.pk, user=other, text="Not yours to download")
    client.force_login(me)
    data = json.loads(client.get(reverse("account_data")).content)
    assert [(m["game"], m["text"]) for m in data["chat_messages"]] == [(game.pk, "Good luck!")]
    mine = Move.objects.filter(game=game, seat=1).order_by("seq")
    assert mine.count() >= 4 and Move.objects.filter(game=game, seat=0).exists()
    assert [(m["game"], m["seq"]) for m in data["moves"]] == [(game.pk, m.seq + 1) for m in mine]
    # My own draws from the stock name the card I drew: I held it.
    assert [m["card"] for m in data["moves"]] == [m.record["card"] for m in mine]
    assert {m["type"] for m in data["moves"]} >= {"draw", "discard"}


def test_the_data_download_is_a_get_for_a_signed_in_player(client):
    assert client.get(reverse("account_data")).status_code == 302
    client.force_login(UserFactory())
    assert client.post(reverse("account_data")).status_code == 405
