"""Seed sweeps (experiments.run --seeds): one run per seed, a summary across seeds, the same
figures one after another here or as Ray tasks whose run folders come back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments import run as experiments_run
from experiments.sweep import summarize_sweep, sweep_report
from tablegame.cli import parse_seeds

TINY = (
    'opponents = ["caller"]\ntimesteps = 128\nout = "{out}"\nn_envs = 2\nn_steps = 64\n'
    "batch_size = 64\nn_epochs = 1\neval_every = 0\ncheckpoint_every = 0\nnet_arch = [16]\n"
    'progress_bar = false\n[experiment]\nagainst = ["caller", "rock"]\nunits = 20\n'
)


def tiny(folder: Path, out: str) -> Path:
    path = folder / "experiments" / "tiny.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TINY.format(out=out))
    return path


def _weights(path: Path) -> dict[str, list]:
    from sb3_contrib import MaskablePPO

    policy = MaskablePPO.load(path, device="cpu").policy
    return {name: value.tolist() for name, value in policy.state_dict().items()}


def test_seeds_are_read_as_lists_and_ranges():
    assert parse_seeds("1-4") == [1, 2, 3, 4]
    assert parse_seeds("1,3,5") == [1, 3, 5]
    assert parse_seeds("0-2,7") == [0, 1, 2, 7]
    assert parse_seeds("3") == [3]  # one seed of a sweep's recipe


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4294967296", "from 0 to 4294967295"),
        ("1,1", "listed twice"),
        ("1-3,2", "listed twice"),
        ("5-2", "'5-2' is not a range"),
        ("a-b", "a list of seeds and ranges"),
        ("-1,2", "a list of seeds and ranges"),
    ],
)
def test_bad_seed_lists_are_named(text, message):
    with pytest.raises(ValueError, match=rf"--seeds: .*{message}"):
        parse_seeds(text)


def test_a_sweep_summary_gives_each_seed_the_mean_the_interval_and_the_best():
    per_seed = {
        s: {"game": "lith", "against": {"tag": {"mean": m}, "rock": {"mean": m + 10}}}
        for s, m in ((1, 10.0), (2, 30.0), (3, 20.0))
    }
    summary = summarize_sweep(per_seed)
    tag = summary["across_seeds"]["tag"]
    assert tag["seeds"] == {1: 10.0, 2: 30.0, 3: 20.0}
    assert tag["mean"] == pytest.approx(20.0) and tag["std"] == pytest.approx(10.0)
    assert tag["low"] == pytest.approx(20 - 4.302653 * 10 / 3**0.5, rel=1e-5)
    assert summary["best_seed"] == 2 and "exploiter" not in summary["across_seeds"]
    assert "exact-sampling" not in summary["across_seeds"]  # measured by no seed
    for s in per_seed:
        per_seed[s]["exact-sampling"] = {"mean": 4.0 + s}
    exact = summarize_sweep(per_seed)["across_seeds"]["exact-sampling"]
    assert exact["seeds"] == {1: 5.0, 2: 6.0, 3: 7.0} and exact["mean"] == pytest.approx(6.0)


def test_a_sweep_report_names_only_the_rows_it_has_and_its_bot():
    per_seed = {
        s: {"game": "lith", "against": {"tag": {"mean": m}}, "bot": "mixture"}
        for s, m in ((1, 10.0), (2, 30.0))
    }
    report = sweep_report(summarize_sweep(per_seed), Path("x.toml"))
    assert "exploiter rows" not in report and "exact rows" not in report
    assert "The bot is each run's population equilibrium mixture" in report
    assert "its bot is `mixture:seed-2`, its final network `best_model.zip`" in report
    for s in per_seed:
        per_seed[s] |= {"bot": "ppo", "exploiter": {"mean": 5.0}}
    report = sweep_report(summarize_sweep(per_seed), Path("x.toml"))
    assert "the exploiter rows" in report and "exact rows" not in report
    assert "mixture" not in report and "its model is `best_model.zip`" in report


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ray"], "--ray: only with --seed or --seeds"),
        (["--seeds", "4,4"], "--seeds: a seed is listed twice"),
        (["--seeds", "1-2", "--ray", "nowhere"], "--ray: ray address: local, auto, HOST:PORT"),
        (["--seeds", "1-2", "--ray", "--report-only"], "--ray: --report-only trains nothing"),
    ],
)
def test_bad_sweep_flags_exit_2_before_training(tmp_path, argv, message, capsys):
    path = tiny(tmp_path, str(tmp_path / "run"))
    with pytest.raises(SystemExit) as stop:
        experiments_run.main([str(path), *argv])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_one_seed_of_a_recipe_runs_into_its_sweep_folder(tmp_path, monkeypatch, capsys):
    """--seed N (and --seeds N) runs the file's recipe at training seed N into OUT/seed-N, as
    a sweep would, prints that run's report and writes no summary of one seed."""
    monkeypatch.chdir(tmp_path)
    path = tiny(tmp_path, "runs/one")
    assert experiments_run.main([str(path), "--seed", "3"]) == 0
    run = Path("runs/one/seed-3")
    assert capsys.readouterr().out.strip().endswith((run / "report.md").read_text().strip())
    assert json.loads((run / "config.json").read_text())["seed"] == 3
    assert not Path("runs/one/sweep.md").exists() and not Path("runs/one/model.zip").exists()
    again = tiny(tmp_path, "runs/again")
    assert experiments_run.main([str(again), "--seeds", "3"]) == 0
    assert _weights(Path("runs/again/seed-3/model.zip")) == _weights(run / "model.zip")
    with pytest.raises(SystemExit) as stop:
        experiments_run.main([str(path), "--seed", "3", "--seeds", "1-2"])
    assert stop.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


@pytest.mark.slow
def test_a_sweep_on_ray_gives_the_figures_of_a_sweep_here(ray_cluster, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    here = tiny(tmp_path, "runs/here")
    assert experiments_run.main([str(here.relative_to(tmp_path)), "--seeds", "1-2"]) == 0
    there = tiny(tmp_path, "runs/there")
    argv = [str(there.relative_to(tmp_path)), "--seeds", "1-2", "--ray"]
    assert experiments_run.main(argv) == 0
    a = json.loads(Path("runs/here/sweep.json").read_text())
    b = json.loads(Path("runs/there/sweep.json").read_text())
    assert a["per_seed"] == b["per_seed"] and a["across_seeds"] == b["across_seeds"]
    assert a["per_seed"]["1"] != a["per_seed"]["2"]  # the seeds differ
    for base in ("runs/here", "runs/there"):  # every run folder is here, with its report
        for seed in (1, 2):
            assert (Path(base) / f"seed-{seed}" / "report.md").is_file()
        best = a["best_seed"]
        assert (Path(base) / "best_model.zip").read_bytes() == (
            Path(base) / f"seed-{best}" / "model.zip"
        ).read_bytes()
        report = (Path(base) / "sweep.md").read_text()
        assert "| caller |" in report and "| rock |" in report and "Best seed" in report
    # the ray run's model labels are its own run's, as here: the folder came back in place
    result = json.loads(Path("runs/there/seed-1/vs_caller/results.json").read_text())
    assert result["agents"][0] == "ppo:runs/there/seed-1/model.zip"
    # the worker ran a copy of the code, and records the commit it was sent from
    commits = [
        json.loads(Path(f"runs/{base}/seed-1/config.json").read_text())["versions"]["commit"]
        for base in ("here", "there")
    ]
    assert commits[0] and commits[0] == commits[1]
