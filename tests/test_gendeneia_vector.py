"""``gymnasium.make_vec("Gendeneia-v0")``: every finished table's game is the reference
engine's game for its seed and actions, its rewards sum to that game's return, and its
options are checked at the door."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gendeneia_env  # noqa: F401 - registers Gendeneia-v0
from gendeneia_env import encoding
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame
from gendeneia_env.table import seat_returns
from gendeneia_env.vector import GendeneiaVectorEnv
from tablegame.sb3_vec import SB3VecEnv


def logged(env: GendeneiaVectorEnv) -> tuple[dict[int, list], dict[int, list]]:
    """Each table's current game as [seed, action ids...], kept as the engine plays, and the
    game each table played before its last new game."""
    engine, games, before = env.engine, {}, {}
    reset, step = engine.reset, engine.step

    def logging_reset(seeds, tables=None, first_player=None):
        reset(seeds, tables=tables, first_player=first_player)
        for t in engine._tables(tables).tolist():
            if t in games:
                before[t] = games[t]
            games[t] = [int(engine.seeds[t])]

    def logging_step(actions, tables=None):
        live = engine._tables(tables)
        live = live[~engine.match_over[live]]
        for t in live.tolist():
            games[t].append(int(actions[t]))
        step(actions, tables=tables)

    engine.reset, engine.step = logging_reset, logging_step
    return games, before


@pytest.mark.parametrize(
    ("rules", "reward"),
    [
        ({}, "shaped"),
        ({"num_players": 4, "presum": "subtract", "twist_any": [0, 5]}, "shaped_win"),
        ({"num_players": 2, "round_lots": True}, "final"),
    ],
)
def test_every_finished_game_is_the_reference_game_and_its_rewards_sum_to_its_return(rules, reward):
    env = gym.make_vec("Gendeneia-v0", num_envs=8, opponents="spoiler", reward=reward, **rules)
    assert isinstance(env, GendeneiaVectorEnv)
    config = env.config
    games, before = logged(env)
    observations, info = env.reset(seed=2)
    rng = np.random.default_rng(1)
    earned = np.zeros(8)
    finished = 0
    for _ in range(300):
        masks = info["action_mask"]
        for t in range(8):  # the observation is the learner's view of the reference game
            game = replay(config, games[t])
            assert game.current == info["seat"][t]
            np.testing.assert_array_equal(
                observations[t], encoding.encode(game.observe(int(info["seat"][t])), config)
            )
            np.testing.assert_array_equal(masks[t], encoding.action_mask(game))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        observations, rewards, terminated, _, info = env.step(actions)
        earned += rewards
        for t in np.flatnonzero(terminated):
            game = replay(config, before[t])
            seat = info["final_seat"][t]
            assert game.is_over
            assert info["scores"][t].tolist() == game.scores()
            assert info["win_shares"][t].tolist() == game.win_shares()
            expected = seat_returns(np.array([game.scores()]), np.array([True]), reward, 0.1)[0]
            np.testing.assert_allclose(info["returns"][t], expected)
            assert earned[t] == pytest.approx(expected[seat])
            earned[t] = 0.0
            finished += 1
    assert finished >= 8


def replay(config: GendeneiaConfig, log: list[int]) -> GendeneiaGame:
    game = GendeneiaGame(config, seed=log[0])
    for action_id in log[1:]:
        game.apply(encoding.action_from_id(game, action_id))
    return game


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"num_envs": 0}, ValueError, "num_envs"),
        ({"num_envs": True}, ValueError, "num_envs"),
        ({"reward": "wins"}, ValueError, "reward"),
        ({"reward_scale": 0}, ValueError, "reward_scale"),
        ({"learner_seat": 3}, ValueError, "learner_seat"),
        ({"render_mode": "ansi"}, ValueError, "render_mode"),
        ({"presum": "add"}, ValueError, "presum"),
        ({"lots": 3}, TypeError, "lots"),
    ],
)
def test_bad_options_are_named(options, error, match):
    options = {"num_envs": 2, **options}
    with pytest.raises(error, match=match):
        GendeneiaVectorEnv(**options)


def test_maskable_ppo_learns_on_it_through_the_sb3_adapter():
    from sb3_contrib import MaskablePPO

    vec = SB3VecEnv(GendeneiaVectorEnv(32, opponents=["spoiler", "greedy"], reward="shaped"))
    model = MaskablePPO("MlpPolicy", vec, n_steps=8, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    assert model.num_timesteps == 512
