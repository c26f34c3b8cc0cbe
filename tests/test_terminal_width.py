"""What the commands print fits an 80-column terminal: tables, the zoo, a bot's card; an
interval is never split over two lines."""

from __future__ import annotations

import re

import pytest

from agents import zoo
from tournaments.cli import main as tournament_main

WIDTH = 80


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", str(WIDTH))


def assert_fits(text: str, whole_intervals: bool = True) -> None:
    lines = text.splitlines()
    assert lines
    too_wide = [line for line in lines if len(line) > WIDTH]
    assert not too_wide, too_wide
    for line in lines if whole_intervals else []:  # an interval on one line: "[low, high]"
        assert line.count("[") == line.count("]"), line


def test_a_tournament_table_with_long_names_fits(tmp_path, capsys):
    long_name = "ismcts:iterations=4:policy=greedy:reward=blend"  # long, as a model's path
    argv = ["--game", "gendeneia", "--players", "3", "--games", "6"]
    assert tournament_main([*argv, "--agents", f"greedy,spoiler,{long_name}"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "mean score" in out
    assert_fits(out)
    interval = re.compile(r"\[-?\d+\.\d+, -?\d+\.\d+\]")
    assert len(interval.findall(out)) >= 6  # two intervals a row, each whole


def test_the_zoo_and_its_cards_fit(capsys):
    zoo.main([])
    catalogue = capsys.readouterr().out
    assert_fits(catalogue)
    for name in zoo.entries():
        assert name in catalogue
    assert "no file" in catalogue and "0.0 MB" not in catalogue
    for name in zoo.entries():
        zoo.main([name])
        card = capsys.readouterr().out
        assert_fits(card, whole_intervals=False)  # a card's results table wraps its cells
        assert "**" not in card and "`" not in card  # rendered, not raw Markdown
