"""Invitations by name or email: on the invitee's dashboard, accepted (a seat, even at a private
game) or declined (the host sees it), refused with a 4xx when the game cannot take them; and
rematches, which re-seat the bots and invite the people."""

import re

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import invitations, services
from games.competitions import quick
from games.engine import GameState, Rules
from games.errors import GameError
from games.models import Game, Invitation, Notification, Seat
from tests.factories import UserFactory, play_one, started_game, wide

pytestmark = pytest.mark.django_db


def private_game(host, seat_count=3, **options):
    return services.game_create(
        creator=host,
        rules=Rules(),
        seat_count=seat_count,
        time_per_move_days=2,
        is_public=False,
        **options,
    )


def invite(game, host, who):
    return invitations.game_invite(game_id=game.pk, user=host, who=who)


def dashboard(client, user) -> str:
    client.force_login(user)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def section(html: str, title: str) -> str:
    """The dashboard section under this heading."""
    start = html.index(f"<h2>{title}")
    return html[start : html.index("</section>", start)]


def test_an_invitation_by_name_shows_on_the_invitees_dashboard_and_accepting_takes_a_seat(client):
    host, friend = UserFactory(display_name="Hostess"), UserFactory(username="Friend")
    game = private_game(host)
    client.force_login(host)
    sent = client.post(reverse("game_invite", kwargs={"game_id": game.pk}), {"who": "friend"})
    assert sent.status_code == 302
    invitation = Invitation.objects.get(game=game)
    assert (invitation.invitee, invitation.invited_by, invitation.status) == (
        friend,
        host,
        "pending",
    )
    assert Notification.objects.filter(kind="invitation", user=friend).exists()

    html = dashboard(client, friend)
    invited = section(html, "Invitations")
    assert f"Hostess invites you to game #{game.pk}" in invited
    assert reverse("invitation_accept", args=[invitation.pk]) in invited
    assert "None." not in invited

    response = client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert response.status_code == 302 and response.url == reverse("game", args=[game.pk])
    assert game.seats.filter(user=friend).exists()  # a private game: they were invited
    invitation.refresh_from_db()
    assert invitation.status == "accepted" and invitation.answered_at is not None
    html = dashboard(client, friend)
    assert "None." in section(html, "Invitations")
    assert f"#{game.pk}" in section(html, "Waiting to start")
    # The host's page says they accepted.
    page = dashboard(client, host) and client.get(reverse("game", args=[game.pk]))
    assert "Accepted" in page.content.decode()


def test_declining_removes_the_invitation_and_the_host_sees_who_declined(client):
    host, friend = UserFactory(), UserFactory(username="shy")
    game = private_game(host)
    invitation = invite(game, host, "shy")
    invite(game, host, "nobody-here@example.com")
    client.force_login(friend)
    response = client.post(reverse("invitation_decline", args=[invitation.pk]))
    assert response.status_code == 302
    assert "None." in section(dashboard(client, friend), "Invitations")
    assert not game.seats.filter(user=friend).exists()
    client.force_login(host)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    listed = page[page.index("<h2>Invited") :]
    assert "shy" in listed and "Declined" in listed
    # A name that is no player here is listed like any other: nothing tells the host.
    assert "nobody-here@example.com" in listed
    # Answered once only.
    again = client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert again.status_code in (404, 409)


def test_the_host_is_told_the_same_whether_or_not_the_player_exists(client):
    host, friend = UserFactory(), UserFactory(username="real")
    game = private_game(host)
    client.force_login(host)
    url = reverse("game_invite", kwargs={"game_id": game.pk})
    answers = [client.post(url, {"who": who}, follow=True) for who in ("real", "ghost")]
    messages = [
        [str(m).replace(who, "…") for m in a.context["messages"]]
        for a, who in zip(answers, ("real", "ghost"), strict=True)
    ]
    assert messages[0] == messages[1]  # the same words, but for the name the host typed
    assert Invitation.objects.filter(game=game).count() == 2
    assert Invitation.objects.get(invited_as="ghost").invitee is None
    assert friend.invitations.count() == 1


@pytest.mark.parametrize("why", ["full", "started", "cancelled"])
def test_accepting_an_invitation_the_game_cannot_honour_is_a_clear_409_and_changes_nothing(
    client, why
):
    host, friend, other = UserFactory(), UserFactory(), UserFactory()
    game = private_game(host, seat_count=2, start_when_full=False)
    invitation = invite(game, host, friend.username)
    services.game_join(game_id=game.pk, user=other, invite_code=game.invite_code)  # the last seat
    expected = "This game is full."
    if why == "started":
        services.game_start(game_id=game.pk, user=host)
        expected = "This game has already started or ended."
    elif why == "cancelled":
        services.game_leave(game_id=game.pk, user=host)
        expected = "This game was cancelled."
    seats = list(Seat.objects.filter(game=game).values_list("pk", flat=True))
    client.force_login(friend)
    response = client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert response.status_code == 409
    assert expected in response.content.decode()
    assert list(Seat.objects.filter(game=game).values_list("pk", flat=True)) == seats
    invitation.refresh_from_db()
    assert invitation.status == "pending" and invitation.answered_at is None


def test_only_the_invitee_answers_and_only_by_post_with_a_csrf_token():
    host, friend, stranger = UserFactory(), UserFactory(), UserFactory()
    game = private_game(host)
    invitation = invite(game, host, friend.email)
    accept = reverse("invitation_accept", args=[invitation.pk])
    client = Client(enforce_csrf_checks=True)
    client.force_login(stranger)
    assert client.get(accept).status_code == 405
    page = client.get(reverse("home"))
    token = page.cookies["csrftoken"].value
    assert client.post(accept).status_code == 403  # no token
    assert client.post(accept, {"csrfmiddlewaretoken": token}).status_code == 404  # not theirs
    with pytest.raises(GameError):
        invitations.invitation_decline(invitation_id=invitation.pk, user=host)
    client.force_login(friend)
    token = client.get(reverse("home")).cookies["csrftoken"].value
    assert client.post(accept, {"csrfmiddlewaretoken": token}).status_code == 302
    assert game.seats.filter(user=friend).exists()


def test_invitation_constraints_hold_in_the_database():
    host, friend = UserFactory(), UserFactory()
    game = private_game(host)
    invite(game, host, friend.username)
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(game=game, invitee=friend, invited_by=host, invited_as="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(game=game, invited_by=host, invited_as=friend.username.upper())
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(game=game, invitee=host, invited_by=host, invited_as="me")
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(
            game=game, invited_by=host, invited_as="ghost", status="declined", answered_at=None
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(  # only a player can answer
            game=game,
            invited_by=host,
            invited_as="g2",
            status="declined",
            answered_at=timezone.now(),
        )


# -- rematch -----------------------------------------------------------------------------------


def finished_game(users, **options):
    game = started_game(users, **options)
    services.game_resign(game_id=game.pk, user=users[-1])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_a_rematch_has_the_same_rules_seats_bots_and_invites_the_other_people(client):
    alice, bob = UserFactory(), UserFactory()
    rules = Rules(rounds="extended", jokers=True)
    old = finished_game(
        [alice, bob], rules=rules, seat_count=3, bots="easy", time_per_move_days=3, is_public=False
    )
    bot = old.seats.get(user__is_bot=True).user
    client.force_login(bob)
    response = client.post(reverse("game_rematch", args=[old.pk]))
    new = Game.objects.get(rematch_of=old)
    assert response.status_code == 302 and response.url == reverse("game", args=[new.pk])
    assert (new.status, new.rules, new.seat_count, new.time_per_move_days, new.is_public) == (
        "open",
        old.rules,
        3,
        3,
        False,
    )
    assert dict(new.seats.values_list("index", "user")) == {0: bob.pk, 1: bot.pk}
    [invitation] = new.invitations.all()
    assert (invitation.invitee, invitation.invited_by) == (alice, bob)
    assert Notification.objects.filter(kind="invitation", user=alice, game=new).exists()
    # Alice asks for a rematch too: she takes the seat in that one, no second game.
    client.force_login(alice)
    response = client.post(reverse("game_rematch", args=[old.pk]))
    assert response.url == reverse("game", args=[new.pk])
    assert Game.objects.filter(rematch_of=old).count() == 1
    assert new.seats.count() == 3
    invitation.refresh_from_db()
    assert invitation.status == "accepted"


def test_a_rematch_is_for_players_of_a_finished_game_only(client):
    alice, bob = UserFactory(), UserFactory()
    game = started_game([alice, bob])
    client.force_login(alice)
    response = client.post(reverse("game_rematch", args=[game.pk]))
    assert response.status_code == 409 and "finished game" in response.content.decode()
    client.force_login(UserFactory())
    services.game_resign(game_id=game.pk, user=bob)
    assert client.post(reverse("game_rematch", args=[game.pk])).status_code == 403
    assert client.post(reverse("game_rematch", args=[99999])).status_code == 404
    assert not Game.objects.filter(rematch_of=game).exists()


@pytest.mark.slow  # a whole game, move by move
def test_the_round_column_follows_every_move():
    users = [UserFactory(), UserFactory()]
    game = started_game(users)
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    while game.round_index == 0 and game.status == "active":
        play_one(game, by_seat)
        assert game.round_index == GameState.from_dict(game.state).round_index
    assert game.round_index == 1


@pytest.mark.parametrize(
    "who",
    ["me", "ME@example.com", "Me Myself", wide("me MYSELF"), "bot-easy", "Easy Bot", "easy bot"],
)
def test_inviting_yourself_or_a_bot_is_refused_with_the_reason(client, who):
    from accounts.services import bots_ensure

    bots_ensure()
    host = UserFactory(username="me", email="me@example.com", display_name="Me Myself")
    game = private_game(host)
    client.force_login(host)
    response = client.post(reverse("game_invite", kwargs={"game_id": game.pk}), {"who": who})
    assert response.status_code == 400
    yourself = who.startswith(("me", "ME", "Me", wide("me")))
    reason = "You cannot invite yourself" if yourself else "Bots are not invited"
    assert reason in response.content.decode()
    assert not Invitation.objects.filter(game=game).exists()


def test_a_player_is_invited_by_the_name_the_table_shows_as_well(client):
    """Shown names are unique as they read (case, width), so the name a host sees at a table
    names one player, as surely as a user name."""
    host, guest = UserFactory(), UserFactory(username="g-7731", display_name="Olga Novak")
    game = private_game(host)
    client.force_login(host)
    client.post(
        reverse("game_invite", kwargs={"game_id": game.pk}), {"who": wide("OLGA") + " novak"}
    )
    assert Invitation.objects.get(game=game).invitee == guest


def test_the_answer_to_an_invitation_claims_no_more_than_is_known(client):
    host = UserFactory()
    game = private_game(host)
    client.force_login(host)
    answer = client.post(
        reverse("game_invite", kwargs={"game_id": game.pk}), {"who": "ghost"}, follow=True
    )
    words = [str(m) for m in answer.context["messages"]]
    assert words == ["If a player has the name “ghost”, they will see your invitation."]


def test_a_refused_answer_shows_the_whole_dashboard_with_quick_play_and_the_open_seeks(client):
    """The dashboard a refusal shows is the home page's: quick play's form with its fields, and
    the player's open seeks (games/selectors/dashboard.py), not a card of "None."."""
    host, friend = UserFactory(), UserFactory()
    game = private_game(host, seat_count=2)
    invitation = invite(game, host, friend.username)
    services.game_leave(game_id=game.pk, user=host)  # cancelled: the answer is refused
    quick.seek_create(player=friend, seats=3, preset="classic", time_per_move_days=3)
    client.force_login(friend)
    response = client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert response.status_code == 409
    html = response.content.decode()
    assert "This game was cancelled." in html
    play = section(html, "Quick play")
    assert 'name="seats"' in play and 'name="preset"' in play and "Find me a game" in play
    seeks = section(html, "Looking for a game")
    assert "3 players" in seeks and "None." not in seeks


def test_the_dashboard_hears_of_a_rematch_without_a_reload(client):
    """The dashboard's invitations poll (every 15 s while shown): 204 while nothing changed,
    the section with the new invitation once a rematch is offered."""
    alice, bob = UserFactory(), UserFactory(display_name="Bobby")
    game = started_game([alice, bob])
    services.game_resign(game_id=game.pk, user=alice)  # finished
    client.force_login(alice)
    html = dashboard(client, alice)
    poll = re.search(r'id="invitations" hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert client.get(poll).status_code == 204  # nothing new: an empty answer

    rematch = invitations.game_rematch(game_id=game.pk, user=bob)
    answer = client.get(poll)
    assert answer.status_code == 200
    part = answer.content.decode()
    assert part.lstrip().startswith('<section class="card" id="invitations"')
    assert f"Bobby invites you to game #{rematch.pk}" in part
    assert reverse("invitation_accept", args=[Invitation.objects.get(game=rematch).pk]) in part
    # The section it brings polls with the new mark: nothing new again.
    again = re.search(r'hx-get="([^"]+)"', part).group(1).replace("&amp;", "&")
    assert client.get(again).status_code == 204


def test_the_invitations_poll_of_a_lapsed_session_goes_to_the_login(client):
    response = client.get(
        reverse("invitations_waiting"), {"i": "x"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200 and response["HX-Redirect"].startswith("/accounts/login/")
