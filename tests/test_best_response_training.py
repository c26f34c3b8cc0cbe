"""Training against exact best responses (train.py mixture = "best_response", exploitability
descent) on the one-round heads-up game the exact solver handles, and the linear learning
rate schedule it is run with."""

from __future__ import annotations

import json

import pytest

import train
from tests.lith_helpers import one_round_exploitability

BASE = [
    "--game", "lith", "--players", "2", "--vec-env", "batched", "--n-envs", "64",
    "--n-steps", "64", "--batch-size", "512", "--eval-every", "0", "--checkpoint-every", "0",
    "--no-progress-bar", "--seed", "3", "--opponents", "self", "--mixture", "best_response",
]  # fmt: skip
DESCENT = [*BASE, "--rule", "rounds=1"]


@pytest.mark.slow
def test_the_learner_trained_against_its_best_response_becomes_hard_to_exploit(tmp_path):
    out = tmp_path / "run"
    argv = [*DESCENT, "--self-play-every", "4096", "--timesteps", "24576", "--out", str(out)]
    assert train.main([*argv, "--learning-rate-end", "0.0001"]) == 0
    curve = json.loads((out / "metrics.json").read_text())["best_response"]
    assert [entry["step"] for entry in curve] == [0, 4096, 8192, 12288, 16384, 20480]
    # a fresh network is about as exploitable as random play (1.38 chips a hand); six
    # updates against the exact best response take most of that away
    assert curve[0]["exploitability"] > 1.0
    assert curve[-1]["exploitability"] < 0.5 * curve[0]["exploitability"]
    assert one_round_exploitability(out / "model.zip") < 0.5
    for entry in curve:
        assert entry["exploitability"] == pytest.approx(
            (entry["best_response_0"] + entry["best_response_1"]) / 2
        )
    # the other seat plays the newest best response, a solved:DIR agent; two are kept
    pool = out / "pool"
    assert sorted(p.name for p in pool.glob("best_response_*")) == [
        "best_response_16384",
        "best_response_20480",
    ]
    assert json.loads((pool / "mixture.json").read_text()) == {
        "members": ["best_response_20480"],
        "weights": [1.0],
    }
    solution = json.loads((pool / "best_response_20480" / "solution.json").read_text())
    assert solution["kind"] == "best response"
    assert solution["exploitability"] == pytest.approx(curve[-1]["exploitability"])
    # the learning rate fell linearly from 3e-4 to 1e-4 over the run
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(out / "model.zip", device="cpu")
    assert model.lr_schedule(1.0) == pytest.approx(3e-4)
    assert model.lr_schedule(0.5) == pytest.approx(2e-4)
    assert model.lr_schedule(0.0) == pytest.approx(1e-4)


@pytest.mark.slow
def test_the_same_seed_gives_the_same_descent_and_a_resume_continues_it(tmp_path):
    runs = []
    for name in ("a", "b"):
        out = tmp_path / name
        argv = [*DESCENT, "--self-play-every", "4096", "--timesteps", "8192", "--out", str(out)]
        assert train.main(argv) == 0
        runs.append(json.loads((out / "metrics.json").read_text())["best_response"])
    assert runs[0] == runs[1]
    # a fresh run in a used folder (--overwrite) starts over, the earlier best responses gone
    (tmp_path / "b" / "pool" / "best_response_90000").mkdir()  # as if from a longer run
    assert train.main([*argv[:-1], str(tmp_path / "b"), "--overwrite"]) == 0
    assert json.loads((tmp_path / "b" / "metrics.json").read_text())["best_response"] == runs[0]
    assert sorted(p.name for p in (tmp_path / "b" / "pool").glob("best_response_*")) == [
        "best_response_0",
        "best_response_4096",
    ]
    a = tmp_path / "a"
    assert train.main(["--resume", str(a), "--timesteps", "12288", "--no-progress-bar"]) == 0
    resumed = json.loads((a / "metrics.json").read_text())["best_response"]
    assert [entry["step"] for entry in resumed] == [0, 4096, 8192]  # a best response at 8192
    assert resumed[:2] == runs[0][:2]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--rule", "rounds=1", "--mixture", "best_response"],
            "opponents: must be ['self'] with mixture = best_response",
        ),
        (
            [*DESCENT, "--opponents", "tag,self"],
            "opponents: must be ['self'] with mixture = best_response",
        ),
        (
            ["--mixture", "best_response", "--opponents", "self"],  # the full deck, 3 rounds
            "mixture: best_response needs a game the exact solver handles (cards:",
        ),
        (
            [*DESCENT, "--players", "3"],
            "mixture: best_response needs a game the exact solver handles (num_players:",
        ),
        (
            [*DESCENT, "--rule", "betting=no-limit"],
            "mixture: best_response needs a game the exact solver handles (betting:",
        ),
        (
            ["--game", "gendeneia", "--opponents", "self", "--mixture", "best_response"],
            "game: must be lith with mixture = best_response",
        ),
        (["--mixture", "best"], "mixture: must be uniform, nash, best_response or exploiter"),
        (["--learning-rate-end", "0"], "learning_rate_end: must be a number in (0, 1]"),
        (["--learning-rate-end", "2"], "learning_rate_end: must be a number in (0, 1]"),
        (["--learning-rate-end", "fast"], "--learning-rate-end: expected a number, got 'fast'"),
    ],
)
def test_bad_best_response_options_are_named(argv, message, tmp_path, capsys):
    assert train.main([*argv, "--out", str(tmp_path / "never")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "never").exists()


@pytest.mark.slow
def test_a_game_with_exchanges_descends_too(tmp_path):
    """Two rounds on seven cards (six dealt, one to draw): the exchange game's solver gives the
    best responses."""
    out = tmp_path / "run"
    cards = ["--rule", "rounds=2", "--rule", "cards=0,7,11,15,21,27,33", "--rule", "max_raises=0"]
    argv = [*BASE, *cards, "--self-play-every", "4096", "--timesteps", "12288"]
    assert train.main([*argv, "--out", str(out)]) == 0
    curve = json.loads((out / "metrics.json").read_text())["best_response"]
    assert [entry["step"] for entry in curve] == [0, 4096, 8192]
    assert curve[-1]["exploitability"] < 0.8 * curve[0]["exploitability"]
    solution = json.loads((out / "pool" / "best_response_8192" / "solution.json").read_text())
    assert solution["config"]["rounds"] == 2
