"""Play bot levels against each other and print how they fared (see devtools/tournament.py)."""

import json
import multiprocessing
import time
from functools import partial

from django.core.management.base import BaseCommand, CommandError

from devtools.progress import progress_bar
from devtools.tournament import (
    GameRecord,
    head_to_head,
    margins,
    paired_difference,
    play_game,
    summarize,
)
from games.engine import LEVELS, Rules
from games.engine.bots import BOTS


class Command(BaseCommand):
    help = (
        "Seeded, reproducible games between bot levels on several processes; prints mean score "
        "(95% CI), win rate, rate of going out first and time per move."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument(
            "--bots",
            default="hard,medium",
            help="Levels, comma-separated, repeated to fill the seats (rotated game by game).",
        )
        parser.add_argument("--seed", default="tournament")
        parser.add_argument("--processes", type=int, default=1)
        parser.add_argument(
            "--hard-seconds",
            type=float,
            default=1.0,
            help="The hard bot's budget per move (BOT_HARD_SECONDS in the app).",
        )
        parser.add_argument("--rounds", default="classic", choices=["classic", "extended"])
        parser.add_argument(
            "--save", metavar="FILE", help="Write each game's seats and totals to FILE (JSON)."
        )
        parser.add_argument(
            "--against",
            metavar="FILE",
            help="A run saved with --save on the same seed: print how the first two levels' "
            "per-game lead changed, paired deal by deal (a far narrower interval than two "
            "separate win rates give).",
        )

    def handle(
        self, *args, games, players, bots, seed, processes, hard_seconds, rounds, save, against, **_
    ):
        levels = [name.strip() for name in bots.split(",") if name.strip()]
        unknown = [name for name in levels if name not in BOTS]
        if unknown or not levels:
            raise CommandError(f"Unknown bots {unknown}; choose from {', '.join(BOTS)}.")
        if not 2 <= players <= 8 or games < 1 or processes < 1:
            raise CommandError("2 to 8 players, at least one game and one process.")
        before = self._load(against, seed, players) if against else None
        play = partial(
            play_game,
            levels=levels,
            players=players,
            seed=seed,
            rules=Rules(rounds=rounds),
            seconds=hard_seconds,
        )
        started = time.perf_counter()
        records = []
        progress = progress_bar("games")
        with multiprocessing.get_context("forkserver").Pool(processes) as pool:
            for record in pool.imap_unordered(play, range(games)):
                records.append(record)
                progress(len(records), games, time.perf_counter() - started)
        records.sort(key=lambda record: record.index)
        self._report(records, levels, players, seed, hard_seconds, time.perf_counter() - started)
        if save:
            with open(save, "w") as file:
                json.dump(
                    {
                        "seed": seed,
                        "players": players,
                        "bots": levels,
                        "games": [[r.index, list(r.seats), list(r.totals)] for r in records],
                    },
                    file,
                )
        if before is not None:
            self._compare(records, before, levels, against)

    def _load(self, path, seed, players):
        try:
            with open(path) as file:
                data = json.load(file)
            saved = (data["seed"], data["players"])
            records = [
                GameRecord(i, tuple(s), tuple(t), (), (), 0, {}) for i, s, t in data["games"]
            ]
            levels = data.get("bots") or []
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise CommandError(f"Cannot read a saved run from {path}: {error}") from error
        if saved != (seed, players):
            raise CommandError(
                f"{path} holds seed {saved[0]!r} with {saved[1]} players: "
                "compare runs of the same seed and table only."
            )
        return records, levels

    def _compare(self, records, before, levels, path):
        before, before_levels = before
        distinct = list(dict.fromkeys(levels))
        if len(distinct) < 2:
            return
        a, b = distinct[:2]
        was_a, was_b = list(dict.fromkeys(before_levels or levels))[:2]
        mean, half, pairs = paired_difference(margins(records, a, b), margins(before, was_a, was_b))
        then = "" if (was_a, was_b) == (a, b) else f" (was {was_a}'s over {was_b})"
        self.stdout.write(
            f"against {path}: {a}'s lead over {b}{then} changed by {mean:+.2f} ± {half:.2f} "
            f"points a game (95%, paired over {pairs} games)"
        )

    def _report(self, records, levels, players, seed, hard_seconds, elapsed):
        out = self.stdout.write
        out(
            f"{len(records)} games, {players} players, bots {','.join(levels)}, seed {seed!r}, "
            f"hard budget {hard_seconds:g} s/move, {elapsed:.0f} s wall"
        )
        out(
            f"{'bot':<8} {'seats':>5} {'mean score':>18} {'win rate':>9} {'out first':>10} "
            f"{'move p50':>9} {'move p95':>9}"
        )
        for summary in sorted(summarize(records), key=lambda s: LEVELS_ORDER.get(s.level, 9)):
            out(
                f"{summary.level:<8} {len(summary.scores):>5} "
                f"{summary.mean:>9.1f} ± {summary.half_width:<6.1f} "
                f"{summary.wins / len(summary.scores):>9.1%} "
                f"{summary.went_out / summary.rounds:>10.1%} "
                f"{summary.time_quantile(0.5) * 1000:>7.1f}ms "
                f"{summary.time_quantile(0.95) * 1000:>7.1f}ms"
            )
        distinct = list(dict.fromkeys(levels))
        for i, a in enumerate(distinct):
            for b in distinct[i + 1 :]:
                share, games = head_to_head(records, a, b)
                out(f"{a} finished below {b} in {share:.1%} of {games} games (ties count half)")
        valued = sum(record.hard_valued for record in records)
        seconds = sum(record.hard_seconds for record in records)
        if valued:
            out(f"hard: {valued / seconds:.0f} hands valued per second of thought")


LEVELS_ORDER = {name: index for index, name in enumerate(("hard", *reversed(LEVELS), "random"))}
