"""Magnetic mirror descent (training.mmd) and the tuned-PPO options: the update on tiny games
with known answers, the options checked at the door, a seeded run repeating bit for bit."""

import json

import gymnasium as gym
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import train
from training.mmd import MMD, masked_kl

torch.set_num_threads(1)

TINY = [
    "--timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
    "--n-epochs", "1", "--eval-every", "0", "--checkpoint-every", "128",
    "--self-play-every", "128", "--net-arch", "16", "--no-progress-bar",
]  # fmt: skip


class Bandit(gym.Env):
    """One state, one decision, reward ``rewards[action]``; ``legal`` masks the actions."""

    def __init__(self, rewards, legal=None):
        self.rewards = np.asarray(rewards, dtype=np.float64)
        self.legal = np.ones(len(rewards), dtype=bool) if legal is None else np.asarray(legal)
        self.observation_space = gym.spaces.Box(0, 1, (1,), np.float32)
        self.action_space = gym.spaces.Discrete(len(rewards))

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        return np.ones(1, np.float32), {}

    def step(self, action):
        assert self.legal[action], "an illegal action was played"
        return np.ones(1, np.float32), float(self.rewards[action]), True, False, {}

    def action_masks(self):
        return self.legal


def _probabilities(model) -> np.ndarray:
    obs = torch.ones(1, 1)
    env = model.get_env()
    masks = np.asarray(env.env_method("action_masks")[0])[None]
    distribution = model.policy.get_distribution(obs, action_masks=masks)
    return distribution.distribution.probs.detach().numpy()[0]


def _bandit_model(rewards, legal=None, **options) -> MMD:
    env = DummyVecEnv([lambda: Bandit(rewards, legal)] * 4)
    return MMD(
        "MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=4, learning_rate=3e-3,
        ent_coef=0.0, gamma=1.0, gae_lambda=1.0, seed=0, device="cpu",
        policy_kwargs={"net_arch": [8]}, **options,
    )  # fmt: skip


def test_masked_kl_matches_the_formula_over_legal_actions():
    p = torch.tensor([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
    q = torch.tensor([[0.25, 0.75, 0.0], [0.2, 0.3, 0.5]])
    mask = torch.tensor([[True, True, False], [True, True, True]])
    log = lambda x: torch.log(torch.where(mask, x, torch.ones_like(x)))  # noqa: E731
    kl = masked_kl(log(p), log(q), mask)
    expected = 0.5 * np.log(0.5 / 0.25) + 0.5 * np.log(0.5 / 0.75)
    assert kl[0].item() == pytest.approx(expected, abs=1e-6)
    assert kl[1].item() == pytest.approx(0.0, abs=1e-7)


@pytest.mark.slow
def test_a_uniform_magnet_settles_on_the_quantal_response():
    """One decision with rewards r: MMD's fixed point with a uniform magnet of weight alpha is
    softmax(r / alpha), whatever the step size."""
    rewards, alpha = np.array([1.0, 0.5, 0.0]), 0.5
    model = _bandit_model(rewards, kl_coef=0.2, magnet_coef=alpha)
    model.learn(15_000)  # settled: 0.012 from softmax(r / alpha) here, 0.016 after 40,000
    expected = np.exp(rewards / alpha) / np.exp(rewards / alpha).sum()
    assert _probabilities(model) == pytest.approx(expected, abs=0.03)


@pytest.mark.slow
def test_illegal_actions_are_never_played_or_weighted():
    model = _bandit_model([1.0, 5.0, 0.0], legal=[True, False, True], magnet_coef=0.5)
    model.learn(5_000)
    probabilities = _probabilities(model)
    assert probabilities[1] < 1e-6
    expected = np.exp(np.array([1.0, 0.0]) / 0.5)
    assert probabilities[[0, 2]] == pytest.approx(expected / expected.sum(), abs=0.05)


@pytest.mark.slow
def test_the_kl_term_slows_the_step_and_no_magnet_reaches_the_best_action():
    """A heavier KL to the rollout's policy moves less in one update; without a magnet the
    policy goes to the best action."""

    def after_one_update(kl_coef: float) -> float:
        model = _bandit_model([1.0, 0.0], kl_coef=kl_coef, magnet_coef=0.0)
        model.learn(256)
        return _probabilities(model)[0]

    assert 0.5 < after_one_update(5.0) < after_one_update(0.05)
    model = _bandit_model([1.0, 0.0], kl_coef=0.05, magnet_coef=0.0)
    model.learn(20_000)
    assert _probabilities(model)[0] > 0.97


def test_a_moving_magnet_follows_the_policy_and_the_anneal_weakens_it():
    model = _bandit_model([1.0, 0.0], magnet="moving", magnet_every=512, magnet_coef=1.0)
    model.learn(256)
    first = model._magnet_policy
    model.learn(1024, reset_num_timesteps=False)
    assert model._magnet_policy is not first and model.magnet_steps >= 512
    annealed = _bandit_model([1.0, 0.0], magnet_coef=1.0, magnet_anneal=True)
    assert annealed.current_magnet_coef() == 1.0
    annealed.learn(256 * 4)
    assert annealed.current_magnet_coef() == pytest.approx(1.0 / np.sqrt(5))


@pytest.mark.slow
def test_a_moving_magnet_stays_put_between_refreshes_and_pulls_towards_itself():
    """Refreshed only at the first update, the moving magnet is the initial policy for the
    whole run (not each update's previous policy), so MMD settles where a fixed magnet m
    puts it: m * exp(r / alpha), normalised. A magnet that followed the previous policy
    would only slow the steps, and the policy would go on to the best action (0.98 here)."""
    rewards, alpha = np.array([1.0, 0.0]), 0.5
    model = _bandit_model(
        rewards, kl_coef=0.2, magnet_coef=alpha, magnet="moving", magnet_every=10**9
    )
    initial = _probabilities(model)
    model.learn(2048)
    magnet = model._magnet_policy.get_distribution(torch.ones(1, 1)).distribution.probs
    assert magnet.detach().numpy()[0] == pytest.approx(initial, abs=1e-6)
    expected = initial * np.exp(rewards / alpha)
    assert _probabilities(model) == pytest.approx(expected / expected.sum(), abs=0.03)


@pytest.mark.slow
def test_an_mmd_run_repeats_bit_for_bit_resumes_and_plays_as_ppo(tmp_path):
    def run(name: str) -> dict:
        out = tmp_path / name
        argv = ["--opponents", "self", "--algorithm", "mmd", "--magnet", "moving",
                "--magnet-every", "128", "--magnet-anneal", "true", "--out", str(out),
                "--seed", "3", *TINY]  # fmt: skip
        assert train.main(argv) == 0
        return MaskablePPO.load(out / "model.zip").policy.state_dict()

    a, b = run("first"), run("second")
    assert all(torch.equal(a[k], b[k]) for k in a)
    saved = json.loads((tmp_path / "first" / "config.json").read_text())
    assert saved["algorithm"] == "mmd" and saved["magnet"] == "moving"
    assert train.main(["--resume", str(tmp_path / "first"), "--timesteps", "512"]) == 0
    resumed = MMD.load(tmp_path / "first" / "model.zip")
    assert resumed.num_timesteps == 512 and resumed.magnet == "moving"
    code = train.main(["--opponents", f"ppo:{tmp_path / 'first' / 'model.zip'}",
                       "--out", str(tmp_path / "against"), *TINY])  # fmt: skip
    assert code == 0


def test_tuned_ppo_options_reach_the_learner(tmp_path):
    out = tmp_path / "run"
    argv = ["--opponents", "caller", "--clip-range", "0.025", "--vf-coef", "0.0625",
            "--ent-coef", "0.1", "--out", str(out), *TINY]  # fmt: skip
    assert train.main(argv) == 0
    model = MaskablePPO.load(out / "model.zip")
    assert model.clip_range(1.0) == 0.025 and model.vf_coef == 0.0625 and model.ent_coef == 0.1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--algorithm", "sac"], "algorithm: must be ppo, mmd or dmc, got 'sac'"),
        (["--clip-range", "0"], "clip_range: must be a number in (0, 1]"),
        (["--clip-range", "1.5"], "clip_range: must be a number in (0, 1]"),
        (["--vf-coef", "0"], "vf_coef: must be a positive number"),
        (["--vf-coef", "x"], "--vf-coef: expected a number, got 'x'"),
        (["--algorithm", "mmd", "--kl-coef", "0"], "kl_coef: must be a positive number"),
        (["--algorithm", "mmd", "--magnet-coef", "-1"], "magnet_coef: must be a non-negative"),
        (["--algorithm", "mmd", "--magnet", "north"], "magnet: must be uniform or moving"),
        (["--algorithm", "mmd", "--magnet-anneal", "yes"], "--magnet-anneal: expected true or"),
        (["--algorithm", "mmd", "--clip-range", "0.1"], "clip_range: is for algorithm ppo"),
        (
            ["--algorithm", "mmd", "--magnet", "moving"],
            "magnet_every: must be at least one rollout (2048 steps) with a moving magnet",
        ),
        (
            ["--algorithm", "mmd", "--magnet-every", "4096"],
            "magnet_every: is for magnet = moving",
        ),
        (["--kl-coef", "0.5"], "kl_coef: is for algorithm mmd only"),
        (["--magnet-anneal", "true"], "magnet_anneal: is for algorithm mmd only"),
        (["--magnet", "moving"], "magnet: is for algorithm mmd only"),
        (["--algorithm", "dmc", "--temperature", "0"], "temperature: must be a positive number"),
        (["--algorithm", "dmc", "--temperature", "nan"], "temperature: must be a positive"),
        (["--temperature", "0.1"], "temperature: is for algorithm dmc only"),
        (["--algorithm", "dmc", "--gamma", "0.9"], "gamma: is not used by algorithm dmc"),
        (["--algorithm", "dmc", "--gae-lambda", "0.5"], "gae_lambda: is not used by algorithm"),
        (["--algorithm", "dmc", "--clip-range", "0.1"], "clip_range: is not used by algorithm"),
        (["--algorithm", "dmc", "--ent-coef", "0"], "ent_coef: is not used by algorithm dmc"),
        (["--algorithm", "dmc", "--kl-coef", "2"], "kl_coef: is for algorithm mmd only"),
    ],
)
def test_bad_algorithm_options_fail_naming_the_field(argv, message, capsys):
    assert train.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_algorithm_options_in_a_config_file(tmp_path, capsys):
    path = tmp_path / "x.toml"
    path.write_text('algorithm = "mmd"\nmagnet_anneal = "yes"\n')
    assert train.main(["--config", str(path)]) == 2
    assert "magnet_anneal: must be true or false" in capsys.readouterr().err
