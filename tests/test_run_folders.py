"""A command never replaces an earlier run without being told: every command that writes a run
or results folder (or a figures file) refuses one that already holds files, exit code 2, naming
the flag and ``--overwrite``, and leaves the files as they were."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import train
from agents import lbr
from experiments import demo
from experiments import run as experiments_run
from lith_solver.cli import main as lith_solver_main
from tournaments import aivat
from tournaments.cli import main as tournament_main
from training import exploiter_cli

EARLIER = b"an earlier run's model"
TINY = [
    "--timesteps", "128", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
    "--n-epochs", "1", "--eval-every", "0", "--checkpoint-every", "0", "--net-arch", "8",
    "--no-progress-bar",
]  # fmt: skip


def used_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "model.zip").write_bytes(EARLIER)
    return folder


def exit_code(program: Callable, argv: list[str]) -> int:
    """The command's exit status, whether it returns it or exits through argparse."""
    try:
        return program(argv)
    except SystemExit as stop:
        return stop.code


def assert_refused(program: Callable, argv: list[str], folder: Path, capsys) -> str:
    assert exit_code(program, argv) == 2
    err = capsys.readouterr().err
    assert "--overwrite" in err and "already holds" in err and "Traceback" not in err
    assert (folder / "model.zip").read_bytes() == EARLIER
    assert sorted(p.name for p in folder.iterdir()) == ["model.zip"]
    return err


def test_train_refuses_a_used_run_folder_naming_overwrite_and_resume(tmp_path, capsys):
    folder = used_folder(tmp_path)
    err = assert_refused(train.main, ["--opponents", "caller", "--out", str(folder), *TINY],
                         folder, capsys)  # fmt: skip
    assert "--out:" in err and "--resume" in err and "model.zip" in err


def test_train_overwrite_replaces_the_run_and_resume_keeps_it(tmp_path, capsys):
    folder = used_folder(tmp_path)
    argv = ["--opponents", "caller", "--out", str(folder), *TINY]
    assert train.main([*argv, "--overwrite"]) == 0
    assert (folder / "model.zip").read_bytes() != EARLIER
    assert json.loads((folder / "config.json").read_text())["out"] == str(folder)
    assert exit_code(train.main, argv) == 2  # the new run is refused in turn
    assert "already holds" in capsys.readouterr().err
    assert exit_code(train.main, ["--resume", str(folder), "--overwrite"]) == 2
    assert "--overwrite: a resumed run keeps its folder" in capsys.readouterr().err


def test_an_empty_folder_is_not_a_used_one(tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    argv = ["--agents", "tag,caller", "--hands", "4", "--out", str(folder)]
    assert tournament_main(argv) == 0
    assert (folder / "results.json").is_file()


def test_a_tournament_refuses_earlier_results_unless_overwrite(tmp_path, capsys):
    folder = used_folder(tmp_path)
    argv = ["--agents", "tag,caller", "--hands", "4", "--out", str(folder)]
    assert_refused(tournament_main, argv, folder, capsys)
    assert tournament_main([*argv, "--overwrite"]) == 0
    assert (folder / "results.json").is_file()
    assert exit_code(tournament_main, ["--agents", "tag,caller", "--hands", "4", "--overwrite"])
    assert "--overwrite: only with --out" in capsys.readouterr().err


def test_an_exploiter_refuses_a_used_folder(tmp_path, capsys):
    folder = used_folder(tmp_path)
    argv = ["--target", "caller", "--timesteps", "64", "--out", str(folder)]
    assert_refused(exploiter_cli.main, argv, folder, capsys)


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--rule", "rounds=1", "--iterations", "10"],
        ["abstract", "--rule", "rounds=1", "--iterations", "10"],
        ["exploitability", "tag", "--rule", "rounds=1"],
    ],
    ids=["solve", "abstract", "exploitability"],
)
def test_the_solver_commands_refuse_a_used_folder(tmp_path, capsys, argv):
    folder = used_folder(tmp_path)
    assert_refused(lith_solver_main, [*argv, "--out", str(folder)], folder, capsys)


def test_an_experiment_refuses_a_used_run_folder_before_training(tmp_path, capsys):
    folder = used_folder(tmp_path)
    recipe = tmp_path / "recipe.toml"
    recipe.write_text(f'game = "lith"\nopponents = ["caller"]\nout = "{folder}"\n')
    err = assert_refused(experiments_run.main, [str(recipe), "--timesteps", "64"], folder, capsys)
    assert "out:" in err and "--report-only" in err
    swept = tmp_path / "swept"
    (swept / "seed-2").mkdir(parents=True)
    (swept / "seed-2" / "model.zip").write_bytes(EARLIER)
    recipe.write_text(f'game = "lith"\nopponents = ["caller"]\nout = "{swept}"\n')
    err = assert_refused(experiments_run.main, [str(recipe), "--seeds", "1-2"], swept / "seed-2",
                         capsys)  # fmt: skip
    assert not (swept / "seed-1").exists()  # refused before the first seed trained


def test_the_demo_refuses_a_used_folder_without_overwrite(tmp_path, capsys):
    folder = used_folder(tmp_path)
    assert_refused(demo.main, ["--out", str(folder)], folder, capsys)


@pytest.mark.parametrize(
    ("program", "argv"),
    [(lbr.main, ["caller", "--rule", "rounds=1"]), (aivat.main, ["caller", "tag"])],
    ids=["lbr", "aivat"],
)
def test_a_figures_file_is_not_replaced_without_overwrite(tmp_path, capsys, program, argv):
    figures = tmp_path / "figures.json"
    figures.write_bytes(EARLIER)
    assert exit_code(program, [*argv, "--hands", "4", "--out", str(figures)]) == 2
    err = capsys.readouterr().err
    assert "--out:" in err and "already holds a result" in err and "--overwrite" in err
    assert figures.read_bytes() == EARLIER
    assert exit_code(program, [*argv, "--hands", "4", "--out", str(figures), "--overwrite"]) == 0
    assert json.loads(figures.read_text())["hands"] == 4
