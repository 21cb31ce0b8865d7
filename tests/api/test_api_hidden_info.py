"""Whole games played through the API by two people with tokens (and a site bot), every answer
scanned for cards its reader may not see (tests/hidden.py, as tests/test_hidden_info.py does for
the pages): a player's never carry another seat's hand, the stock, or the pile below its top but
for the cards that went by in plain sight; a spectator's never carry a hand at all. Cards of
finished rounds (round_results, the history of earlier rounds) were shown to everyone."""

import random

import pytest
from django.test import Client

from games import services
from games.engine import GameState, Rules, get_bot
from games.models import Game
from games.presentation import card_info
from tests.api.helpers import Api, token_for
from tests.api.walk import hands_in, leaves
from tests.factories import UserFactory, play_on, started_game
from tests.hidden import hidden_from

pytestmark = [pytest.mark.hidden_info, pytest.mark.django_db]
PATHS = {"draw": "draw", "discard": "discard", "go_out": "go-out"}


def past(current_round: int):
    """What a scan leaves out: the results of finished rounds (their hands were laid open) and
    the history lines of earlier rounds."""

    def skip(key, value) -> bool:
        if key == "round_results":
            return True
        return (
            isinstance(value, dict)
            and {"seq", "round", "text"} <= set(value)
            and (value["round"] != current_round)
        )

    return skip


def check(response, game: Game, viewer: int | None, one_deck: bool) -> int:
    """The answer carries no card its reader may not know; how many such cards there were."""
    assert response.status_code < 500, response.content[:300]
    if response.status_code == 204:
        return 0
    body = response.json()
    game.refresh_from_db()
    state = GameState.from_dict(game.state)
    hands = hands_in(body)
    if viewer is None:
        assert not hands, f"a spectator was shown {hands}"
    else:
        own = sorted(c.token for c in state.hands[viewer])
        assert all(sorted(hand) == own for hand in hands), f"seat {viewer} was shown {hands}"
    if state.is_over:
        return 0
    hidden = hidden_from(game, state, viewer)
    strings = list(leaves(body, past(state.round_index + 1)))
    leaked = {c.token for c in hidden} & set(strings)
    assert not leaked, f"seat {viewer} was shown {leaked}"
    if one_deck:  # every face is one physical card: its name must not appear in words either
        text = " ".join(strings)
        names = {card_info(c).label for c in hidden} | {card_info(c).name for c in hidden}
        leaked = {name for name in names if name in text}
        assert not leaked, f"seat {viewer} read {leaked}"
    return len(hidden)


@pytest.mark.parametrize(
    ("rules", "players", "bots", "first", "last"),
    [(Rules(), 2, None, 9, 10), (Rules(jokers=True, redemption=True), 3, "easy", 0, 2)],
    ids=["two people, the last two rounds", "two people and a bot, jokers, three rounds"],
)
def test_no_api_answer_carries_a_card_its_reader_may_not_see(
    settings, rules, players, bots, first, last
):
    """Rounds `first` to `last` through the API, every answer scanned (the rounds before,
    through the services unscanned: the last ones hold the most cards, and a game's end)."""
    settings.RATE_LIMITS = {action: (10**9, 60) for action in settings.RATE_LIMITS}
    humans = [UserFactory() for _ in range(2)]
    game = started_game(humans, rules=rules, bots=bots, seat_count=players)  # listed: watchable
    play_on(game, until=lambda game: game.round_index >= first, level="medium")
    one_deck = rules.deck_count(players) == 1 and not rules.jokers
    apis = {
        seat.index: Api(Client(), token_for(seat.user))
        for seat in game.seats.select_related("user")
        if not seat.user.is_bot
    }
    spectator = Api(Client(), token_for(UserFactory()))
    base = f"/games/{game.pk}"
    rng = random.Random(players)
    checked = 0
    for step in range(100_000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or game.round_index > last:
            break
        for seat, api in apis.items():  # everyone looks, as a program would between turns
            if step % 5 == 0 or seat == game.to_move_seat:
                checked += check(api.get(f"{base}/view"), game, seat, one_deck)
            if step % 11 == 0:
                checked += check(api.get(base), game, seat, one_deck)
                checked += check(api.get(f"{base}/history"), game, seat, one_deck)
                checked += check(api.get(f"{base}/chat"), game, seat, one_deck)
                checked += check(api.get("/games", filter="waiting"), game, seat, one_deck)
        if step % 7 == 0:
            for path in ("/view", "", "/history"):
                checked += check(spectator.get(base + path), game, None, one_deck)
        mover = game.to_move_seat
        if mover not in apis:
            assert services.bot_play_turn(game_id=game.pk, version=game.version)
            continue
        api = apis[mover]
        if step % 23 == 0:  # a stale move and a word in the chat: their answers too
            stale = api.post(f"{base}/discard", {"version": game.version + 1, "card": "7H"})
            assert stale.status_code == 409
            checked += check(stale, game, mover, one_deck)
            said = api.post(f"{base}/chat", {"text": "your move soon"})
            checked += check(said, game, mover, one_deck)
        # Mostly good play, so rounds end by going out; now and then any legal action.
        state = GameState.from_dict(game.state)
        if step % 8:
            choice = get_bot("medium").choose(state.view(mover), rng).to_dict()
        else:
            choice = rng.choice(api.get(f"{base}/view").json()["legal_actions"])
        body = {
            "version": game.version,
            **{k: choice[k] for k in ("source", "card") if k in choice},
        }
        response = api.post(f"{base}/{PATHS[choice['type']]}", body)
        assert response.status_code == 200, response.content.decode()[:500]
        checked += check(response, game, mover, one_deck)
    game.refresh_from_db()
    assert game.round_index > last or game.status == Game.Status.FINISHED
    assert game.status == (Game.Status.FINISHED if last == rules.round_count - 1 else
                           Game.Status.ACTIVE)  # fmt: skip
    assert checked > 1000  # the scan saw many hidden cards, so it could have caught a leak


def test_the_facts_show_the_melds_laid_down_by_who_went_out(settings):
    """The public melds the scan allows: a seat's melds, each a list of cards (a 500 before)."""
    settings.RATE_LIMITS = {action: (10**9, 60) for action in settings.RATE_LIMITS}
    humans = [UserFactory(), UserFactory()]
    game = started_game(humans, rules=Rules())
    play_on(game, until=lambda g: any(GameState.from_dict(g.state).shown_melds), level="medium")
    state = GameState.from_dict(game.state)
    answer = Api(Client(), token_for(humans[0])).get(f"/games/{game.pk}")
    assert answer.status_code == 200, answer.content[:300]
    melds = [seat["melds"] for seat in answer.json()["seats"]]
    assert melds == [[[c.token for c in meld] for meld in seat] for seat in state.shown_melds]


def test_a_finished_rounds_hands_are_left_to_round_results(settings):
    """What the scan leaves out is what the table shows everyone once a round ends."""
    settings.RATE_LIMITS = {action: (10**9, 60) for action in settings.RATE_LIMITS}
    humans = [UserFactory(), UserFactory()]
    game = started_game(humans, rules=Rules())
    play_on(game, until=lambda game: game.round_index >= 1)
    api = Api(Client(), token_for(humans[0]))
    view = api.get(f"/games/{game.pk}/view").json()
    assert view["round_results"] and view["round_index"] == 1
