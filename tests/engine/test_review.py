"""The game review's judge (games/engine/bots/review.py): what it prices, from what view."""

import random

import pytest

from games.engine import Discard, Draw, GameState, GoOut, Rules, arrange, get_bot
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


def test_going_out_is_best_and_passing_it_up_is_never_accurate():
    """A seat that could go out and threw another card: the hard bot's choice is to go out, and
    passing it up is not accurate however little it cost in the seat's own points."""
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
            assert 0 <= skipped.cost <= kept_penalty(view, throws[0])
            assert skipped.passed_out and not skipped.accurate
            went = judge(view, outs[0])
            assert went is not None and went.cost == 0 and went.accurate and not went.passed_out
            found += 1
        state.apply(action)
    assert found >= 5


def kept_penalty(view, action) -> float:
    """The least penalty the seat's hand can hold once `action` is taken (times the round's
    multiplier): it can keep that to the round's end, drawing from the stock and throwing that
    card back; so no choice can cost more."""
    hand, wild, rules = list(view.hand), view.wild_rank, view.rules
    times = rules.round_multiplier(wild)
    if isinstance(action, GoOut):
        return 0
    if isinstance(action, Discard):
        hand.remove(action.card)
        return times * arrange(hand, wild, rules).penalty
    if action.source == "stock":
        return times * arrange(hand, wild, rules).penalty
    top = view.top_discard
    left = [
        arrange([*hand[:i], *hand[i + 1 :], top], wild, rules).penalty
        for i, card in enumerate(hand)
        if (card.rank, card.suit) != (top.rank, top.suit)
    ]
    return times * min(left, default=arrange(hand, wild, rules).penalty)


@pytest.mark.parametrize(
    ("seed", "players", "levels", "rules"),
    [
        ("rv-sample", 2, ["medium", "hard"], Rules()),
        ("rv-bound3", 3, ["random", "easy", "medium"], Rules(jokers=True, double_face_rounds=True)),
    ],
)
def test_no_decision_costs_more_than_the_penalty_its_hand_could_keep(seed, players, levels, rules):
    """A choice's cost is in the seat's own penalty points: never below 0, never more than the
    least penalty the hand can hold once it is made (which it can keep to the round's end)."""
    moves, _end = played(rules, players, seed, levels, rounds=11)
    views, state = {}, GameState.new(rules, players, seed)
    for index, (action, _by_bot) in enumerate(moves):
        views[index] = state.view(action.seat)
        state.apply(action)
    reviewed = list(review(rules, players, seed, moves, range(players), range(11)))
    decisions = [(d, kept_penalty(views[d.action_index], d.chosen)) for r in reviewed
                 for d in r.decisions]  # fmt: skip
    assert len(decisions) > 100
    assert [(d, bound) for d, bound in decisions if not 0 <= d.cost <= bound + 1e-9] == []
    assert all(d.bound == pytest.approx(bound) for d, bound in decisions)


def test_a_rounds_points_given_up_add_up_and_never_pass_its_penalty():
    """Over a whole game (the medium level's seat beside the hard level's), a round's points
    given up are its decisions' costs added up, but never more than the penalty the seat ended
    the round with: no play scores below 0. So the game's are never more than its penalty."""
    rules = Rules()
    moves, end = played(rules, 2, "rv-sample", ["medium", "hard"])
    penalties = [result.penalties[0] for result in end.round_results]
    reviewed = list(review(rules, 2, "rv-sample", moves, [0], range(rules.round_count)))
    assert [r.round_index for r in reviewed] == list(range(rules.round_count))
    for r in reviewed:
        costs = sum(decision.cost for decision in r.decisions)
        assert 0 <= r.lost <= penalties[r.round_index], (r.round_index, r.lost)
        assert r.lost == pytest.approx(min(costs, penalties[r.round_index]))
        assert r.expected == pytest.approx(costs) and r.penalty == penalties[r.round_index]
    assert sum(r.lost for r in reviewed) <= sum(penalties)
    assert any(r.expected > r.penalty for r in reviewed)  # a round the cards made up for


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
