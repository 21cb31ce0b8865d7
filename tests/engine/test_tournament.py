"""The bot tournament: seats rotate over each deal, figures add up, the command prints them."""

import io

import pytest
from django.core.management import call_command

from games.engine.rules import Rules
from games.engine.tournament import head_to_head, lineup_for, play_game, summarize

pytestmark = pytest.mark.engine


def test_each_deal_is_played_from_every_seat():
    assert [lineup_for(["hard", "medium"], 2, g) for g in range(2)] == [
        ("hard", "medium"),
        ("medium", "hard"),
    ]
    four = [lineup_for(["hard", "medium", "easy", "random"], 4, g) for g in range(4)]
    assert [lineup.index("hard") for lineup in four] == [0, 3, 2, 1]


def test_games_are_reproducible_and_summed_per_level():
    play = dict(levels=["medium", "easy"], players=2, seed="t", rules=Rules(), seconds=0.01)
    records = [play_game(g, **play) for g in range(4)]
    again = [play_game(g, **play) for g in range(4)]
    assert [r.totals for r in records] == [r.totals for r in again]
    assert records[0].totals == records[1].totals[::-1] or records[0].seats != records[1].seats
    summaries = {s.level: s for s in summarize(records)}
    assert len(summaries["medium"].scores) == 4
    assert summaries["medium"].wins + summaries["easy"].wins == pytest.approx(4)
    share, games = head_to_head(records, "medium", "easy")
    assert games == 4 and 0 <= share <= 1


def test_the_command_prints_the_table():
    out = io.StringIO()
    call_command(
        "bot_tournament", "--games", "2", "--bots", "hard,random", "--hard-seconds", "0.01",
        stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    text = out.getvalue()
    assert "mean score" in text and "hard finished below random" in text
    assert "hands valued per second" in text
