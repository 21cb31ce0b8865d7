from games.pairing import points_text, table_half_points


def test_two_players_win_loss_and_tie():
    assert table_half_points({"a": 1, "b": 2}) == {"a": 2, "b": 0}
    assert table_half_points({"a": 1, "b": 1}) == {"a": 1, "b": 1}


def test_three_players_count_everyone_below_and_half_each_tie():
    assert table_half_points({"a": 2, "b": 1, "c": 3}) == {"a": 2, "b": 4, "c": 0}
    assert table_half_points({"a": 1, "b": 1, "c": 3}) == {"a": 3, "b": 3, "c": 0}


def test_points_read_in_halves():
    assert [points_text(n) for n in (0, 1, 2, 5)] == ["0", "½", "1", "2½"]
