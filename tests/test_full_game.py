"""The full-game experiment (experiments.full_game): its TOML checked at the door, and a tiny
run of every piece but the protocol, resumed without redoing anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.full_game import load_full_game, main

TINY = """
[solve]
buckets = 10
iterations = 4
traversals = 3
check_every = 2

[evaluate]
out = "{out}"
seeds = [1]
lbr_hands = 4
lbr_particles = 50
lbr_snapshots = true
lbr_snapshot_hands = 2
against = ["random"]
hands = 20
record = 10
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "full.toml"
    path.write_text(text)
    return path


def test_the_shipped_config_loads():
    table = load_full_game(Path("experiments/lith_hu_full_mccfr.toml"))
    assert table["evaluate"]["seeds"] == [1, 2, 3, 4, 5]
    assert table["solve"]["buckets"] >= 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("buckets = 10", "buckets = 0"), "solve.buckets: a positive whole number, got 0"),
        (
            ("traversals = 3", "traversals = 3\nrecall = 'perfect'"),
            "solve.recall: hand or swap or gift, got 'perfect'",
        ),
        (
            ("traversals = 3", "traversals = 3\nbucketing = 'kmeans'"),
            "solve.bucketing: equity or exchange, got 'kmeans'",
        ),
        (
            ("[evaluate]", "[best_response]\nseed = 1\n\n[evaluate]"),
            "best_response.iterations: needed",
        ),
        (
            ("[evaluate]", "[best_response]\niterations = 0\n\n[evaluate]"),
            "best_response.iterations: a number of at least 1, got 0",
        ),
        (
            ("[evaluate]", "[best_response]\niterations = 2\nhands = 4\n\n[evaluate]"),
            "best_response.hands: not a key",
        ),
        (("hands = 20", "hands = 21"), "evaluate.hands: a positive even number of hands"),
        (("lbr_hands = 4", "lbr_hands = '4'"), "evaluate.lbr_hands: a positive even number"),
        (("seeds = [1]", "seeds = [1]\npolicy = 'best'"), "evaluate.policy: average or current"),
        (('against = ["random"]', 'against = "random"'), "evaluate.against: a list of agent"),
        (("[solve]", "[solver]"), "config: the TOML needs a [solve] table"),
        (("buckets = 10", "buckets = 10\naverage_power = 9"), "solve.average_power: must be"),
    ],
)
def test_a_bad_entry_is_an_error_naming_it(tmp_path, change, message, capsys):
    text = TINY.format(out=tmp_path / "out").replace(*change)
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_full_game(write(tmp_path, text))
    with pytest.raises(SystemExit) as exit_info:
        main([str(write(tmp_path, text))])
    assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_bad_pieces_exit_2_naming_them(tmp_path, capsys):
    config = write(tmp_path, TINY.format(out=tmp_path / "out"))
    with pytest.raises(SystemExit) as exit_info:
        main([str(config), "--pieces", "solve,train"])
    assert exit_info.value.code == 2
    assert (
        "--pieces: choose from solve, lbr, matches, best_response, protocol"
        in capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as exit_info:  # the TOML has no [best_response]
        main([str(config), "--pieces", "best_response"])
    assert exit_info.value.code == 2
    assert "--pieces: best_response needs a [best_response] table" in capsys.readouterr().err


@pytest.mark.slow
def test_a_tiny_run_tables_every_figure_and_resumes(tmp_path, capsys):
    out = tmp_path / "out"
    config = write(tmp_path, TINY.format(out=out))
    assert main([str(config), "--pieces", "solve,lbr,matches"]) == 0
    seed = out / "seed-1"
    assert (seed / "abstraction.npz").is_file() and (seed / "iterations" / "2").is_dir()
    figures = json.loads((out / "full_game.json").read_text())["1"]
    assert set(figures) == {"core_minutes", "lbr", "lbr-2", "vs random"}  # 4 is the bot
    assert figures["lbr"]["low"] <= figures["lbr"]["mean"] <= figures["lbr"]["high"]
    table = (out / "full_game.md").read_text()
    assert "| vs random |" in table and "| lbr-2 |" in table
    assert (seed / "vs_random" / "decisions.jsonl").is_file()  # for tournaments.report
    assert "| rate | seed 1 | `random` |" in table and "| bluff rate |" in table
    capsys.readouterr()
    stamp = (seed / "lbr.json").stat().st_mtime_ns
    assert main([str(config), "--pieces", "solve,lbr,matches"]) == 0
    printed = capsys.readouterr().out
    for piece in ("solve", "lbr", "matches"):
        assert f"{piece}: 0 of 1 seeds to do" in printed
    assert (seed / "lbr.json").stat().st_mtime_ns == stamp


def test_a_protocol_run_gives_each_seed_its_figure(tmp_path):
    from experiments.full_game import bot_spec, summarize

    out = tmp_path / "out"
    table = load_full_game(write(tmp_path, TINY.format(out=out)))
    folder = out / "protocol-seeds-1-2"
    folder.mkdir(parents=True)
    figure = {"mean": 8.0, "low": 5.0, "high": 11.0, "units": 20_000, "spread": 3.5, "seeds": 3}
    other = {**figure, "mean": 30.0}
    figures = {bot_spec(table, 1): figure, bot_spec(table, 2): other}
    (folder / "protocol.json").write_text(json.dumps({"figures": figures}))
    summarize(table, [1, 2, 3])
    rows = json.loads((out / "full_game.json").read_text())
    assert rows["1"]["protocol"] == {"mean": 8.0, "low": 5.0, "high": 11.0, "spread": 3.5}
    assert rows["2"]["protocol"]["mean"] == 30.0 and "protocol" not in rows["3"]
    assert (
        "| protocol | +8.0 [+5.0, +11.0], spread 3.5 | +30.0" in (out / "full_game.md").read_text()
    )


@pytest.mark.slow
def test_a_seeds_best_response_is_played_and_tabled(tmp_path, capsys):
    """The best response piece on a recall gift bot grouped by the exchanges: its figures
    are the command's own (``best_response.json``), its solver's state is not kept."""
    out = tmp_path / "out"
    text = TINY.format(out=out).replace(
        "traversals = 3", "traversals = 3\nrecall = 'gift'\nbucketing = 'exchange'"
    )
    text += "\n[best_response]\niterations = 2\nseed = 3\nsamples = 20\ntraversals = 2\n"
    text += "buckets = 8\n"  # the responder's: a smaller table to normalise
    config = write(tmp_path, text)
    assert main([str(config), "--pieces", "solve,best_response"]) == 0
    seed = out / "seed-1"
    record = json.loads((seed / "abstraction.json").read_text())
    assert (record["recall"], record["bucketing"]) == ("gift", "exchange")
    figures = json.loads((seed / "best_response" / "best_response.json").read_text())
    assert figures["iterations"] == 2 and figures["hands"] == 20
    assert figures["bot"] == f"abstract:{seed}:policy=average"
    assert not (seed / "best_response" / "responder_state.npz").exists()
    row = json.loads((out / "full_game.json").read_text())["1"]
    assert row["best response"] == {
        "mean": figures["played"],
        "low": figures["played_low"],
        "high": figures["played_high"],
    }
    assert "| best response |" in (out / "full_game.md").read_text()
    capsys.readouterr()
    assert main([str(config), "--pieces", "solve,best_response"]) == 0
    assert "best_response: 0 of 1 seeds to do" in capsys.readouterr().out


def test_the_kept_bots_recipe_loads_and_plays_the_first_bot():
    """zoo:lith-hu's recipe measures its seeds against the bot it replaced."""
    table = load_full_game(Path("experiments/lith_hu_gift_exchange.toml"))
    assert (table["solve"]["recall"], table["solve"]["bucketing"]) == ("gift", "exchange")
    assert table["best_response"] == {"iterations": 50_000, "seed": 1}
    assert "zoo:lith-hu-equity" in table["evaluate"]["against"]
