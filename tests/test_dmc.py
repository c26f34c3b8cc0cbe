"""Deep Monte Carlo (training.dmc): the targets are the undiscounted returns to the end of the
game, Q fits them on games with known answers, play is softmax(Q / temperature) and greedy in
Q, a run repeats bit for bit and plays as ``ppo:``, bad options fail naming them."""

import json

import gymnasium as gym
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import train
from training.dmc import DMC

torch.set_num_threads(1)

TINY = [
    "--timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
    "--n-epochs", "1", "--eval-every", "0", "--checkpoint-every", "128",
    "--net-arch", "16", "--no-progress-bar",
]  # fmt: skip


class Chain(gym.Env):
    """``length`` decisions a game; action a pays ``rewards[a]`` at every step, and the last
    step pays ``bonus`` more when the first action was 1. The observation is the step
    number (one-hot), so Q(step 0, a) = rewards[a] * length + bonus * (a == 1)."""

    def __init__(self, rewards, length=3, bonus=1.0, legal=None):
        self.rewards = np.asarray(rewards, dtype=np.float64)
        self.length, self.bonus = length, bonus
        self.legal = np.ones(len(rewards), dtype=bool) if legal is None else np.asarray(legal)
        self.observation_space = gym.spaces.Box(0, 1, (length,), np.float32)
        self.action_space = gym.spaces.Discrete(len(rewards))
        self.paid: list[list[float]] = []  # every game's rewards, as the env paid them

    def _obs(self):
        obs = np.zeros(self.length, np.float32)
        obs[self.t] = 1
        return obs

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.t, self.first = 0, None
        self.paid.append([])
        return self._obs(), {}

    def step(self, action):
        assert self.legal[action], "an illegal action was played"
        self.first = action if self.first is None else self.first
        reward = float(self.rewards[action])
        self.t += 1
        done = self.t == self.length
        if done and self.first == 1:
            reward += self.bonus
        self.paid[-1].append(reward)
        return (np.zeros(self.length, np.float32) if done else self._obs()), reward, done, False, {}

    def action_masks(self):
        return self.legal


def _model(env_factory, n_envs=4, **options) -> DMC:
    env = DummyVecEnv([env_factory] * n_envs)
    options = {
        "n_steps": 64,
        "batch_size": 64,
        "n_epochs": 4,
        "learning_rate": 3e-3,
        "seed": 0,
        "device": "cpu",
        "policy_kwargs": {"net_arch": [16]},
        **options,
    }
    return DMC("MlpPolicy", env, **options)


def test_the_targets_are_the_undiscounted_rewards_to_the_end_of_the_game():
    model = _model(lambda: Chain([0.25, -0.5], length=3, bonus=2.0), n_envs=1, n_steps=10)
    _, callback = model._setup_learn(10, None)
    callback.on_training_start(locals(), globals())
    # one rollout, untrained: games 1-3 whole, the fourth cut after its first step
    model.collect_rollouts(model.env, callback, model.rollout_buffer, n_rollout_steps=10)
    env = model.get_env().envs[0]
    returns = model.rollout_buffer.returns[:, 0]
    expected = [sum(game[i:]) for game in env.paid[:3] for i in range(3)]
    np.testing.assert_allclose(returns[:9], expected, atol=1e-6)
    # the cut game: its one reward, then the value head's estimate of the state it reached
    with torch.no_grad():
        _, value = model.q_values(torch.as_tensor(model._last_obs))
    assert returns[9] == pytest.approx(env.paid[3][0] + float(value[0]), abs=1e-5)


def test_q_learns_each_actions_return_and_the_policy_is_its_softmax():
    rewards, legal = [0.2, -0.3, 0.9], [True, True, False]
    model = _model(lambda: Chain(rewards, length=2, bonus=1.0, legal=legal), temperature=0.5)
    model.learn(6_000)
    obs = torch.as_tensor(np.eye(2, dtype=np.float32))  # the first step, the second
    masks = np.array([legal, legal])
    with torch.no_grad():
        q, value = model.q_values(obs)
        probs = model.policy.get_distribution(obs, action_masks=masks)
        probs = probs.distribution.probs.numpy()
    q, later, probs = q.numpy()[0], probs[1], probs[0]
    # Q(first step, a): rewards[a], then the second step's mean reward under the policy
    # there, plus the bonus for a = 1
    second = later[0] * rewards[0] + later[1] * rewards[1]
    assert q[0] == pytest.approx(rewards[0] + second, abs=0.06)
    assert q[1] == pytest.approx(rewards[1] + second + 1.0, abs=0.06)
    assert probs[2] == 0.0  # the illegal action is never played, whatever its Q
    assert probs[0] / probs[1] == pytest.approx(np.exp((q[0] - q[1]) / 0.5), rel=1e-4)
    assert float(value[0]) == pytest.approx(probs[0] * q[0] + probs[1] * q[1], abs=0.08)
    action, _ = model.predict(obs.numpy()[:1], deterministic=True, action_masks=masks[:1])
    assert int(action[0]) == int(np.argmax(np.where(legal, q, -np.inf)))


@pytest.mark.parametrize("name", ["gamma", "gae_lambda"])
def test_dmc_refuses_a_discount_or_a_lambda(name):
    with pytest.raises(ValueError, match=f"{name}: DMC learns undiscounted"):
        _model(lambda: Chain([0.0, 1.0]), **{name: 0.9})


def test_a_dmc_run_repeats_bit_for_bit_resumes_and_plays_as_ppo(tmp_path):
    def run(name: str) -> dict:
        out = tmp_path / name
        argv = ["--opponents", "caller", "--algorithm", "dmc", "--temperature", "0.25",
                "--out", str(out), "--seed", "3", *TINY]  # fmt: skip
        assert train.main(argv) == 0
        return MaskablePPO.load(out / "model.zip").policy.state_dict()

    a, b = run("first"), run("second")
    assert all(torch.equal(a[k], b[k]) for k in a)
    saved = json.loads((tmp_path / "first" / "config.json").read_text())
    assert saved["algorithm"] == "dmc" and saved["temperature"] == 0.25
    assert train.main(["--resume", str(tmp_path / "first"), "--timesteps", "512"]) == 0
    resumed = DMC.load(tmp_path / "first" / "model.zip")
    assert resumed.num_timesteps == 512 and resumed.temperature == 0.25
    assert resumed.gamma == 1.0 and resumed.gae_lambda == 1.0
    code = train.main(["--opponents", f"ppo:{tmp_path / 'first' / 'model.zip'}",
                       "--out", str(tmp_path / "against"), *TINY])  # fmt: skip
    assert code == 0
