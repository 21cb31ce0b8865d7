"""The admin shows games, seats and moves, and changes none of them (the services do)."""

import pytest
from django.urls import reverse

from games.models import Game, Move, Seat
from tests.factories import MoveFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("model", [Game, Seat, Move])
def test_games_seats_and_moves_are_listed_and_shown_read_only(staff_client, model):
    move = MoveFactory()
    row = {Game: move.game, Seat: move.game.seats.first(), Move: move}[model]
    name = model._meta.model_name
    assert staff_client.get(reverse(f"admin:games_{name}_changelist")).status_code == 200
    page = staff_client.get(reverse(f"admin:games_{name}_change", args=[row.pk]))
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert staff_client.get(reverse(f"admin:games_{name}_add")).status_code == 403
    assert (
        staff_client.post(reverse(f"admin:games_{name}_delete", args=[row.pk])).status_code == 403
    )
    assert model.objects.filter(pk=row.pk).exists()
