"""solver.text.table, the one plain-table formatter: hand-written expected tables."""

from __future__ import annotations

import pytest

from solver.text import distinguishing_digits, table


def test_a_table_pads_each_column_to_its_widest_cell():
    out = table(["name", "n"], [["ab", 7], ["c", 123]], "lr")
    assert out == "name    n\n----  ---\nab      7\nc     123\n"


def test_a_markdown_table_right_aligns_by_its_rule():
    out = table(["name", "n"], [["ab", 7]], "lr", markdown=True)
    assert out == "| name | n |\n|------|--:|\n| ab   | 7 |\n"


def test_rows_without_headers_are_names_and_values():
    out = table(None, [("Card", "captain"), ("Full chest", "yes")], "ll")
    assert out == "Card        captain\nFull chest  yes\n"
    with pytest.raises(ValueError):
        table(None, [("a", "b")], "ll", markdown=True)


def test_least_widths_hold_a_column_wider_than_its_cells():
    out = table(["option", "keep", "P"], [["stop", "CCD", "0.5"]], "lll", widths=(0, 8))
    assert out == "option  keep      P\n------  --------  ---\nstop    CCD       0.5\n"
    assert table(["a"], [["long cell"]], "l", widths=(3,), rule=False) == "a\nlong cell\n"


def test_distinguishing_digits_tells_close_values_apart():
    assert distinguishing_digits([0.51, 0.52], 2, 9) == 2
    assert distinguishing_digits([0.5172, 0.51721], 2, 9) == 5
    assert distinguishing_digits([0.5, 0.5 + 1e-12], 2, 9) == 2  # within 1e-9: one value
