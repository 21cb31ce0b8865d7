"""The API's answers match their schemas once a game has more in it than a deal: a seat that went
out shows its melds."""

import pytest

from games.engine import GameState
from tests.api.helpers import Api, token_for
from tests.factories import UserFactory, play_on, started_game

pytestmark = pytest.mark.django_db


def shows_melds(game) -> bool:
    return any(GameState.from_dict(game.state).view(None).shown_melds)


def test_a_seats_shown_melds_are_lists_of_cards(client):
    ann, bob = UserFactory(), UserFactory()
    game = started_game([ann, bob])
    play_on(game, until=shows_melds)
    assert shows_melds(game)
    answer = Api(client, token_for(ann)).get(f"/games/{game.pk}")
    assert answer.status_code == 200, answer.content
    public = GameState.from_dict(game.state).view(None)
    assert [seat["melds"] for seat in answer.json()["seats"]] == [
        [[card.token for card in meld] for meld in melds] for melds in public.shown_melds
    ]
