"""The equilibrium bench (python -m experiments.bench): its config checked at the door, a
tiny bench of sampling CFR end to end, and resuming where it stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.bench import load_bench, main
from lith_env.game import LithConfig
from lith_solver.swap_abstraction import SwapAbstractSolver

CARDS = "[0, 7, 11, 15, 21, 27, 33, 40]"


def _bench(tmp_path: Path, methods: str, games: str | None = None) -> Path:
    games = (
        games
        if games is not None
        else (
            f"[games.small]\nrules = {{ rounds = 1, cards = {CARDS} }}\ngoal = 0.01\n"
            "references = { tag = 0.2 }\n"
            f"[games.small2]\nrules = {{ rounds = 2, max_raises = 0, cards = {CARDS} }}\n"
        )
    )
    path = tmp_path / "bench.toml"
    path.write_text(f'[bench]\nout = "{tmp_path / "out"}"\nseeds = [1, 2]\n{games}{methods}')
    return path


MCCFR = """
[[methods]]
name = "mccfr"
kind = "mccfr"
games = ["small", "small2"]
buckets = 8
iterations = 60
check_every = 30
traversals = 50
"""


@pytest.mark.slow
def test_a_tiny_bench_runs_every_piece_and_summarizes(tmp_path, capsys):
    path = _bench(tmp_path, MCCFR)
    assert main([str(path)]) == 0
    out = tmp_path / "out"
    for game in ("small", "small2"):
        for seed in (1, 2):
            curve = json.loads((out / game / "mccfr" / f"seed-{seed}" / "curve.json").read_text())
            assert [p["iteration"] for p in curve] == [30, 60]
            assert all(p["core_minutes"] > 0 and p["average"] > 0 for p in curve)
        assert (out / f"{game}.png").is_file()
    table = (out / "bench.md").read_text()
    assert "| mccfr | average |" in table and "| mccfr | current |" in table
    printed = capsys.readouterr().out
    assert "4 runs to do" in printed
    # A second call keeps what is done.
    assert main([str(path)]) == 0
    assert "0 runs to do" in capsys.readouterr().out
    assert main([str(path), "--seeds", "3"]) == 0
    assert (out / "small" / "mccfr" / "seed-3" / "curve.json").is_file()


@pytest.mark.slow
def test_a_training_method_is_measured_at_every_checkpoint(tmp_path):
    config = tmp_path / "train.toml"
    config.write_text(
        'opponents = ["self"]\nself_play_every = 128\npool_size = 1\nn_envs = 2\nn_steps = 64\n'
        'batch_size = 64\nn_epochs = 1\nnet_arch = [16]\nalgorithm = "mmd"\n'
    )
    methods = (
        '[[methods]]\nname = "mmd"\nkind = "train"\ngames = ["small"]\n'
        f'config = "{config}"\ntimesteps = 256\ncheckpoint_every = 128\n'
    )
    path = _bench(tmp_path, methods)
    assert main([str(path), "--seeds", "1"]) == 0
    curve = json.loads((tmp_path / "out/small/mmd/seed-1/curve.json").read_text())
    assert [p["steps"] for p in curve] == [128, 256]
    assert curve[0]["core_minutes"] < curve[1]["core_minutes"]
    assert all(p["current"] > 0 for p in curve)


@pytest.mark.parametrize(
    ("methods", "games", "message"),
    [
        (MCCFR, "", "games: a table of games"),
        ("", None, "methods: a list of [[methods]] tables"),
        (MCCFR.replace('"mccfr"\ngames', '"cfr"\ngames'), None, "methods.mccfr.kind: must be"),
        (MCCFR.replace('["small", "small2"]', '["big"]'), None, "methods.mccfr.games: must name"),
        (MCCFR + 'recall = "total"\n', None, "methods.mccfr.recall: must be hand, swap, gift"),
        (MCCFR + 'recall = "perfect"\n', None, "methods.mccfr.recall: only for games with"),
        (MCCFR + "average_power = 9\n", None, "methods.mccfr.average_power: must be a number"),
        (
            MCCFR,
            "[games.huge]\nrules = { rounds = 2 }\n",
            "cards: 44 cards with 2 rounds make a strategy of",
        ),
        (
            '[[methods]]\nname = "x"\nkind = "train"\ngames = ["small"]\nconfig = "no.toml"\n',
            None,
            "methods.x.config: no file at 'no.toml'",
        ),
    ],
)
def test_bad_bench_files_exit_2_naming_the_entry(tmp_path, methods, games, message, capsys):
    path = _bench(tmp_path, methods, games)
    with pytest.raises(SystemExit) as exit_info:
        main([str(path)])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        ("x", "--seeds: a list of seeds and ranges such as 1-8 or 1,3,5, got 'x'"),
        ("-1", "--seeds: a list of seeds and ranges such as 1-8 or 1,3,5, got '-1'"),
        ("3-1", "--seeds: '3-1' is not a range of seeds from 0 to"),
    ],
)
def test_bad_seeds_exit_2_naming_the_flag(tmp_path, seeds, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([str(_bench(tmp_path, MCCFR)), "--seeds", seeds])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_the_shipped_bench_file_is_valid():
    bench = load_bench(Path("experiments/bench_equilibrium.toml"))
    assert set(bench["games"]) == {"one_round", "rounds2_14", "rounds2_20", "rounds3_9"}
    assert {m["kind"] for m in bench["methods"]} == {"mccfr", "train"}


def test_the_recall_bench_file_is_valid():
    bench = load_bench(Path("experiments/bench_recall.toml"))
    assert set(bench["games"]) == {"rounds2_14", "rounds3_9"}
    assert {m["recall"] for m in bench["methods"]} == {"hand", "swap", "gift", "perfect"}


@pytest.mark.parametrize("recall", ["swap", "gift"])
def test_a_method_of_recall_swap_runs_the_swap_solver(tmp_path, recall):
    methods = MCCFR.replace('["small", "small2"]', '["small2"]') + f'recall = "{recall}"\n'
    path = _bench(tmp_path, methods)
    assert main([str(path), "--seeds", "1"]) == 0
    curve = json.loads((tmp_path / "out/small2/mccfr/seed-1/curve.json").read_text())
    assert [p["iteration"] for p in curve] == [30, 60]
    config = LithConfig(rounds=2, max_raises=0, cards=tuple(json.loads(CARDS)))
    solver = SwapAbstractSolver(config, 8, seed=1, traversals=50, recall=recall)  # again
    assert curve[-1]["average"] == pytest.approx(solver.solve(60, 60)[-1]["real_average"])
