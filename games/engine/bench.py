"""`make bench`: how fast the meld solver is, next to RLCard's gin rummy melder.

Every line times the same seeded hands. "cold" is the first pass in a fresh process (the solver's
per-suit tables start empty and fill as hands need them); "warm" is a second pass over the same
hands. RLCard keeps no state between calls, so it is timed once, hand by hand, in the cold pass.
"""

from __future__ import annotations

import gc
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from .cards import make_deck
from .melds import arrange, discard_options
from .rules import Rules

SEED = 20260101
RL_RANKS = "A23456789TJQK"


def _stats(seconds: list[float]) -> tuple[float, float]:
    ordered = sorted(seconds)
    median = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return median * 1e6, p99 * 1e6


def _time_each(fn: Callable[..., object], calls: list[tuple]) -> list[float]:
    """Wall time of fn(*args) for each args in `calls`."""
    clock = time.perf_counter
    out = []
    for args in calls:
        start = clock()
        fn(*args)
        out.append(clock() - start)
    return out


def _line(label: str, seconds: list[float]) -> float:
    median, p99 = _stats(seconds)
    print(f"  {label:<34} median {median:9.1f} us   p99 {p99:9.1f} us")
    return median


def _rlcard():
    try:
        from rlcard.games.base import Card as RLCard
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError:
        return None
    return RLCard, melding, utils


def bench_rlcard(count: int) -> float | None:
    rng = random.Random(f"{SEED}:10")
    deck = make_deck(1)
    hands = [rng.sample(deck, 10) for _ in range(count)]
    rules = Rules()
    print(f"\n10-card hands, 1 deck, no wilds, default rules ({count} hands)")
    calls = [(h, None, rules) for h in hands]
    ours_cold = _time_each(arrange, calls)
    ours_warm = _time_each(arrange, calls)
    rl = _rlcard()
    if rl is None:
        _line("ours (cold)", ours_cold)
        _line("ours (warm)", ours_warm)
        print("  RLCard not installed (pip install -e '.[bench]'): comparison skipped")
        return None
    rl_card, melding, utils = rl
    rl_hands = [[rl_card(c.suit, RL_RANKS[c.rank - 1]) for c in h] for h in hands]
    rl_times = []
    mismatches = 0
    clock = time.perf_counter
    for hand, rl_hand in zip(hands, rl_hands, strict=True):
        start = clock()
        clusters = melding.get_best_meld_clusters(rl_hand)
        rl_times.append(clock() - start)
        if clusters:
            theirs = utils.get_deadwood_count(rl_hand, clusters[0])
        else:
            theirs = sum(utils.get_deadwood_value(c) for c in rl_hand)
        mismatches += theirs != arrange(hand, None, rules).penalty
    cold = _line("ours (cold)", ours_cold)
    warm = _line("ours (warm)", ours_warm)
    theirs = _line("RLCard get_best_meld_clusters", rl_times)
    print(f"  speed-up at the median: {theirs / cold:.1f}x cold, {theirs / warm:.1f}x warm")
    print(f"  least deadwood differs from RLCard's on {mismatches} of {count} hands")
    return theirs


def _hands_with_wilds(rng, count, size, decks, wilds, wild_rank, jokers):
    deck = make_deck(decks, jokers=jokers)
    wild_cards = [c for c in deck if c.rank == wild_rank or c.is_joker]
    naturals = [c for c in deck if c not in set(wild_cards)]
    hands = []
    for _ in range(count):
        if wilds is None:
            hands.append(rng.sample(deck, size))
        else:
            hands.append(rng.sample(wild_cards, wilds) + rng.sample(naturals, size - wilds))
    return hands


def _random_rules(rng) -> Rules:
    return Rules(
        aces_high=rng.random() < 0.5,
        face_cards_by_rank=rng.random() < 0.5,
        wild_penalty=rng.choice([None, 15]),
        max_wilds_per_meld=rng.choice([None, 1]),
        all_wild_melds=rng.random() < 0.5,
        jokers=True,
    )


def bench_wild_hands(count: int, rl_median: float | None) -> None:
    rng = random.Random(f"{SEED}:wild")
    cases = [
        ("14-card hands, 2 decks, 4 wilds (5s wild)", 14, 2, 4, 5, False),
        ("16-card hands, 2 decks + jokers, 7s wild", 16, 2, None, 7, True),
        ("16-card hands, 3 decks + jokers, 8+ wilds", 16, 3, 8, 2, True),
    ]
    for title, size, decks, wilds, wild_rank, jokers in cases:
        hands = _hands_with_wilds(rng, count, size, decks, wilds, wild_rank, jokers)
        print(f"\n{title} ({count} hands)")
        default = [(h, wild_rank, Rules()) for h in hands]
        _line("default rules (cold)", _time_each(arrange, default))
        warm = _line("default rules (warm)", _time_each(arrange, default))
        switches = [(h, wild_rank, _random_rules(rng)) for h in hands]
        _line("random switches", _time_each(arrange, switches))
        one = [(h, wild_rank, Rules(max_wilds_per_meld=1)) for h in hands]
        _line("one wild per meld", _time_each(arrange, one))
        if rl_median and size == 14:
            print(f"  warm default median vs RLCard's 10-card median: {warm / rl_median:.2f}x")


def bench_discard_options(count: int) -> None:
    rng = random.Random(f"{SEED}:discard")
    hands = _hands_with_wilds(rng, count, 16, 2, None, 7, True)
    print(f"\ndiscard_options on 16-card hands, 2 decks + jokers, 7s wild ({count} hands)")
    default = [(h, 7, Rules()) for h in hands]
    _line("default rules (cold)", _time_each(discard_options, default))
    _line("default rules (warm)", _time_each(discard_options, default))
    switches = [(h, 7, _random_rules(rng)) for h in hands]
    _line("random switches", _time_each(discard_options, switches))


def bench_games(seconds: float = 10.0) -> None:
    state_file = Path(__file__).with_name("state.py")
    try:
        from .bots import simulate_game
    except ImportError:
        simulate_game = None
    if not state_file.exists() or simulate_game is None:
        print("\nwhole games: skipped (no games/engine/state.py with a bot API yet)")
        return
    print("\nwhole simulated games (bots 'easy', classic schedule, default rules)")
    for players in (2, 4):
        games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 2:
            simulate_game(Rules(), players, f"bench:{players}:{games}", ["easy"] * players)
            games += 1
        elapsed = time.perf_counter() - start
        print(f"  {players} players: {games / elapsed:8.2f} games per second ({games} games)")


def main(argv: Sequence[str] = ()) -> None:
    count = int(argv[0]) if argv else 2000
    print(f"Meld solver benchmark: Python {platform.python_version()}, {platform.machine()}")
    gc.collect()
    rl_median = bench_rlcard(count)
    bench_wild_hands(max(count // 4, 100), rl_median)
    bench_discard_options(max(count // 10, 50))
    bench_games()


if __name__ == "__main__":
    main(sys.argv[1:])
