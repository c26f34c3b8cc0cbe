"""``greedy`` and ``spoiler`` deciding for many tables at once (``act_batch``) against their
per-table ``act``: the same decisions given the same random draws, the same distribution
given their own generators, and the vector env they make fast."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gendeneia_env  # noqa: F401 - registers Gendeneia-v0
from agents.gendeneia_batched import SAMPLE, decide
from agents.gendeneia_heuristics import GreedyAgent, SpoilerAgent
from gendeneia_env import encoding
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame

CONFIGS = [
    GendeneiaConfig(),
    GendeneiaConfig(num_players=2, presum="ignore"),
    GendeneiaConfig(num_players=4, presum="subtract", twist_any=(0, 5), twist_suit=(10, 2)),
    GendeneiaConfig(num_players=5, twist_any=(0, 11, 5), twist_any_rule="must", max_rounds=20),
    GendeneiaConfig(round_lots=True, twist_suit=(10, 6, 4, 2), max_rounds=15),
]


class GivenDraws:
    """A stand-in for the per-table agent's generator that makes the choices ``decide``
    makes from the same uniforms."""

    def __init__(self, uniforms: np.ndarray) -> None:
        self.uniforms = uniforms

    def choice(self, size: int, count: int, replace: bool) -> np.ndarray:
        assert not replace and count == SAMPLE
        picks = np.arange(size)
        for j in range(count):
            k = j + min(int(self.uniforms[j] * (size - j)), size - j - 1)
            picks[j], picks[k] = picks[k], picks[j]
        return picks[:count]

    def integers(self, low: int, high: int) -> int:
        return low + int(self.uniforms[SAMPLE] * (high - low))


def states(config: GendeneiaConfig, games: int, seed: int):
    """(observation, mask) of every decision of random games."""
    rng = np.random.default_rng(seed)
    found = []
    for g in range(games):
        game = GendeneiaGame(config, seed=seed * 1000 + g)
        while not game.is_over:
            mask = encoding.action_mask(game)
            found.append((encoding.encode(game.observe(game.current), config), mask))
            game.apply(encoding.action_from_id(game, int(rng.choice(np.flatnonzero(mask)))))
    return found


@pytest.mark.parametrize("agent_class", [GreedyAgent, SpoilerAgent])
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.num_players}p")
def test_the_same_draws_give_the_same_decisions(agent_class, config):
    found = states(config, games=6, seed=config.num_players)
    observations = np.array([o for o, _ in found])
    masks = np.array([m for _, m in found])
    uniforms = np.random.default_rng(7).random((len(found), SAMPLE + 1))
    batched = decide(observations, masks, uniforms, config.presum, agent_class.spoils)
    agent = agent_class(config=config)
    expected = []
    for (observation, mask), drawn in zip(found, uniforms, strict=True):
        agent.rng = GivenDraws(drawn)
        expected.append(agent.act(observation, mask))
    assert batched.tolist() == expected
    kinds = {"hand": masks[:, 0] == 1}
    if not config.round_lots:  # under round lots every pair goes to the round's lots
        kinds["play"] = masks[:, 2] == 1
    for name, rows in kinds.items():  # every kind of decision was checked, with both outcomes
        assert len(set(batched[rows].tolist())) >= 2, name


def test_many_rows_are_decided_on_threads_as_few_are_on_one():
    from gendeneia_env.batched_rules import PARALLEL_ROWS

    config = CONFIGS[2]
    found = states(config, games=4, seed=3)
    observations = np.array([o for o, _ in found] * 3)
    masks = np.array([m for _, m in found] * 3)
    assert len(masks) >= PARALLEL_ROWS
    uniforms = np.random.default_rng(9).random((len(masks), SAMPLE + 1))
    threaded = decide(observations, masks, uniforms, config.presum, True)
    one_by_one = [
        decide(
            observations[i : i + 50], masks[i : i + 50], uniforms[i : i + 50], config.presum, True
        )
        for i in range(0, len(masks), 50)
    ]
    np.testing.assert_array_equal(threaded, np.concatenate(one_by_one))


def test_the_decisions_have_the_per_table_distribution():
    """With their own generators, a decision that rests on the sampled hands comes out
    discard as often either way (a two-proportion test at about 4 standard errors)."""
    config = GendeneiaConfig()
    found = states(config, games=4, seed=11)
    draws = 300
    tested = 0
    for observation, mask in found:
        if not mask[1]:
            continue
        per_table = GreedyAgent(seed=1, config=config)
        rate = np.mean([per_table.act(observation, mask) for _ in range(draws)])
        if not 0.2 < rate < 0.8:
            continue
        batched = GreedyAgent(seed=2, config=config)
        rows = batched.act_batch(
            np.repeat(observation[None], draws, 0), np.repeat(mask[None], draws, 0)
        )
        other = rows.mean()
        spread = np.sqrt(2 * rate * (1 - rate) / draws)
        assert abs(other - rate) < 4 * spread, (rate, other)
        tested += 1
        if tested == 3:
            break
    assert tested == 3


def test_a_vector_env_against_the_heuristics_plays_whole_games():
    env = gym.make_vec("Gendeneia-v0", num_envs=16, opponents=["spoiler", "greedy"])
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, rewards, terminated, _, _ = env.step(actions)
        finished += int(terminated.sum())
        assert np.isfinite(rewards).all()
    assert finished > 16
