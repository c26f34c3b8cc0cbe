"""Expert iteration (training.expert_iteration): a tiny run end to end, resumed without
redoing anything, the same data for any number of workers, a fit that learns its targets,
and bad configs refused naming the key."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.gendeneia_ismcts import ISMCTSAgent
from gendeneia_env.encoding import action_from_id, action_mask, encode
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame
from tablegame.registry import make_agent
from training import expert_iteration
from training.expert_iteration import ExItConfig, fit_network, game_targets, new_model, self_play

TINY = {"generations": 2, "games": 2, "iterations": 4, "eval_games": 3, "epochs": 2}


def tiny(tmp_path, **changes) -> ExItConfig:
    return ExItConfig(**{**TINY, "out": str(tmp_path / "run"), **changes})


@pytest.mark.slow
def test_a_tiny_run_leaves_networks_that_play_alone_and_guide_the_search(tmp_path):
    config = tiny(tmp_path)
    progress = expert_iteration.run(config)
    assert [p["generation"] for p in progress] == [0, 1]
    for record in progress:
        assert record["decisions"] > 0 and record["policy loss"] > 0
        rate = record["alone vs two spoilers"]
        assert 0 <= rate["win rate"] <= 1
    run = tmp_path / "run"
    assert json.loads((run / "progress.json").read_text()) == progress
    assert (run / "progress.png").is_file() and any((run / "tensorboard").iterdir())
    model = run / "generation-1" / "model.zip"
    rules = GendeneiaConfig()
    alone = make_agent(f"ppo:{model}", "gendeneia", config=rules)
    guided = ISMCTSAgent(seed=1, config=rules, iterations=6, prior=str(model), policy="prior")
    with pytest.raises(ValueError, match="ismcts: prior: the model's observation space"):
        ISMCTSAgent(config=GendeneiaConfig(num_players=4), prior=str(model))
    game = GendeneiaGame(rules, seed=3)
    while not game.is_over:
        seat = game.current
        agent = alone if seat == 0 else guided
        choice = agent.act(encode(game.observe(seat), rules), action_mask(game))
        game.apply(action_from_id(game, choice))


def test_a_rerun_resumes_after_the_last_finished_generation(tmp_path):
    expert_iteration.run(tiny(tmp_path, generations=1))
    data = tmp_path / "run" / "generation-0" / "data.npz"
    stamp = data.stat().st_mtime_ns
    progress = expert_iteration.run(tiny(tmp_path, generations=2))
    assert [p["generation"] for p in progress] == [0, 1]
    assert data.stat().st_mtime_ns == stamp


@pytest.mark.slow
def test_self_play_data_do_not_depend_on_the_number_of_workers(tmp_path):
    one = self_play(tiny(tmp_path, games=12, iterations=3), prior=None)
    two = self_play(tiny(tmp_path, games=12, iterations=3, workers=2), prior=None)
    assert one.keys() == two.keys()
    for key in one:
        assert np.array_equal(one[key], two[key]), key
    assert np.allclose(one["visits"].sum(axis=1), 1.0)
    assert not (one["visits"] * ~one["masks"]).any()  # visits only on legal actions
    assert set(np.unique(one["games"])) == set(range(12))


def test_each_decision_learns_the_whole_visit_distribution_and_its_own_seats_return():
    """A crafted record of three seats: the policy targets are the search's distributions as
    they were (not their most visited action), the value targets the return of the seat that
    acted, decision by decision."""
    searched = [
        (1, np.array([0.0, 0.5, 0.3, 0.2])),
        (2, np.array([0.6, 0.0, 0.4, 0.0])),
        (0, np.array([0.0, 0.0, 0.25, 0.75])),
        (1, np.array([0.1, 0.1, 0.1, 0.7])),
    ]
    returns = [1.1, -0.2, 0.05]
    policies, values = game_targets(searched, returns)
    assert values == [-0.2, 0.05, 1.1, -0.2]
    assert len(policies) == len(searched)
    for target, (_, policy) in zip(policies, searched, strict=True):
        assert target.dtype == np.float32
        np.testing.assert_array_equal(target, policy.astype(np.float32))
    assert game_targets([], returns) == ([], [])


def test_self_play_records_spread_visits_and_each_seats_own_return(tmp_path):
    data = self_play(tiny(tmp_path, games=2, iterations=6), prior=None)
    spread = (data["visits"] > 0).sum(axis=1) > 1
    assert spread.mean() > 0.5  # six simulations rarely all go one way
    for game in np.unique(data["games"]):
        # three seats, three returns (the blend's margins make ties unlikely)
        assert len(np.unique(data["returns"][data["games"] == game])) == 3


def test_the_fit_learns_the_visit_distributions(tmp_path):
    config = tiny(tmp_path, games=4, epochs=30, learning_rate=3e-3)
    data = self_play(config, prior=None)
    model = new_model(config)
    before = fit_network(model, data, ExItConfig(**{**TINY, "epochs": 1, "learning_rate": 1e-9}), 0)
    after = fit_network(model, data, config, seed=0)
    assert after["policy loss"] < 0.5 * before["policy loss"]
    assert after["value loss"] < before["value loss"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("games = 0", "games: must be an integer >= 1"),
        ("players = 9", "players: must be 2-6"),
        ("eval_games = 10", "eval_games: must be a multiple of players"),
        ("reward = 'score'", "reward: must be win or blend"),
        ("rollout = 'ppo'", "rollout: must be random, greedy, spoiler or prior"),
        ("net_arch = [64, 0]", "net_arch: must be a list of positive layer widths"),
        ("learning_rate = 0", "learning_rate: must be > 0"),
        ("warm_start = 1", "warm_start: must be true or false"),
        ("iterationz = 5", "unknown key(s) iterationz"),
        ("games = ", "bad.toml: Invalid value (at line 2"),
    ],
)
def test_bad_configs_exit_2_naming_the_key(tmp_path, capsys, text, message):
    path = tmp_path / "bad.toml"
    path.write_text("[expert_iteration]\n" + text + "\n")
    with pytest.raises(SystemExit) as stop:
        expert_iteration.main([str(path), "--out", str(tmp_path / "out")])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_file_without_the_table_is_refused(tmp_path, capsys):
    path = tmp_path / "flat.toml"
    path.write_text("games = 4\n")
    with pytest.raises(SystemExit) as stop:
        expert_iteration.main([str(path)])
    assert stop.value.code == 2
    assert "needs one table, [expert_iteration]" in capsys.readouterr().err


def test_every_expert_iteration_experiment_is_a_valid_config():
    files = [p for p in Path("experiments").glob("*.toml") if "[expert_iteration]" in p.read_text()]
    assert files
    for path in files:
        ExItConfig.from_toml(path)


def test_the_searchs_fast_forward_pass_gives_the_policys_probabilities(tmp_path):
    from agents.ppo import PPOAgent

    new_model(ExItConfig()).save(tmp_path / "m.zip")
    agent = PPOAgent(tmp_path / "m.zip", deterministic=False)
    rules = GendeneiaConfig()
    game = GendeneiaGame(rules, seed=5)
    for _ in range(12):
        obs, mask = encode(game.observe(game.current), rules), action_mask(game)
        fast = agent.policy_probabilities(obs, mask)
        assert fast == pytest.approx(agent.action_probabilities(obs[None], mask[None])[0], abs=1e-6)
        assert not fast[mask == 0].any()
        game.apply(game.legal_actions()[0])
