"""What each mail says (games/notifications/compose.py): the player's own table, the invitation,
the ranking and scoresheet, a name from before the one-line check."""

import pytest
from django.core import mail
from django.urls import reverse

from games import invitations, services
from games.engine import GameState, Rules
from games.errors import GameError
from games.models import Notification
from games.notifications import compose, previews
from games.presentation import card_info
from tests.factories import UserFactory, started_game
from tests.notifications.helpers import (
    html_of,
    links_in,
    local,
    play_turn,
    seat_to_move,
    send_all,
    two_people,
)

pytestmark = pytest.mark.django_db


def test_the_your_turn_email_shows_the_players_own_table_and_links_back():
    game, _users = two_people(time_per_move_days=3)
    seat = seat_to_move(game)
    send_all()
    message = mail.outbox[0]
    assert message.subject == f"Your turn in game #{game.pk}"
    html, text = html_of(message), message.body
    state = GameState.from_dict(game.state)
    mine = {card_info(c).label for c in state.hands[seat.index]}
    theirs = {card_info(c).label for c in state.hands[1 - seat.index]}
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand"))
    assert set(hand_line.split(": ")[1].split()) == mine
    for label in theirs:  # one deck: no card of theirs can be shown as one of mine
        assert label not in text and label not in html
    assert "Round 1 of 11" in text and "3s are wild" in text and "due by" in text
    play_url = f"http://127.0.0.1:8000/games/{game.pk}/"
    assert play_url in text and f'href="{play_url}"' in html


def test_the_host_invites_a_player_by_name_or_email_once_and_the_link_opens_the_game(client):
    host, friend = UserFactory(), UserFactory(username="Friend")
    game = services.game_create(creator=host, rules=Rules(), seat_count=3, time_per_move_days=2)
    client.force_login(host)
    response = client.post(reverse("game_invite", kwargs={"game_id": game.pk}), {"who": "friend"})
    assert response.status_code == 302
    assert invitations.game_invite(game_id=game.pk, user=host, who="FRIEND") is None  # again
    again = invitations.game_invite(game_id=game.pk, user=host, who=friend.email)
    nobody = invitations.game_invite(game_id=game.pk, user=host, who="nobody@example.com")
    assert again.invitee is None and nobody.invitee is None  # recorded alike; no mail
    assert Notification.objects.filter(kind="invitation").count() == 1
    send_all()
    message = mail.outbox[0]
    assert message.to == [friend.email] and host.name in message.subject
    assert "2 days per move" in message.body
    join = next(link for link in links_in(message.body) if "/invite/" in link)
    client.force_login(friend)
    page = client.get(local(join), follow=True)
    assert page.status_code == 200 and "Take a seat" in page.content.decode()
    services.game_join(game_id=game.pk, user=friend)
    with pytest.raises(GameError, match="creator"):
        invitations.game_invite(game_id=game.pk, user=friend, who=host.username)


def test_game_over_sends_each_person_the_ranking_and_the_scoresheet():
    game = started_game([UserFactory() for _ in range(3)])
    users = [seat.user for seat in game.seats.select_related("user")]
    loser, quitter = users[:2]
    services.game_resign(game_id=game.pk, user=quitter)  # a bot plays on
    Notification.objects.all().delete()
    services.game_resign(game_id=game.pk, user=loser)  # the last two: it ends
    rows = Notification.objects.filter(kind="game_over")
    assert sorted(rows.values_list("user", flat=True)) == sorted(u.pk for u in users)
    send_all()
    assert len(mail.outbox) == 2  # not to the loser, whose resignation ended it
    winner = users[2]
    to_winner = next(m for m in mail.outbox if m.to == [winner.email])
    assert f"{winner.name} won" in to_winner.subject
    assert "you came 1st" in to_winner.body and "Scoresheet" in to_winner.body
    assert "(resigned)" in to_winner.body
    assert f"/games/{game.pk}/replay/" in html_of(to_winner)


def test_the_game_over_mail_says_1_point_not_1_points():
    user = UserFactory()
    context = previews.sample_context("game_over", user)
    context["my_total"] = 1
    for entry, total in zip(context["ranking"], (1, 2, 0), strict=True):
        entry["total"] = total
    _subject, text, html = compose.render_email("game_over", context)
    for body in (text, html):
        assert "1 points" not in body
        assert "with 1 point." in body and "2 points" in body and "0 points" in body


def test_a_name_with_a_line_break_from_before_the_check_still_gets_its_mail():
    game, users = two_people()
    mover = seat_to_move(game).user
    bob = next(u for u in users if u.pk != mover.pk)
    type(bob).objects.filter(pk=bob.pk).update(display_name="Bob\nSmith")
    services.game_resign(game_id=game.pk, user=mover)  # Bob wins: every subject names him
    send_all(kind="game_over")
    assert Notification.objects.filter(kind="game_over", status="sent").count() == 1
    assert [m.subject for m in mail.outbox] == [f"Game #{game.pk} is over: Bob Smith won"]


def test_a_bot_is_named_in_the_recipients_language():
    """The site's bots keep English names on their rows and are named in each reader's language
    (accounts.models.SITE_BOT_NAMES), in mails as on the pages."""
    from django.utils import translation

    from accounts.models import SITE_BOT_NAMES

    dutch = UserFactory(language="nl")
    game = started_game([dutch], bots="hard", seat_count=2, time_per_move_days=3)
    Notification.objects.exclude(user=dutch).delete()
    while seat_to_move(game).user != dutch:
        play_turn(game)
    send_all()
    with translation.override("nl"):
        name = str(SITE_BOT_NAMES["Hard Bot"])
    body = mail.outbox[-1].body
    assert name != "Hard Bot" and name in body and "Hard Bot" not in body
