"""train.py and experiments: tiny runs save models that play tournaments; resume; bad configs;
what a run prints; reproducibility; the command lines of train.py, experiments.run and the demo."""

import dataclasses
import io
import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from rich.console import Console

import train
from experiments import demo as demo_cli
from experiments import run as experiments_run
from experiments.settings import bot_spec, experiment_table
from gendeneia_env import play as gendeneia_play
from lith_env import play as lith_play
from tablegame.provenance import PACKAGES
from tournaments.per_table import run_tournament
from tournaments.spec import TournamentSpec
from training.callbacks import progress_callback
from training.cli import config_from_args
from training.config import TrainConfig, load_config
from training.evaluation import evaluate, evaluation_line
from training.opponents import PoolOpponent, make_batched_env, newest_snapshots
from training.trainer import latest_checkpoint

torch.set_num_threads(1)

TINY = [
    "--timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
    "--n-epochs", "1", "--eval-every", "128", "--eval-units", "6", "--checkpoint-every", "128",
    "--self-play-every", "128", "--net-arch", "32,32", "--no-progress-bar",
]  # fmt: skip


def log_console(terminal: bool = False) -> tuple[Console, io.StringIO]:
    """A console writing to a string: a terminal (with a progress bar) or a log file."""
    text = io.StringIO()
    return Console(file=text, force_terminal=terminal, width=120), text


def tiny_toml(
    path: Path,
    out: Path,
    extra: str = "",
    experiment: str = 'against = ["caller"]\nunits = 2',
    opponents: str = '["caller"]',
) -> Path:
    """A tiny experiment file training in ``out``: ``extra`` options (tables last) and the
    ``[experiment]`` table's body."""
    path.write_text(
        f'opponents = {opponents}\ntimesteps = 128\nout = "{out}"\nn_envs = 2\nn_steps = 64\n'
        "batch_size = 64\nn_epochs = 1\neval_every = 0\ncheckpoint_every = 0\n"
        f"net_arch = [16]\nprogress_bar = false\n{extra}\n[experiment]\n{experiment}\n"
    )
    return path


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    """A finished tiny run (256 steps, evaluations and checkpoints every 128) to copy."""
    out = tmp_path_factory.mktemp("trained") / "run"
    assert train.main(["--opponents", "caller", "--out", str(out), *TINY]) == 0
    return out


def copy_of(run: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(run, tmp_path / "run"))


@pytest.mark.parametrize(
    ("game", "players", "opponents", "against"),
    [("lith", 2, "tag,self", "caller"), ("gendeneia", 3, "greedy", "greedy")],
)
@pytest.mark.slow
def test_tiny_run_saves_a_model_that_plays_a_tournament(
    tmp_path, game, players, opponents, against, capsys
):
    out = tmp_path / game
    argv = ["--game", game, "--players", str(players), "--opponents", opponents, "--out", str(out)]
    assert train.main([*argv, *TINY]) == 0
    for name in ("model.zip", "config.json", "metrics.json"):
        assert (out / name).is_file()
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["evaluations"] and all("results" in e for e in metrics["evaluations"])
    assert any((out / "tensorboard").rglob("events.*"))
    if "self" in opponents:
        assert list((out / "pool").glob("snapshot_*.zip")) and metrics["pool"]
    spec = TournamentSpec(
        game=game,
        agents=(f"ppo:{out / 'model.zip'}", against),
        players=players,
        units=players * 2,
        lineup=(0,) + (1,) * (players - 1),
    )
    result = run_tournament(spec)
    assert sum(r.get("hands", r.get("games", 0)) for r in result["agents_results"].values()) > 0
    # ...and sits at the terminal table as a bot
    program = lith_play if game == "lith" else gendeneia_play
    bots = f"ppo:{out / 'model.zip'},{against}" if players > 2 else f"ppo:{out / 'model.zip'}"
    argv = ["--players", str(players), "--bots", bots, "--seed", "1"]
    argv += ["--history", str(tmp_path / "play.json")]
    assert program.main(argv, stdin=io.StringIO("1\n" * 30)) == 0
    screen = capsys.readouterr().out
    assert "seat 1 (ppo:" in screen and ("Leaving the table." in screen or "over" in screen)


def test_resume_continues_the_step_count(trained, tmp_path):
    from sb3_contrib import MaskablePPO

    out = copy_of(trained, tmp_path)
    assert MaskablePPO.load(out / "model.zip").num_timesteps == 256
    assert train.main(["--resume", str(out), "--timesteps", "384", "--no-progress-bar"]) == 0
    assert MaskablePPO.load(out / "model.zip").num_timesteps == 384
    assert json.loads((out / "config.json").read_text())["timesteps"] == 384


def test_resume_to_a_step_count_already_reached_says_so(trained, tmp_path, capsys):
    out = copy_of(trained, tmp_path)
    saved = (out / "config.json").read_text()
    for steps in ("256", "100"):
        assert train.main(["--resume", str(out), "--timesteps", steps]) == 2
        err = capsys.readouterr().err
        assert "--timesteps: the run in" in err and "has trained 256 steps already" in err
        assert "Traceback" not in err
    assert (out / "config.json").read_text() == saved  # nothing was touched


def test_resume_continues_from_the_file_with_the_most_steps(trained, tmp_path):
    """model.zip (saved after the last update) beats a checkpoint of fewer or as many steps."""
    out = copy_of(trained, tmp_path)
    assert latest_checkpoint(out) == out / "model.zip"  # 256 steps, as model_256_steps
    (out / "checkpoints" / "model_256_steps.zip").unlink()
    assert latest_checkpoint(out) == out / "model.zip"  # 256 steps against 128
    shutil.copy(out / "model.zip", out / "checkpoints" / "model_384_steps.zip")
    assert latest_checkpoint(out).name == "model_384_steps.zip"


def test_a_fresh_run_in_a_used_folder_starts_over(tmp_path):
    """With --overwrite, an earlier run's snapshots must not join the new run's self-play
    pool, nor its checkpoints be what --resume continues, nor its evaluations stay in
    metrics.json."""
    out = tmp_path / "run"
    (out / "pool").mkdir(parents=True)
    (out / "checkpoints").mkdir()
    stale_snapshot = out / "pool" / "snapshot_999999.zip"
    stale_checkpoint = out / "checkpoints" / "model_999999_steps.zip"
    for stale in (stale_snapshot, stale_checkpoint):
        stale.write_bytes(b"from an earlier run")
    stale_metrics = {"evaluations": [{"step": 999999, "results": {}}], "pool": []}
    (out / "metrics.json").write_text(json.dumps(stale_metrics))
    argv = ["--opponents", "caller,self", "--out", str(out), *TINY]
    assert train.main(argv) == 2  # refused without --overwrite, the files kept
    assert stale_snapshot.exists() and stale_checkpoint.exists()
    assert train.main([*argv, "--overwrite"]) == 0
    assert not stale_snapshot.exists() and not stale_checkpoint.exists()
    assert latest_checkpoint(out).stem != "model_999999_steps"
    metrics = json.loads((out / "metrics.json").read_text())
    assert [e["step"] for e in metrics["evaluations"]] == [128, 256]


def test_corrupt_or_mismatched_checkpoint(trained, tmp_path, capsys):
    out = copy_of(trained, tmp_path)
    config = json.loads((out / "config.json").read_text())
    config["players"] = 3  # the saved model sees 2-player observations
    config["eval_units"] = 6
    (out / "config.json").write_text(json.dumps(config))
    assert train.main(["--resume", str(out), "--timesteps", "512", "--no-progress-bar"]) == 2
    assert "resume: cannot continue from" in capsys.readouterr().err
    for checkpoint in [*(out / "checkpoints").glob("*.zip"), out / "model.zip"]:
        checkpoint.write_bytes(b"junk")
    config["players"] = 2
    (out / "config.json").write_text(json.dumps(config))
    assert train.main(["--resume", str(out), "--timesteps", "512", "--no-progress-bar"]) == 2
    assert "resume: cannot continue from" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "poker"], "game: must be lith or gendeneia"),
        (["--players", "11"], "players: must be 2-10 for lith"),
        (["--game", "gendeneia", "--players", "7"], "players: must be 2-6 for gendeneia"),
        (["--opponents", "tag,maniac"], "unknown agent 'maniac'"),
        (["--timesteps", "0"], "timesteps: must be a positive integer"),
        (["--timesteps", "-5"], "timesteps: must be a positive integer"),
        (["--timesteps", "many"], "--timesteps: expected an integer"),
        (["--timesteps", "1.5"], "--timesteps: expected an integer"),
        (["--vec-env", "threads"], "vec_env: must be dummy, subproc or batched"),
        (["--learning-rate", "3"], "learning_rate: must be a number in"),
        (["--ent-coef", "-1"], "ent_coef: must be a non-negative number"),
        (["--net-arch", "64,x"], "--net-arch: expected comma-separated integers"),
        (["--net-arch", "64,0"], "net_arch: must be a list of positive layer widths"),
        (["--seed", "-1"], "seed: must be an integer from 0 to"),
        (["--torch-threads", "0"], "torch_threads: must be a positive integer"),
        (["--batch-size", "4096"], "batch_size: must be at most n_envs x n_steps (2048)"),
        (["--checkpoint-every", "2"], "checkpoint_every: must be 0 (never) or at least n_envs"),
        (["--eval-every", "-1"], "eval_every: must be a non-negative integer"),
        (["--opponents", "tag,self", "--self-play-every", "0"], "self_play_every: must be"),
        (["--eval-units", "7"], "eval_units: must be a positive multiple of players (2)"),
        (
            ["--game", "gendeneia", "--players", "3", "--opponents", "greedy", "--eval-units", "8"],
            "eval_units: must be a positive multiple of players (3)",
        ),
        (["--rule", "betting=fixed"], "betting: must be one of"),
        (
            ["--rule", "foo=1"],
            "--rule foo: not a rule of lith; its rules: betting, bet_sizes, max_raises",
        ),
        (
            ["--game", "gendeneia", "--players", "3", "--opponents", "greedy", "--rule", "ante=1"],
            "--rule ante: not a rule of gendeneia; its rules: max_rounds",
        ),
        (["--reward", "shaped"], "reward: shaped is for gendeneia only"),
        (["--reward", "dense"], "reward: must be final, shaped or shaped_win"),
        (["--reward", "shaped_win"], "reward: shaped_win is for gendeneia only"),
        (["--opponents", "tag,self,self"], "opponents: names self more than once"),
        (
            ["--opponents", "tag,tag,self", "--mixture", "nash"],
            "opponents: repeats a name, which weights the uniform draw; mixture = nash",
        ),
        (["--config", "/no/such.toml"], "config: no file at"),
        (["--resume", "/no/such/run"], "resume: no config.json"),
    ],
)
def test_bad_options_fail_at_once_naming_the_field(argv, message, capsys):
    assert train.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("toml", "flags", "message"),
    [
        ("[rules]\nfoo = 1\n", [], "--rule foo: not a rule of lith; its rules: betting"),
        ('rules = {betting = "no-limit", colour = 1}\n', [], "--rule colour: not a rule of lith"),
        ('reward = "shaped"\n', [], "reward: shaped is for gendeneia only"),
        ("rules = 3\n", [], "rules: must be a table of game rules"),
        ("rules = 3\n", ["--rule", "ante=2"], "rules: must be a table of game rules"),
        ('net_arch = "64"\n', [], "net_arch: must be a list of positive layer widths"),
        ('progress_bar = "yes"\n', [], "progress_bar: must be true or false"),
        ("learning_rate = true\n", [], "learning_rate: must be a number in"),
        ("torch_threads = 0\n", [], "torch_threads: must be a positive integer"),
        ("eval_units = 3\n", [], "eval_units: must be a positive multiple of players (2)"),
    ],
)
def test_bad_config_files_fail_naming_the_field(tmp_path, toml, flags, message, capsys):
    path = tmp_path / "x.toml"
    path.write_text(toml)
    assert train.main(["--config", str(path), *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_name_given_twice_is_drawn_twice_as_often(tmp_path):
    opponent = PoolOpponent(["spoiler", "spoiler", "greedy"], "gendeneia", tmp_path, 5, 1)
    opponent.reset_tables(np.arange(3000))
    assert np.mean(opponent.table_member < 2) == pytest.approx(2 / 3, abs=0.03)
    assert [type(a).__name__ for a in opponent.named] == ["SpoilerAgent"] * 2 + ["GreedyAgent"]


def test_evaluations_play_a_repeated_name_once(monkeypatch, tmp_path):
    played = []

    def fake_tournament(spec):
        played.append(spec.agents[1])
        return {"agents_results": {spec.agents[0]: {"win_rate": 0.5}}}

    monkeypatch.setattr("training.evaluation.run_tournament", fake_tournament)
    config = TrainConfig(game="gendeneia", players=3, opponents=["spoiler"] * 2 + ["greedy"])
    results = evaluate(tmp_path / "model.zip", config, units=3)
    assert played == ["spoiler", "greedy"]
    assert list(results) == ["win_rate vs spoiler", "win_rate vs greedy"]


def test_config_files_and_flag_overrides(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(
        'game = "gendeneia"\nplayers = 3\nopponents = ["greedy"]\n[experiment]\nunits = 9\n'
    )
    config, resume, _ = config_from_args(["--config", str(path), "--players", "4"])
    assert (config.game, config.players, config.opponents, resume) == (
        "gendeneia",
        4,
        ["greedy"],
        False,
    )
    path.write_text('game = "lith"\ncolour = 1\n')
    with pytest.raises(ValueError, match="unknown option\\(s\\) colour"):
        config_from_args(["--config", str(path)])


def test_every_experiment_file_is_a_valid_config():
    # A bench file ([bench], python -m experiments.bench) is checked in tests/test_bench.py,
    # a calibration file ([calibration]) in tests/test_calibration.py, a full-game file
    # ([solve], python -m experiments.full_game) in tests/test_full_game.py, an expert
    # iteration file ([expert_iteration]) in tests/test_expert_iteration.py.
    others = ("[bench]", "[calibration]", "[solve]", "[expert_iteration]")
    files = [
        p
        for p in sorted(Path("experiments").glob("*.toml"))
        if not any(table in p.read_text() for table in others)
    ]
    assert len(files) >= 4
    for path in files:
        config = TrainConfig(**load_config(path))
        config.validate()
        experiment_table(path, config)


def test_help_explains_every_option(capsys):
    with pytest.raises(SystemExit) as exit_:
        train.main(["--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    # every option is described once, in its field: that text is its --help
    described = [f for f in dataclasses.fields(TrainConfig) if "help" in f.metadata]
    names = {f.name for f in dataclasses.fields(TrainConfig)}
    assert names - {f.name for f in described} == {"rules", "progress_bar"}  # --rule, --no-...
    for f in described:
        assert f"--{f.name.replace('_', '-')} {f.name.upper()} " in text
        assert " ".join(f.metadata["help"].split()) in text
    for option in ("--resume", "--config", "--rule", "--no-progress-bar"):
        assert option in text
    assert "(default: tag,bluffer)" in text and "(default: 256,256)" in text
    assert "--torch-threads TORCH_THREADS torch threads" in text and "(default: 1)" in text
    # the agents an --opponents spec may name, and the rules a --rule may set
    for name in ("bluffer", "caller", "rock", "tag", "greedy", "spoiler", "ppo:PATH"):
        assert name in text
    for rule in ("betting", "bet_sizes", "excuse", "presum", "max_rounds"):
        assert rule in text


@pytest.mark.slow
def test_subprocess_envs_with_self_play(tmp_path):
    out = tmp_path / "sub"
    argv = ["--opponents", "tag,self", "--vec-env", "subproc", "--out", str(out), *TINY]
    assert train.main(argv) == 0
    assert list((out / "pool").glob("snapshot_*.zip"))


def test_batched_training_envs_are_reproducible(tmp_path):
    """The same seed gives the same games on the batched engine, whose tables draw pool
    members (random and bluffer play dice) without resetting them."""
    import numpy as np

    def play(seed: int) -> list[bytes]:
        config = TrainConfig(
            game="lith", opponents=["tag", "bluffer", "random"], seed=seed, n_envs=16,
            vec_env="batched", out=str(tmp_path),
        )  # fmt: skip
        vec = make_batched_env(config, tmp_path / "pool")
        seen = [vec.reset().tobytes()]
        rng = np.random.default_rng(0)
        for _ in range(60):
            masks = np.array(vec.env_method("action_masks"))
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            observations, rewards, _, _ = vec.step(actions)
            seen += [observations.tobytes(), rewards.tobytes()]
        return seen

    assert play(4) == play(4)
    assert play(4) != play(5)


# ---------------------------------------------------------------------------------------------
# What a run leaves and prints


def test_evaluations_leave_no_model_file_behind(trained):
    """The policy an evaluation plays is a scratch file, gone when it is over."""
    assert not (trained / "eval_model.zip").exists()
    assert sorted(p.name for p in trained.iterdir()) == [
        "checkpoints",
        "config.json",
        "metrics.json",
        "model.zip",
        "tensorboard",
    ]


def test_a_run_logged_to_a_file_prints_every_evaluation_and_checkpoint(tmp_path):
    console, text = log_console(terminal=False)
    out = tmp_path / "run"
    argv = ["--opponents", "caller,tag,self", "--out", str(out), *TINY[:-1]]  # bar asked for
    assert train.main(argv, console=console) == 0
    lines = text.getvalue().splitlines()
    assert lines[0].startswith("lith, 2 players, against caller,tag,self: training steps 0 to 256")
    evaluations = [line for line in lines if "chips/100 hands" in line]
    assert len(evaluations) == 2 and evaluations[0].startswith("step 128: chips/100 hands vs ")
    metrics = json.loads((out / "metrics.json").read_text())
    for line, entry in zip(evaluations, metrics["evaluations"], strict=True):
        assert line == evaluation_line(entry, "lith")
        tag = entry["results"]["chips_per_100 vs tag"]
        assert f"vs tag {tag['mean']:+.1f} [{tag['low']:+.1f}, {tag['high']:+.1f}]" in line
        assert line.endswith("(6 hands each)") and entry["hands"] == 6
    assert f"step 128: checkpoint {out / 'checkpoints' / 'model_128_steps.zip'}" in lines
    assert f"step 256: snapshot {out / 'pool' / 'snapshot_256.zip'} (2 in the pool)" in lines
    assert "━" not in text.getvalue()  # no progress bar in a log


def test_a_terminal_gets_a_progress_bar_that_ends_at_its_total(tmp_path):
    """PPO trains whole rollouts (2 envs x 64 steps): asked for 200 steps it trains 256, and
    the bar counts to 256 of 256 — not to 256 of 200."""
    from sb3_contrib import MaskablePPO

    console, text = log_console(terminal=True)
    out = tmp_path / "run"
    argv = ["--opponents", "caller", "--out", str(out), *TINY[:-1], "--timesteps", "200"]
    argv += ["--eval-every", "256"]
    assert train.main(argv, console=console) == 0
    screen = text.getvalue()
    assert MaskablePPO.load(out / "model.zip").num_timesteps == 256
    assert "256/256 steps" in screen and "/200 steps" not in screen
    assert "step 256: chips/100 hands vs caller" in screen  # evaluations print above the bar
    assert "checkpoint" not in screen.split("training steps", 1)[1]  # the bar shows progress


def test_progress_callback_counts_to_its_total():
    console, text = log_console(terminal=True)
    bar = progress_callback(6, console)
    env = SimpleNamespace(num_envs=2)
    bar.init_callback(SimpleNamespace(get_env=lambda: env, num_timesteps=0))
    bar.on_training_start({}, {})
    for _ in range(3):
        assert bar.on_step()
    bar.on_training_end()
    assert bar.completed == bar.total == 6
    assert "6/6 steps" in text.getvalue()


@pytest.mark.parametrize(
    ("timesteps", "done", "planned"),
    [(150_000, 0, 151_552), (4096, 0, 4096), (4097, 0, 8192), (8000, 4096, 8192), (1, 0, 4096)],
)
def test_planned_steps_are_whole_rollouts(timesteps, done, planned):
    config = demo_cli.demo_config(timesteps, 0, "runs/demo")
    assert config.rollout_steps == 4096 and config.planned_steps(done) == planned


# ---------------------------------------------------------------------------------------------
# Reproducibility


def test_a_run_repeats_bit_for_bit_and_records_its_software(tmp_path):
    from sb3_contrib import MaskablePPO

    def run(name: str) -> Path:
        out = tmp_path / name
        argv = ["--opponents", "bluffer,random,self", "--out", str(out), "--seed", "7", *TINY]
        assert train.main(argv, console=log_console()[0]) == 0
        return out

    first, second = run("first"), run("second")
    assert torch.get_num_threads() == 1
    a = MaskablePPO.load(first / "model.zip").policy.state_dict()
    b = MaskablePPO.load(second / "model.zip").policy.state_dict()
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert (first / "metrics.json").read_bytes() == (second / "metrics.json").read_bytes()
    assert json.loads((first / "metrics.json").read_text())["evaluations"]
    recorded = json.loads((first / "config.json").read_text())
    assert recorded["torch_threads"] == 1
    for package in ("python", *PACKAGES, "commit"):
        assert package in recorded["versions"]
    assert recorded["versions"]["torch"] == torch.__version__
    assert recorded["versions"]["stable-baselines3"] and recorded["versions"]["sb3-contrib"]


def test_torch_threads_are_set_from_the_config(trained, tmp_path):
    out = copy_of(trained, tmp_path)
    try:
        argv = ["--resume", str(out), "--timesteps", "384", "--torch-threads", "2"]
        assert train.main(argv, console=log_console()[0]) == 0
        assert torch.get_num_threads() == 2
        assert json.loads((out / "config.json").read_text())["torch_threads"] == 2
    finally:
        torch.set_num_threads(1)


def test_resume_reads_a_config_json_of_before_torch_threads(trained, tmp_path):
    out = copy_of(trained, tmp_path)
    saved = json.loads((out / "config.json").read_text())
    del saved["versions"]
    saved["threads"] = saved.pop("torch_threads")  # the option's earlier name
    (out / "config.json").write_text(json.dumps(saved))
    config, resume, _ = config_from_args(["--resume", str(out), "--timesteps", "384"])
    assert resume and config.torch_threads == 1
    saved["colour"] = 1
    (out / "config.json").write_text(json.dumps(saved))
    with pytest.raises(ValueError, match="resume: unknown option\\(s\\) colour"):
        config_from_args(["--resume", str(out), "--timesteps", "384"])


def test_pool_snapshots_are_ordered_by_step(tmp_path):
    for step in (99_968, 100_032, 1_000_000, 200_000):
        (tmp_path / f"snapshot_{step}.zip").write_bytes(b"")
    newest = newest_snapshots(tmp_path, 2)
    assert [p.name for p in newest] == ["snapshot_200000.zip", "snapshot_1000000.zip"]


# ---------------------------------------------------------------------------------------------
# experiments.run and the demo


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--timesteps", "0"], "argument --timesteps: must be at least 1, got 0"),
        (["--timesteps", "-100"], "argument --timesteps: must be at least 1, got -100"),
        (["--timesteps", "lots"], "argument --timesteps: must be an integer, got 'lots'"),
        (["--units", "0"], "argument --units: must be at least 1, got 0"),
        (["--units", "-2"], "argument --units: must be at least 1"),
        (["--units", "3"], "--units: must be a positive multiple of players (2)"),
        (["--workers", "0"], "argument --workers: must be at least 1"),
        (["--report-only", "--timesteps", "64"], "--timesteps: --report-only trains"),
    ],
)
def test_experiment_flags_are_checked(tmp_path, argv, message, capsys):
    path = tiny_toml(tmp_path / "x.toml", tmp_path / "run")
    with pytest.raises(SystemExit) as exit_:
        experiments_run.main([str(path), *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "run").exists()  # nothing trained


@pytest.mark.parametrize(
    ("extra", "experiment", "message"),
    [
        ("[rules]\nfoo = 1", "", "--rule foo: not a rule of lith; its rules: betting"),
        ('reward = "shaped"', "", "reward: shaped is for gendeneia only"),
        ("", "seed = 1\nrounds = 3", "experiment: unknown key(s) rounds"),
        ("", "units = 5", "experiment.units: must be a positive multiple of players (2)"),
        ("", "units = 0", "experiment.units: must be a positive multiple of players (2)"),
        ("", "seed = -1", "experiment.seed: must be a non-negative integer"),
        ("", 'against = ["maniac"]', "unknown agent 'maniac'"),
        ("", 'against = ["tag", "tag"]', "experiment.against: an agent is listed twice"),
        ("", "against = []", "experiment.against: must be a non-empty list of agents"),
        ("", 'against = [["tag", "rock"]]', "one agent for each of the 1 other seats"),
        ("", 'against = [["tag", 3]]', "a list of agents for a mixed table, got ['tag', 3]"),
        ("players = 3", 'against = [["tag", "tag"]]', "an agent is seated twice at the mixed"),
        ("players = 3", 'against = [["tag", "maniac"]]', "unknown agent 'maniac'"),
        ("players = 3", 'against = [["tag", "rock"], ["tag", "rock"]]', "a mixed table is listed"),
        ("", "record = 0", "experiment.record: 'all' or a number of hands from 1 to units"),
        ("", 'record = "some"', "experiment.record: 'all' or a number of hands from 1 to"),
        ("", "units = 20\nrecord = 21", "from 1 to units (20), got 21"),
        ("", "exploiter_timesteps = 0", "experiment.exploiter_timesteps: must be a positive"),
        ("", "exploiter_units = 20", "experiment.exploiter_units: set exploiter_timesteps too"),
        ("", "exploiter_timesteps = 9\nexploiter_units = 3", "exploiter_units: must be a"),
        ("", 'exploiter_policies = ["argmax"]', "exploiter_policies: set exploiter_timesteps"),
        ("", "exact_exploitability = true", "only for the one-round heads-up limit game"),
        ("[rules]\nrounds = 1", "exact_exploitability = 1", "exact_exploitability: true or"),
        ("", 'exploiter_timesteps = 9\nexploiter_policies = ["best"]', "argmax and/or sampling"),
        ("", "exploiter_timesteps = 9\nexploiter_policies = []", "argmax and/or sampling"),
        ("", 'bot = "best"', "experiment.bot: model or mixture, got 'best'"),
        ("", 'bot = "mixture"', "experiment.bot: mixture is the population's equilibrium"),
        ("", "mixture_margin = 0.1", "experiment.mixture_margin: for bot = mixture in heads-up"),
        (
            'mixture = "nash"',
            'bot = "mixture"\nmixture_margin = "big"',
            "experiment.mixture_margin: a number of at least 0 (chips a hand), got 'big'",
        ),
        (
            'mixture = "nash"\n[rules]\nrounds = 1',
            'bot = "mixture"\nexact_exploitability = true',
            "exact_exploitability: measures the final model, not a mixture",
        ),
        ("", "psro_iterations = 2", "experiment.psro_iterations: PSRO's exploiters join"),
        (
            'mixture = "nash"',
            'bot = "mixture"\npsro_iterations = 0',
            "experiment.psro_iterations: must be a positive integer, got 0",
        ),
        (
            'mixture = "nash"',
            'bot = "mixture"\npsro_iterations = 1.5',
            "experiment.psro_iterations: must be a positive integer, got 1.5",
        ),
        (
            'mixture = "nash"',
            'bot = "mixture"\npsro_exploiter_steps = 1000',
            "experiment.psro_exploiter_steps: set psro_iterations too",
        ),
        (
            'mixture = "nash"',
            'bot = "mixture"\npsro_iterations = 1\npsro_exploiter_steps = "many"',
            "experiment.psro_exploiter_steps: must be a positive integer, got 'many'",
        ),
    ],
)
def test_bad_experiment_files_fail_before_training(tmp_path, extra, experiment, message, capsys):
    opponents = '["tag", "self"]' if "nash" in extra else '["caller"]'
    path = tiny_toml(tmp_path / "x.toml", tmp_path / "run", extra, experiment, opponents)
    with pytest.raises(SystemExit) as exit_:
        experiments_run.main([str(path)])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()  # nothing trained


def test_a_tiny_experiment_reports_the_steps_it_trained(tmp_path, capsys):
    path = tiny_toml(tmp_path / "x.toml", tmp_path / "run")
    assert experiments_run.main([str(path), "--timesteps", "100", "--workers", "1"]) == 0
    report = (tmp_path / "run" / "report.md").read_text()
    assert "trained 128 steps (timesteps 100, in whole rollouts of 128)" in report
    assert "| caller | 2 |" in report  # one block of two hands: no interval
    assert experiments_run.main([str(path), "--report-only"]) == 0
    rebuilt = (tmp_path / "run" / "report.md").read_text()
    assert "trained 128 steps (timesteps 100," in rebuilt  # the run's, not the file's 128


@pytest.mark.slow
def test_an_experiment_seats_a_mixed_table(tmp_path):
    """against = [["tag", "rock"]]: one table, the bot and one agent a seat, rotated through
    the seats; reported and summarized under the table's name."""
    from experiments.sweep import seed_figures

    experiment = 'against = ["caller", ["tag", "rock"]]\nunits = 6'
    path = tiny_toml(tmp_path / "x.toml", tmp_path / "run", "players = 3", experiment)
    assert experiments_run.main([str(path), "--workers", "1"]) == 0
    result = json.loads((tmp_path / "run" / "vs_tag+rock" / "results.json").read_text())
    assert result["agents"] == [f"ppo:{tmp_path / 'run' / 'model.zip'}", "tag", "rock"]
    assert all(r["hands"] == 6 for r in result["agents_results"].values())
    assert "| tag + rock | 6 |" in (tmp_path / "run" / "report.md").read_text()
    assert set(seed_figures(tmp_path / "run")["against"]) == {"caller", "tag + rock"}


@pytest.mark.slow
def test_an_experiment_can_exploit_both_policies_of_the_bot(tmp_path):
    experiment = (
        'against = ["caller"]\nunits = 2\nexploiter_timesteps = 256\nexploiter_units = 20\n'
        'exploiter_policies = ["argmax", "sampling"]'
    )
    path = tiny_toml(tmp_path / "x.toml", tmp_path / "run", experiment=experiment)
    assert experiments_run.main([str(path), "--workers", "1"]) == 0
    argmax = json.loads((tmp_path / "run" / "exploiter" / "exploiter.json").read_text())
    sampling = json.loads((tmp_path / "run" / "exploiter-sampling" / "exploiter.json").read_text())
    assert argmax["spec"]["target"] == f"ppo:{tmp_path / 'run' / 'model.zip'}"
    assert sampling["spec"]["target"] == f"ppo:{tmp_path / 'run' / 'model.zip'}:deterministic=false"
    report = (tmp_path / "run" / "report.md").read_text()
    assert "(its most likely action)" in report and "(its sampling policy)" in report
    assert "exploiter-sampling/gain.png" in report


def _tiny_mixture_experiment(tmp_path, experiment: str, *flags: str):
    """A tiny population run with bot = "mixture" against caller, plus ``experiment``'s
    [experiment] keys (and the command's ``flags``); returns the run folder."""
    extra = 'mixture = "nash"\nself_play_every = 128\nmeta_units = 4'
    table = f'against = ["caller"]\nunits = 4\nbot = "mixture"\n{experiment}'
    run = tmp_path / "run"
    path = tiny_toml(tmp_path / "x.toml", run, extra, table, '["tag", "self"]')
    assert experiments_run.main([str(path), "--workers", "1", "--timesteps", "256", *flags]) == 0
    return run


@pytest.mark.slow
def test_an_experiment_can_make_its_bot_the_populations_mixture(tmp_path):
    """bot = "mixture": the tournaments and the exploiters play the population's equilibrium
    mixture (its members' most likely actions in the tournaments, as a model plays its own;
    both policies for the exploiters)."""
    from experiments.sweep import seed_figures

    run = _tiny_mixture_experiment(
        tmp_path,
        "exploiter_timesteps = 256\nexploiter_units = 20\n"
        'exploiter_policies = ["argmax", "sampling"]',
    )
    result = json.loads((run / "vs_caller" / "results.json").read_text())
    assert result["agents"] == [f"mixture:{run}:deterministic=true", "caller"]
    argmax = json.loads((run / "exploiter" / "exploiter.json").read_text())
    sampling = json.loads((run / "exploiter-sampling" / "exploiter.json").read_text())
    assert argmax["spec"]["target"] == f"mixture:{run}:deterministic=true"
    assert sampling["spec"]["target"] == f"mixture:{run}"
    report = (run / "report.md").read_text()
    assert "The bot is the equilibrium mixture of the run's population" in report
    assert "| caller | 4 |" in report
    analytics = json.loads((run / "analytics.json").read_text())
    assert "mixture" in analytics and "caller" in analytics
    assert set(seed_figures(run)) >= {"against", "exploiter", "exploiter-sampling"}


@pytest.mark.slow
def test_an_experiment_runs_psro_iterations_before_its_bot_plays(tmp_path):
    """psro_iterations: after training, exploiters of the equilibrium join the population
    (training.psro), so the tournaments play the equilibrium solved with them; the report
    lists each iteration. A fresh run in the same folder (--overwrite) starts the log over."""
    psro = "psro_iterations = 2\npsro_exploiter_steps = 128"
    run = _tiny_mixture_experiment(tmp_path, psro)
    population = json.loads((run / "pool" / "population.json").read_text())
    assert population["members"][-2:] == ["exploiter_psro1.zip", "exploiter_psro2.zip"]
    log = json.loads((run / "pool" / "psro.json").read_text())
    assert [entry["iteration"] for entry in log] == [1, 2]
    mixture = json.loads((run / "pool" / "mixture.json").read_text())
    assert mixture["members"] == population["members"]  # solved again with the exploiters
    report = (run / "report.md").read_text()
    assert "## PSRO iterations" in report and "\n| 2 | " in report
    assert json.loads((run / "wall_time.json").read_text())["psro_seconds"] > 0
    _tiny_mixture_experiment(tmp_path, psro, "--overwrite")
    assert [
        entry["iteration"] for entry in json.loads((run / "pool" / "psro.json").read_text())
    ] == [1, 2]


def test_the_bot_spec_names_the_model_or_the_mixture(tmp_path):
    spec = bot_spec
    assert spec(tmp_path, "model") == f"ppo:{tmp_path / 'model.zip'}"
    assert spec(tmp_path, "model", "sampling").endswith("model.zip:deterministic=false")
    assert spec(tmp_path, "mixture", "sampling") == f"mixture:{tmp_path}"
    assert (
        spec(tmp_path, "mixture", "argmax", 0.1)
        == f"mixture:{tmp_path}:margin=0.1:deterministic=true"
    )


@pytest.mark.slow
def test_a_one_round_experiment_measures_its_exact_exploitability(tmp_path):
    experiment = 'against = ["caller"]\nunits = 2\nexact_exploitability = true'
    path = tiny_toml(tmp_path / "x.toml", tmp_path / "run", "[rules]\nrounds = 1", experiment)
    assert experiments_run.main([str(path), "--workers", "1"]) == 0
    curve = json.loads((tmp_path / "run" / "exact_exploitability.json").read_text())
    assert [entry["step"] for entry in curve] == [128]
    # an untrained network plays nearly at random: far from the equilibrium, but finite
    assert 0.2 < curve[0]["sampling"] < 3 and 0.2 < curve[0]["argmax"] < 5
    report = (tmp_path / "run" / "report.md").read_text()
    assert "## Exact exploitability" in report and f"{curve[0]['sampling']:.4f}" in report
    assert (tmp_path / "run" / "exact_exploitability.png").is_file()
    # a seed sweep summarizes the final model's figure, in chips/100 hands like the others
    from experiments.sweep import seed_figures

    figures = seed_figures(tmp_path / "run")
    assert figures["exact-sampling"]["mean"] == pytest.approx(100 * curve[-1]["sampling"])
    assert figures["exact-argmax"]["mean"] == pytest.approx(100 * curve[-1]["argmax"])


@pytest.mark.slow
def test_an_experiment_can_end_with_an_exploiter(tmp_path):
    experiment = 'against = ["caller"]\nunits = 2\nexploiter_timesteps = 256\nexploiter_units = 20'
    path = tiny_toml(tmp_path / "x.toml", tmp_path / "run", experiment=experiment)
    assert experiments_run.main([str(path), "--workers", "1"]) == 0
    found = json.loads((tmp_path / "run" / "exploiter" / "exploiter.json").read_text())
    assert found["spec"]["target"] == f"ppo:{tmp_path / 'run' / 'model.zip'}"
    assert found["gain"]["units"] == 20 and found["steps"] >= 256
    report = (tmp_path / "run" / "report.md").read_text()
    assert "## Approximate exploitability" in report and "[" in report
    assert f"{found['gain']['mean']:+.1f}" in report and "exploitability of ppo:" in report


def test_experiment_and_demo_help_show_defaults_and_agents(capsys):
    for main in (experiments_run.main, demo_cli.main):
        with pytest.raises(SystemExit) as exit_:
            main(["--help"])
        assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--workers WORKERS tournament processes for a game without" in text
    assert "(default: 2)" in text
    assert "default: the file's timesteps" in text
    assert (
        "lith: abstract:PATH, bluffer, caller, ismcts, mixture:FOLDER, ppo:PATH, random, "
        "response:PATH, rock, "
        "solved:PATH, tag" in text
    )
    assert "(default: 150000)" in text and "(default: 2000)" in text
    assert "(default: runs/demo)" in text and "(default: 0)" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--timesteps", "0"], "argument --timesteps: must be at least 1, got 0"),
        (["--timesteps", "-1"], "argument --timesteps: must be at least 1"),
        (["--hands", "0"], "argument --hands: must be at least 1"),
        (["--hands", "301"], "argument --hands: must be even"),
        (["--seed", "-1"], "argument --seed: must be from 0 to"),
        (["--seed", "x"], "argument --seed: must be an integer"),
        (["--out", ""], "argument --out: must be a folder name"),
    ],
)
def test_demo_flags_are_checked(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        demo_cli.main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_a_model_names_the_game_it_was_trained_for_at_load_and_a_run_folder_plays(trained, capsys):
    from games import game_config
    from tablegame.registry import make_agent

    gendeneia = game_config("gendeneia", 3, {})
    for spec in (f"ppo:{trained / 'model.zip'}", f"ppo:{trained}"):
        with pytest.raises(ValueError, match="trained for lith with 2 players") as error:
            make_agent(spec, "gendeneia", config=gendeneia)
        assert "config.json" in str(error.value)
    with pytest.raises(ValueError, match="trained for lith with 2 players"):
        make_agent(f"ppo:{trained}", "lith", config=game_config("lith", 3, {}))
    agent = make_agent(f"ppo:{trained}", "lith", config=game_config("lith", 2, {}))
    assert agent.path == trained / "model.zip"  # the run's final model
    checkpoint = sorted((trained / "checkpoints").glob("*.zip"))[0]
    with pytest.raises(ValueError, match="trained for lith"):
        make_agent(f"ppo:{checkpoint}", "gendeneia", config=gendeneia)
    # at the door of a tournament: an error naming --agents, before any hand is played
    from tournaments.cli import main as tournament_main

    argv = ["--game", "gendeneia", "--players", "3", "--agents", f"ppo:{trained},greedy"]
    with pytest.raises(SystemExit):
        tournament_main([*argv, "--games", "3"])
    err = capsys.readouterr().err
    assert "--agents: ppo:" in err and "trained for lith with 2 players" in err


def test_the_demo_says_what_its_result_against_tag_means():
    said = demo_cli.meaning({"mean": -8.2, "low": -38.8, "high": 22.4})
    assert said.startswith("Against tag the bot won -8.2 [-38.8, +22.4] chips/100 hands")
    assert "interval holds 0" in said
    assert "it beats tag" in demo_cli.meaning({"mean": 30.0, "low": 5.0, "high": 55.0})
    assert "tag still beats it" in demo_cli.meaning({"mean": -30.0, "low": -55.0, "high": -5.0})
