"""A whole game's review, timed: seeded two-player games between the medium level (seat 0) and
the hard one (seat 1), played first, then reviewed for both seats as the worker reviews them
(engine bots/review.py); the CPU of the review alone, per game. Prints, per seat, the penalty
scored, the points given up and the accuracy, so that a change of the pricing shows beside its
cost. `python manage.py bench_review --games 4 --seed rv`."""

import random
import time

from django.core.management.base import BaseCommand

from games.engine import GameState, Rules, get_bot
from games.engine.bots.review import review


class Command(BaseCommand):
    help = "Time whole games' reviews (seeded medium v hard games, both seats)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=4)
        parser.add_argument("--seed", default="rv")

    def handle(self, *args, games: int, seed: str, **options):
        rules, total = Rules(), 0.0
        for number in range(games):
            game_seed = f"{seed}{number}"
            moves, end = _played(rules, game_seed)
            started = time.thread_time()
            reviewed = list(review(rules, 2, game_seed, moves, [0, 1], range(rules.round_count)))
            cpu = time.thread_time() - started
            total += cpu
            figures = []
            for seat in (0, 1):
                mine = [r for r in reviewed if r.seat == seat]
                judged = sum(len(r.decisions) for r in mine)
                accurate = sum(r.accurate for r in mine)
                penalty = sum(result.penalties[seat] for result in end.round_results)
                lost = sum(r.lost for r in mine)
                figures.append(
                    f"seat {seat}: penalty {penalty}, given up {lost:.0f}, "
                    f"accuracy {100 * accurate / max(judged, 1):.0f}%"
                )
            self.stdout.write(
                f"{game_seed}: {len(moves)} moves, review {cpu:.2f} s CPU; " + "; ".join(figures)
            )
        self.stdout.write(f"{games} games: {total:.2f} s CPU, {total / games:.2f} s a game")


def _played(rules: Rules, seed: str):
    bots = [get_bot("medium"), get_bot("hard", time_cap=False)]
    rng, state, moves = random.Random(f"{seed}:bots"), GameState.new(rules, 2, seed), []
    while not state.is_over:
        action = bots[state.to_move].choose(state.view(state.to_move), rng)
        moves.append((action, False))
        state.apply(action)
    return moves, state
