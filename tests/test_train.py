"""train.py and experiments: tiny runs save models that play tournaments; resume; bad configs."""

import io
import json

import pytest

import train
from agents.tournament import TournamentSpec, run_tournament
from gendeneia_env import play as gendeneia_play
from lith_env import play as lith_play

TINY = [
    "--timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
    "--n-epochs", "1", "--eval-every", "128", "--eval-units", "8", "--checkpoint-every", "128",
    "--self-play-every", "128", "--no-progress-bar",
]  # fmt: skip


@pytest.mark.parametrize(
    ("game", "players", "opponents", "against"),
    [("lith", 2, "tag,self", "caller"), ("gendeneia", 3, "greedy", "greedy")],
)
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


def test_resume_continues_the_step_count(tmp_path):
    from sb3_contrib import MaskablePPO

    out = tmp_path / "run"
    assert train.main(["--opponents", "caller", "--out", str(out), *TINY]) == 0
    assert MaskablePPO.load(out / "model.zip").num_timesteps == 256
    assert train.main(["--resume", str(out), "--timesteps", "384", "--no-progress-bar"]) == 0
    assert MaskablePPO.load(out / "model.zip").num_timesteps == 384
    assert json.loads((out / "config.json").read_text())["timesteps"] == 384


def test_a_fresh_run_in_a_used_folder_starts_over(tmp_path):
    """An earlier run's snapshots must not join the new run's self-play pool, nor its
    checkpoints be what --resume continues."""
    out = tmp_path / "run"
    (out / "pool").mkdir(parents=True)
    (out / "checkpoints").mkdir()
    stale_snapshot = out / "pool" / "snapshot_999999.zip"
    stale_checkpoint = out / "checkpoints" / "model_999999_steps.zip"
    for stale in (stale_snapshot, stale_checkpoint):
        stale.write_bytes(b"from an earlier run")
    assert train.main(["--opponents", "caller,self", "--out", str(out), *TINY]) == 0
    assert not stale_snapshot.exists() and not stale_checkpoint.exists()
    assert train.latest_checkpoint(out).stem != "model_999999_steps"


def test_corrupt_or_mismatched_checkpoint(tmp_path, capsys):
    out = tmp_path / "run"
    assert train.main(["--opponents", "caller", "--out", str(out), *TINY]) == 0
    config = json.loads((out / "config.json").read_text())
    config["players"] = 3  # the saved model sees 2-player observations
    (out / "config.json").write_text(json.dumps(config))
    assert train.main(["--resume", str(out), "--timesteps", "512", "--no-progress-bar"]) == 2
    assert "resume: cannot continue from" in capsys.readouterr().err
    for checkpoint in (out / "checkpoints").glob("*.zip"):
        checkpoint.write_bytes(b"junk")
    config["players"] = 2
    (out / "config.json").write_text(json.dumps(config))
    assert train.main(["--resume", str(out), "--timesteps", "512", "--no-progress-bar"]) == 2
    assert "wasn't a zip-file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "poker"], "game: must be lith or gendeneia"),
        (["--players", "11"], "players: must be 2-10 for lith"),
        (["--game", "gendeneia", "--players", "7"], "players: must be 2-6 for gendeneia"),
        (["--opponents", "tag,maniac"], "unknown agent 'maniac'"),
        (["--timesteps", "0"], "timesteps: must be a positive integer"),
        (["--timesteps", "many"], "timesteps: expected a number"),
        (["--vec-env", "threads"], "vec_env: must be dummy, subproc or batched"),
        (["--learning-rate", "3"], "learning_rate: must be a number in"),
        (["--rule", "betting=fixed"], "betting: must be one of"),
        (["--config", "/no/such.toml"], "config: no file at"),
        (["--resume", "/no/such/run"], "resume: no config.json"),
    ],
)
def test_bad_options_fail_at_once_naming_the_field(argv, message, capsys):
    assert train.main(argv) == 2
    assert message in capsys.readouterr().err


def test_config_files_and_flag_overrides(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(
        'game = "gendeneia"\nplayers = 3\nopponents = ["greedy"]\n[experiment]\nunits = 9\n'
    )
    config, resume = train.config_from_args(["--config", str(path), "--players", "4"])
    assert (config.game, config.players, config.opponents, resume) == (
        "gendeneia",
        4,
        ["greedy"],
        False,
    )
    path.write_text('game = "lith"\ncolour = 1\n')
    with pytest.raises(ValueError, match="unknown option\\(s\\) colour"):
        train.config_from_args(["--config", str(path)])


def test_every_experiment_file_is_a_valid_config():
    from pathlib import Path

    files = sorted(Path("experiments").glob("*.toml"))
    assert len(files) >= 4
    for path in files:
        train.TrainConfig(**train.load_config(path)).validate()


def test_help_explains_every_option(capsys):
    with pytest.raises(SystemExit):
        train.main(["--help"])
    text = capsys.readouterr().out
    for option in ("--opponents", "--self-play-every", "--resume", "--config", "--eval-every"):
        assert option in text
    assert "(default: tag,bluffer)" in text


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
        config = train.TrainConfig(
            game="lith", opponents=["tag", "bluffer", "random"], seed=seed, n_envs=16,
            vec_env="batched", out=str(tmp_path),
        )  # fmt: skip
        vec = train.make_batched_env(config, tmp_path / "pool")
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
