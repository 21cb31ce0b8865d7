"""A tournament's mail: a round's start is its table's own 'started' or 'your turn' mail, naming
the tournament and round; its end tells each person their place, in their language, under the
game-over preference, never to a bot."""

import pytest
from django.core import mail

from accounts.selectors import preferences_of
from games.competitions import tournaments
from games.models import Notification
from tests.competitions.helpers import finish_round, with_players
from tests.notifications.helpers import html_of, send_all

pytestmark = pytest.mark.django_db


def test_a_rounds_table_mail_names_the_tournament_and_round():
    tournament = with_players(2, seats_per_table=2, rounds=2)
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    send_all()
    assert len(mail.outbox) == 2  # one hears it started, the other that it is their turn
    for message in mail.outbox:
        assert "Spring cup · Round 1" in message.body and "Spring cup · Round 1" in html_of(message)


def test_the_end_tells_each_person_their_place_in_their_language():
    tournament = with_players(3, seats_per_table=3, rounds=1)
    people = list(tournament.entries.select_related("user").order_by("pk"))
    type(people[1].user).objects.filter(pk=people[1].user.pk).update(language="cs")
    preferences = preferences_of(people[2].user)
    preferences.game_over = False
    preferences.save()
    tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.created_by)
    finish_round(tournament)
    mail.outbox.clear()
    send_all(Notification.Kind.TOURNAMENT)
    rows = Notification.objects.filter(kind=Notification.Kind.TOURNAMENT)
    assert rows.count() == 3
    assert rows.get(user=people[2].user).status == Notification.Status.SKIPPED
    by_address = {m.to[0]: m for m in mail.outbox}
    assert set(by_address) == {people[0].user.email, people[1].user.email}
    place = tournament.entries.get(user=people[0].user).place
    english = by_address[people[0].user.email]
    assert english.subject == f"Spring cup is over: you placed {place} of 3"
    assert f"/tournaments/{tournament.pk}/" in english.body
    czech = by_address[people[1].user.email]
    assert "Spring cup" in czech.subject and "is over" not in czech.subject
