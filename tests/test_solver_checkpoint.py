"""Checkpoints of the exact solvers: a solve stopped and continued is the solve run straight
through, and a checkpoint that does not fit is refused with the reason."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from lith_env.game import LithConfig
from lith_solver.checkpoint import (
    CHECKPOINT_FILE,
    load_checkpoint,
    read_checkpoint_record,
    save_checkpoint,
)
from lith_solver.cli import main as lith_solver_main
from lith_solver.exchanges import ExchangeGame, ExchangeSolver
from lith_solver.one_round import Solver
from lith_solver.solutions import load_solution
from lith_solver.solving import solve

CARDS = (0, 7, 11, 15, 21, 27, 33)  # seven cards: the fewest a two-round game may use
RULES = ["--rule", "cards=" + ",".join(map(str, CARDS)), "--rule", "max_raises=0"]
THREE_ROUNDS = LithConfig(rounds=3, cards=(0, 5, 9, 14, 20, 26, 31, 38), max_raises=0)


def _arrays(path):
    with np.load(path) as arrays:
        return {name: arrays[name] for name in arrays.files}


def _same_solution(a, b) -> None:
    first, second = _arrays(a / "strategy.npz"), _arrays(b / "strategy.npz")
    assert first.keys() == second.keys()
    for name in first:
        assert np.array_equal(first[name], second[name]), name
    curves = [json.loads((d / "solution.json").read_text())["curve"] for d in (a, b)]
    assert [(c["iteration"], c["exploitability"]) for c in curves[0]] == [
        (c["iteration"], c["exploitability"]) for c in curves[1]
    ]


@pytest.mark.slow
@pytest.mark.parametrize("rounds", ["1", "2"])
def test_a_resumed_solve_is_the_solve_run_straight_through(tmp_path, capsys, rounds):
    rules = [*RULES, "--rule", f"rounds={rounds}"]
    straight, stopped = tmp_path / "straight", tmp_path / "stopped"
    common = ["--check-every", "10", "--checkpoint"]
    assert (
        lith_solver_main(["solve", *rules, *common, "--iterations", "40", "--out", str(straight)])
        == 0
    )
    assert (
        lith_solver_main(["solve", *rules, *common, "--iterations", "20", "--out", str(stopped)])
        == 0
    )
    assert read_checkpoint_record(stopped / CHECKPOINT_FILE)["iterations"] == 20
    capsys.readouterr()
    resume = ["--resume", "--check-every", "10", "--iterations", "40"]
    assert lith_solver_main(["solve", *rules, *resume, "--out", str(stopped)]) == 0
    printed = capsys.readouterr().out
    assert f"going on from {stopped}/checkpoint.npz: 20 iterations" in printed
    assert "40 iterations" in printed
    _same_solution(straight, stopped)
    saved = [_arrays(d / CHECKPOINT_FILE) for d in (straight, stopped)]
    for name in saved[0]:
        if name != "record":
            assert np.array_equal(saved[0][name], saved[1][name]), name
    _, _, record = load_solution(stopped)
    assert record["iterations"] == 40 and len(record["curve"]) == 4


@pytest.mark.slow
def test_three_rounds_resume_exactly_through_the_compiled_last_round(tmp_path):
    path = tmp_path / CHECKPOINT_FILE
    _, straight, info = solve(THREE_ROUNDS, 12, check_every=4)
    solve(THREE_ROUNDS, 8, check_every=4, checkpoint=path)
    _, resumed, resumed_info = solve(THREE_ROUNDS, 12, check_every=4, checkpoint=path, resume=True)
    for key, strategy in straight.items():
        assert np.array_equal(strategy, resumed[key]), key
    assert [c["exploitability"] for c in resumed_info["curve"]] == [
        c["exploitability"] for c in info["curve"]
    ]
    assert resumed_info["seconds"] >= resumed_info["curve"][1]["seconds"]


def test_a_target_already_reached_runs_no_more_iterations(tmp_path):
    config = LithConfig(rounds=1, cards=CARDS, max_raises=0)
    path = tmp_path / CHECKPOINT_FILE
    _, _, info = solve(config, 30, check_every=10, checkpoint=path)
    target = info["exploitability"] * 1.01
    _, _, again = solve(config, 100, target, check_every=10, checkpoint=path, resume=True)
    assert again["iterations"] == 30 and again["curve"] == info["curve"]


def test_resume_refuses_what_does_not_fit(tmp_path, capsys):
    rules = [*RULES, "--rule", "rounds=2"]
    out = str(tmp_path)

    def refused(*argv: str) -> str:
        with pytest.raises(SystemExit) as exit_info:
            lith_solver_main(["solve", *argv])
        assert exit_info.value.code == 2
        return capsys.readouterr().err

    assert "no checkpoint.npz" in refused(*rules, "--resume", "--out", out)
    assert (
        lith_solver_main(["solve", *rules, "--iterations", "20", "--checkpoint", "--out", out]) == 0
    )
    before = (tmp_path / CHECKPOINT_FILE).read_bytes()
    error = refused(*RULES, "--rule", "rounds=2", "--rule", "ante=2", "--resume", "--out", out)
    assert "rule ante is 1 there, 2 here" in error
    error = refused(*rules, "--resume", "--iterations", "20", "--out", out)
    assert "--iterations 20: the checkpoint is already at 20 iterations" in error
    for flag in ("--checkpoint", "--resume"):
        error = refused(*rules, "--vary", "excuse=none", "--ray", flag, "--out", out)
        assert f"{flag}: not with --ray" in error
    # A file cut short (a copy that failed, a full disk) is named, not half-loaded.
    (tmp_path / CHECKPOINT_FILE).write_bytes(before[: len(before) // 2])
    assert "is not a solver checkpoint" in refused(*rules, "--resume", "--out", out)
    (tmp_path / CHECKPOINT_FILE).write_bytes(before)
    assert lith_solver_main(["solve", *rules, "--resume", "--iterations", "30", "--out", out]) == 0


def _rewritten(path, name, change):
    """The checkpoint at ``path`` with the array ``name`` replaced by ``change(array)``."""
    arrays = _arrays(path)
    arrays[name] = change(arrays[name])
    with open(path, "wb") as file:
        np.savez(file, **arrays)


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("sums", lambda a: -a, "sums has negative entries"),
        ("regrets", lambda a: np.where(a == a.flat[0], np.nan, a), "regrets has entries that"),
        ("regrets", lambda a: a[:-1], "regrets has shape"),
        ("iterations", lambda a: a + 1, "iterations is 11"),
        ("record", lambda a: np.array("{}"), "not a lith-solver-checkpoint-1 record"),
        (
            "record",
            lambda a: np.array(str(a).replace('"curve": []', '"curve": [{"iteration": 1}]')),
            "its curve has a point without iteration, seconds, exploitability",
        ),
    ],
)
def test_a_corrupt_checkpoint_is_named_and_the_solver_keeps_its_state(
    tmp_path, name, change, message
):
    config = LithConfig(rounds=2, cards=CARDS, max_raises=0)
    game = ExchangeGame(config)
    path = tmp_path / CHECKPOINT_FILE
    solver = ExchangeSolver(game)
    solver.iterate(10)
    save_checkpoint(path, solver, config, game.method, [], 0.0)
    _rewritten(path, name, change)
    fresh = ExchangeSolver(game)
    fresh.iterate(3)
    regrets = fresh.state_dict()["regrets"].copy()
    with pytest.raises(ValueError, match=message):
        load_checkpoint(path, fresh, config, game.method)
    assert fresh.iterations == 3 and np.array_equal(fresh.state_dict()["regrets"], regrets)


@pytest.mark.slow
def test_resume_goes_on_in_the_build_the_checkpoint_was_saved_from(tmp_path, monkeypatch):
    """Should ``auto`` pick another build since the checkpoint was saved (as it did from 14
    cards with two rounds once the limit changed), the solve goes on in the checkpoint's build."""
    from lith_solver import exchanges as solve_exchanges

    config = LithConfig(rounds=2, cards=CARDS, max_raises=0)
    path = tmp_path / CHECKPOINT_FILE
    monkeypatch.setattr(solve_exchanges, "MAX_JOINTS", {2: 1, 3: 1})  # auto: factored
    solve(config, 20, check_every=10, checkpoint=path)
    straight_game, straight, _ = solve(config, 40, check_every=10)
    assert straight_game.method == "factored"
    monkeypatch.undo()  # auto builds this game jointly again
    game, resumed, info = solve(config, 40, check_every=10, checkpoint=path, resume=True)
    assert game.method == "factored" and info["iterations"] == 40
    assert straight.keys() == resumed.keys()
    for key in straight:
        assert np.array_equal(straight[key], resumed[key]), key


def test_another_game_build_or_solver_is_refused(tmp_path):
    config = LithConfig(rounds=1, cards=CARDS, max_raises=0)
    path = tmp_path / CHECKPOINT_FILE
    solve(config, 10, check_every=10, checkpoint=path)
    other = LithConfig(rounds=1, cards=CARDS, max_raises=1)
    from lith_solver.one_round import OneRoundGame

    with pytest.raises(ValueError, match="rule max_raises is 0 there, 1 here"):
        load_checkpoint(path, Solver(OneRoundGame(other)), other, "one round")
    with pytest.raises(ValueError, match="saved from the one round build of this game"):
        load_checkpoint(path, Solver(OneRoundGame(config)), config, "joint")
    with pytest.raises(ValueError, match="saved with weights"):
        load_checkpoint(path, Solver(OneRoundGame(config), gamma=3.0), config, "one round")


def test_a_save_cut_short_leaves_the_previous_checkpoint(tmp_path, monkeypatch):
    config = LithConfig(rounds=1, cards=CARDS, max_raises=0)
    game_path = tmp_path / CHECKPOINT_FILE
    solve(config, 10, check_every=10, checkpoint=game_path)
    before = game_path.read_bytes()

    def dies_midway(file, **arrays):
        file.write(b"PK\x03\x04 half a zip")
        raise OSError("no space left on device")

    monkeypatch.setattr(np, "savez", dies_midway)
    with pytest.raises(OSError, match="no space"):
        solve(config, 20, check_every=10, checkpoint=game_path, resume=True)
    assert game_path.read_bytes() == before
    assert zipfile.is_zipfile(game_path)
