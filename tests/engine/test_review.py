"""The game review's judge (games/engine/bots/review.py): what it prices, from what view."""

import random

import pytest

from games.engine import Discard, Draw, GameState, GoOut, Rules, get_bot
from games.engine.bots.review import ACCURATE_WITHIN, judge, review


def played(rules: Rules, players: int, seed: str, levels: list[str], rounds: int = 99):
    """A game between bots, whole or its first `rounds` rounds: its moves as (action, by a bot:
    False) and its state at the end."""
    bots = [
        get_bot(level, time_cap=False) if level == "hard" else get_bot(level) for level in levels
    ]
    rng, state, moves = random.Random(f"{seed}:bots"), GameState.new(rules, players, seed), []
    while not state.is_over and state.round_index < rounds:
        action = bots[state.to_move].choose(state.view(state.to_move), rng)
        moves.append((action, False))
        state.apply(action)
    return moves, state


def figures(rules, players, seed, moves):
    judged, accurate, lost = {}, {}, {}
    for reviewed in review(rules, players, seed, moves, range(players), range(rules.round_count)):
        judged[reviewed.seat] = judged.get(reviewed.seat, 0) + len(reviewed.decisions)
        accurate[reviewed.seat] = accurate.get(reviewed.seat, 0) + reviewed.accurate
        lost[reviewed.seat] = lost.get(reviewed.seat, 0) + reviewed.lost
    return judged, accurate, lost


def test_the_review_ranks_the_levels_as_they_play():
    """Random play gives up far more than the medium level, which gives up more than hard."""
    rules = Rules()
    for weak, strong in (("random", "medium"), ("medium", "hard")):
        moves, _end = played(rules, 2, "rv0", [weak, strong])
        judged, accurate, lost = figures(rules, 2, "rv0", moves)
        assert lost[0] > lost[1], (weak, strong, lost)
        assert accurate[0] / judged[0] < accurate[1] / judged[1], (weak, strong)
    assert accurate[1] / judged[1] > 0.9  # hard agrees with its own measure nearly always


def test_every_round_of_every_seat_is_reviewed_once_and_autopilot_is_not_judged():
    rules = Rules()
    moves, _state = played(rules, 3, "rv-three", ["medium", "easy", "medium"])
    by_bot = [(action, action.seat == 1) for action, _ in moves]  # seat 1 on autopilot
    reviewed = list(review(rules, 3, "rv-three", by_bot, [0, 1], range(rules.round_count)))
    assert [(r.round_index, r.seat) for r in reviewed] == [
        (n, seat) for n in range(rules.round_count) for seat in (0, 1)
    ]
    assert not any(r.decisions for r in reviewed if r.seat == 1)
    assert all(r.decisions for r in reviewed if r.seat == 0)
    only = list(review(rules, 3, "rv-three", moves, [2], [4]))
    assert [(r.round_index, r.seat) for r in only] == [(4, 2)]


def test_a_decision_holds_only_the_seat_s_own_hand_and_the_top_discard():
    """Hidden information: what a decision stores is what its seat saw when it chose."""
    rules = Rules(jokers=True, redemption=True)
    moves, _end = played(rules, 3, "rv-seen", ["medium", "random", "easy"])
    views = {}
    state = GameState.new(rules, 3, "rv-seen")
    for index, (action, _by_bot) in enumerate(moves):
        views[index] = state.view(action.seat)
        state.apply(action)
    count = 0
    for reviewed in review(rules, 3, "rv-seen", moves, range(3), range(rules.round_count)):
        for decision in reviewed.decisions:
            view = views[decision.action_index]
            assert view.seat == reviewed.seat and decision.chosen == moves[decision.action_index][0]
            assert sorted(decision.hand) == sorted(view.hand)
            assert decision.top == (view.top_discard if view.phase == "draw" else None)
            assert decision.best in view.legal_actions
            count += 1
    assert count > 300


def test_going_out_is_best_and_not_going_out_costs_the_bonus():
    """A seat that could go out and threw another card gave up at least the going-out bonus."""
    rules = Rules()
    moves, _end = played(rules, 2, "rv-out", ["medium", "medium"])
    state = GameState.new(rules, 2, "rv-out")
    found = 0
    for action, _by_bot in moves:
        view = state.view(action.seat)
        outs = [a for a in view.legal_actions if isinstance(a, GoOut)]
        if outs and not view.last_turns:
            throws = [a for a in view.legal_actions if isinstance(a, Discard)]
            skipped = judge(view, throws[0])
            assert skipped is not None and isinstance(skipped.best, GoOut)
            assert skipped.cost >= 2.5 * view.hand_size - 0.01  # the two-player bonus at least
            went = judge(view, outs[0])
            assert went is not None and went.cost == 0 and went.accurate
            found += 1
        state.apply(action)
    assert found >= 5


def test_a_forced_choice_is_not_judged():
    state = GameState.new(Rules(), 2, "rv-forced")
    view = state.view(state.to_move)
    assert len(view.legal_actions) == 2  # the stock or the discard
    assert judge(view, view.legal_actions[0]) is not None
    forced = [a for a in view.legal_actions if isinstance(a, Draw)][:1]
    assert judge(_with(view, forced), forced[0]) is None


def _with(view, legal):
    from dataclasses import replace

    return replace(view, legal_actions=tuple(legal))


@pytest.mark.parametrize(
    ("seed", "players", "jokers"),
    [("a", 2, False), ("b", 3, True), ("c", 4, False), ("d", 5, True)],
)
def test_costs_are_never_negative_and_accuracy_is_of_the_judged(seed, players, jokers):
    rules = Rules(jokers=jokers)
    levels = ["random", "medium", "easy", "hard", "random"][:players]
    moves, _end = played(rules, players, seed, levels, rounds=2)
    for reviewed in review(rules, players, seed, moves, range(players), range(2)):
        assert all(d.cost >= 0 for d in reviewed.decisions)
        assert reviewed.accurate == sum(d.cost < ACCURATE_WITHIN for d in reviewed.decisions)
        assert 0 <= reviewed.accurate <= len(reviewed.decisions)
