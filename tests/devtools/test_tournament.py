"""The bot tournament: seats rotate over each deal, figures add up, the command prints them."""

import io

import pytest
from django.core.management import call_command

from devtools.tournament import head_to_head, lineup_for, play_game, summarize
from games.engine.rules import Rules


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


@pytest.mark.slow  # games between bots
def test_the_command_prints_the_table():
    out = io.StringIO()
    call_command(
        "bot_tournament", "--games", "2", "--bots", "hard,random", "--hard-seconds", "0.01",
        stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    text = out.getvalue()
    assert "mean score" in text and "hard finished below random" in text
    assert "hands valued per second" in text


def test_leads_are_paired_game_by_game():
    """A game's lead is the other level's best total less this one's; two runs compare on the
    games both played."""
    from devtools.tournament import GameRecord, margins, paired_difference

    def record(index, seats, totals):
        return GameRecord(index, seats, totals, (), (), 0, {})

    before = [record(0, ("hard", "medium"), (30, 50)), record(1, ("medium", "hard"), (40, 45))]
    now = [
        record(0, ("hard", "medium"), (20, 50)),
        record(1, ("medium", "hard"), (40, 41)),
        record(2, ("hard", "medium"), (0, 99)),  # not in the earlier run: left out
    ]
    assert margins(before, "hard", "medium") == {0: 20, 1: -5}
    assert head_to_head(before, "hard", "medium") == (0.5, 2)
    mean, half, pairs = paired_difference(
        margins(now, "hard", "medium"), margins(before, "hard", "medium")
    )
    assert (mean, pairs) == (7.0, 2)  # +10 and +4
    assert half == pytest.approx(1.96 * 4.242640687 / 2**0.5)


def test_the_command_saves_a_run_and_compares_another_with_it(tmp_path):
    from django.core.management.base import CommandError

    saved = tmp_path / "run.json"
    args = ["bot_tournament", "--games", "2", "--bots", "medium,easy", "--seed", "pair"]
    call_command(*args, "--save", str(saved), stdout=io.StringIO(), stderr=io.StringIO())
    out = io.StringIO()
    call_command(*args, "--against", str(saved), stdout=out, stderr=io.StringIO())
    assert "medium's lead over easy changed by +0.00 ± 0.00 points a game" in out.getvalue()
    with pytest.raises(CommandError, match="same seed"):
        call_command(*args[:-1], "other", "--against", str(saved), stdout=io.StringIO())
    (tmp_path / "junk.json").write_text("[1, 2")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command(*args, "--against", str(tmp_path / "junk.json"), stdout=io.StringIO())


def test_a_new_level_is_compared_with_an_old_one_on_the_same_deals(tmp_path):
    """A saved run names its levels: another line-up on the same seed compares its first
    level's lead with the saved first level's, deal by deal."""
    saved = tmp_path / "run.json"
    args = ["--games", "2", "--seed", "pair"]
    call_command("bot_tournament", *args, "--bots", "medium,easy", "--save", str(saved),
                 stdout=io.StringIO(), stderr=io.StringIO())  # fmt: skip
    out = io.StringIO()
    call_command("bot_tournament", *args, "--bots", "random,easy", "--against", str(saved),
                 stdout=out, stderr=io.StringIO())  # fmt: skip
    text = out.getvalue()
    assert "random's lead over easy (was medium's over easy) changed by -" in text
    assert "paired over 2 games" in text
