"""Lith's vector envs, the SB3 adapter, batched agents and batched tournaments."""

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector.utils import batch_space

import lith_env  # noqa: F401  (registers Lith-v0)
import train
from lith_env.game import LithConfig
from lith_env.table import LithTable
from lith_env.vector import LithAllSeatsVectorEnv, LithVectorEnv
from tablegame.engine import IllegalActionError
from tablegame.registry import make_agent
from tablegame.sb3_vec import SB3VecEnv
from tests.lith_helpers import PatientCaller
from tournaments.batched_tables import run_batched_tournament
from tournaments.cli import main as tournament_main
from tournaments.per_table import run_tournament
from tournaments.spec import TournamentSpec
from training.config import TrainConfig


def random_actions(masks, rng):
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def rollout(env, steps, seed):
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace = [obs.copy()]
    for _ in range(steps):
        obs, reward, terminated, _, info = env.step(random_actions(info["action_mask"], rng))
        trace += [obs.copy(), reward.copy(), terminated.copy()]
    return trace


# ----------------------------------------------------------------------------- LithVectorEnv


def test_make_vec_builds_the_batched_env_with_lith_v0_spaces():
    env = gym.make_vec("Lith-v0", num_envs=5, num_players=3, opponents="tag", betting="no-limit")
    single = gym.make("Lith-v0", num_players=3, betting="no-limit")
    assert isinstance(env, LithVectorEnv)
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space.n == single.action_space.n
    assert env.observation_space.shape == (5, *single.observation_space.shape)
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP


@pytest.mark.slow
def test_vector_env_steps_masks_rewards_and_autoreset():
    env = LithVectorEnv(16, num_players=3, opponents=["caller", "tag"])
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=1)
    totals, finished = np.zeros(16), 0
    for _ in range(300):
        assert obs.shape == (16, env.single_observation_space.shape[0])
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(info["action_mask"].astype(bool), env.action_masks())
        assert info["action_mask"].any(axis=1).all()  # every learner has a decision
        np.testing.assert_array_equal(env.engine.current, info["seat"])
        obs, reward, terminated, truncated, info = env.step(
            random_actions(info["action_mask"], rng)
        )
        assert not truncated.any()
        totals += reward
        for t in np.flatnonzero(terminated):
            # the rewards of an episode add up to the learner's result in it
            assert totals[t] == pytest.approx(info["returns"][t][info["final_seat"][t]])
            assert info["final_obs"][t].shape == obs[t].shape
            totals[t] = 0
            finished += 1
        assert not reward[~terminated].any()  # chips move only when a hand ends
    assert finished > 50


def test_vector_env_is_seeded():
    def trace(seed):
        return rollout(LithVectorEnv(8, opponents="bluffer"), 40, seed)

    a, b, c = trace(3), trace(3), trace(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_illegal_action_raises_and_leaves_the_tables_as_they_were():
    env = LithVectorEnv(4, opponents="caller")
    obs, info = env.reset(seed=2)
    bad = random_actions(info["action_mask"], np.random.default_rng(0))
    bad[1] = np.flatnonzero(info["action_mask"][1] == 0)[0]
    with pytest.raises(IllegalActionError, match="tables 1: id"):
        env.step(bad)
    np.testing.assert_array_equal(env.engine.encode(env.seats), obs)  # nothing moved
    np.testing.assert_array_equal(env.engine.action_masks(), info["action_mask"])
    bad[1] = np.flatnonzero(info["action_mask"][1])[0]
    assert env.step(bad)[0].shape == obs.shape


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"colour": "red"}, TypeError, "unknown option"),
        ({"num_players": 11}, ValueError, "num_players"),
        ({"learner_seat": 2}, ValueError, "learner_seat"),
        ({"opponents": "nobody"}, ValueError, "unknown agent 'nobody'"),
        ({"decks": "marked"}, ValueError, "decks"),
        ({"render_mode": "human"}, ValueError, "render_mode"),
        ({"learner_seat": True}, ValueError, "^learner_seat:"),
        ({"reward_scale": "x"}, ValueError, "^reward_scale:"),
        ({"bet_sizes": 5}, ValueError, "^bet_sizes:"),
    ],
)
def test_vector_env_bad_options(kwargs, error, message):
    with pytest.raises(error, match=message):
        LithVectorEnv(2, **kwargs)


def test_vector_env_rejects_non_integer_actions():
    env = LithVectorEnv(2)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="^actions: need 2 integer action ids"):
        env.step(np.array([1.0, 1.0]))
    with pytest.raises(IllegalActionError, match="^actions: need 2 integer action ids"):
        env.step(np.array([1, 1, 1]))


def test_vector_env_ends_the_episode_of_a_learner_out_of_chips():
    """The batched counterpart of Lith-v0's test: callers with no ante would play on forever
    after the learner busts; its table's episode ends and starts again."""
    rules = {"num_players": 3, "ante": 0, "betting": "no-limit", "starting_chips": [1, 100, 100]}
    callers = [PatientCaller(LithConfig(**rules)) for _ in range(2)]
    env = LithVectorEnv(3, **rules, opponents=callers, episode="match", learner_seat=0)
    _, info = env.reset(seed=0)
    ended = np.zeros(3, dtype=bool)
    for _ in range(20):
        biggest = np.array([np.flatnonzero(m)[-1] for m in info["action_mask"]])
        _, rewards, terminated, _, info = env.step(biggest)
        if terminated.any():
            assert np.all(rewards[terminated] == -1)
            assert np.all(info["returns"][terminated, 0] == -1)
        ended |= terminated
        if ended.all():
            break
    assert ended.all()


def test_vector_env_takes_agents_without_act_batch():
    class FirstLegal:  # folds when it may, else checks, calls or keeps
        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[0])

    env = LithVectorEnv(6, opponents=FirstLegal())
    _, info = env.reset(seed=0)
    obs = env.step(np.argmax(info["action_mask"], axis=1))[0]
    assert obs.shape[0] == 6


# ----------------------------------------------------------------------------- all seats


def test_all_seats_env_plays_every_seat():
    env = LithAllSeatsVectorEnv(8, num_players=4, betting="pot-limit")
    assert env.single_action_space == gym.spaces.MultiDiscrete([env.engine.num_actions] * 4)
    assert env.action_space == batch_space(env.single_action_space, 8)  # Gymnasium's rule
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    results = []
    for _ in range(200):
        assert obs.shape == (8, 4, env.engine.observation_size)
        acting = info["action_mask"].any(axis=2)
        np.testing.assert_array_equal(acting.argmax(axis=1), info["to_act"])
        assert (acting.sum(axis=1) == 1).all()
        masks = info["action_mask"][np.arange(8), info["to_act"]]
        actions = np.zeros((8, 4), dtype=np.int64)
        actions[np.arange(8), info["to_act"]] = random_actions(masks, rng)
        obs, reward, terminated, _, info = env.step(actions)
        assert reward.sum(axis=1) == pytest.approx(np.zeros(8))  # chips only change hands
        results += [info["returns"][t] for t in np.flatnonzero(terminated)]
    assert len(results) > 30 and all(r.sum() == 0 for r in results)


# ----------------------------------------------------------------------------- agents


def decisions(config, hands=150):
    table = LithTable(config)
    rng = np.random.default_rng(1)
    observations, masks = [], []
    for h in range(hands):
        table.reset(h)
        while not table.is_over:
            observations.append(table.encode(table.current_player))
            masks.append(table.action_mask())
            table.apply_id(int(rng.choice(np.flatnonzero(masks[-1]))))
    return np.array(observations), np.array(masks)


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"num_players": 5, "betting": "no-limit", "excuse": "demon"},
        {"excuse": "imposter"},
        # A subset of the deck: both ways of exchanging count only its unseen cards.
        {"num_players": 3, "rounds": 2, "cards": tuple(range(0, 44, 4))},
        {"num_players": 2, "excuse": "beggar", "cards": (2, 7, 11, 19, 25, 30, 35, 39, 44)},
    ],
)
def test_batched_agents_decide_exactly_as_one_table_at_a_time(rules):
    config = LithConfig(**rules)
    observations, masks = decisions(config)
    for name in ("caller", "rock", "tag", "tag:call=0.3:bet=0.6"):
        agent = make_agent(name, "lith", config=config)
        one = [agent.act(o, m) for o, m in zip(observations, masks, strict=True)]
        np.testing.assert_array_equal(agent.act_batch(observations, masks), one, err_msg=name)
    for name in ("random", "bluffer"):
        chosen = make_agent(name, "lith", config=config).act_batch(observations, masks)
        assert masks[np.arange(len(masks)), chosen].all(), name


# ----------------------------------------------------------------------------- tournaments


@pytest.mark.parametrize(
    ("players", "agents", "rules"),
    [
        (2, ("tag", "rock", "caller"), {}),
        (4, ("tag", "rock", "caller", "tag:raise=0.7"), {"betting": "no-limit"}),
        (2, ("tag", "caller"), {"rounds": 1, "cards": (0, 5, 9, 14, 20, 27, 33, 41)}),
        (3, ("tag", "rock", "caller"), {"rounds": 2, "cards": tuple(range(1, 45, 3))}),
    ],
)
def test_batched_tournament_equals_the_per_table_one(players, agents, rules):
    spec = TournamentSpec("lith", agents, players, 120, seed=5, rules=rules, analytics=False)
    plain = run_tournament(spec)
    batched = run_batched_tournament(spec, tables_per_batch=100)  # several batches
    strip = lambda r: json.dumps({k: v for k, v in r.items() if not k.startswith("_")})  # noqa: E731
    assert strip(batched) == strip(plain)


def test_batched_tournament_cli_and_lineup(tmp_path, capsys):
    out = tmp_path / "t"
    argv = ["--agents", "tag,caller", "--players", "3", "--hands", "60", "--batched"]
    assert tournament_main([*argv, "--lineup", "0,1,1", "--out", str(out)]) == 0
    result = json.loads((out / "results.json").read_text())
    assert result["agents_results"]["tag"]["hands"] == 60
    assert result["agents_results"]["caller"]["hands"] == 120
    with pytest.raises(SystemExit):
        tournament_main([*argv, "--lineup", "0,x"])
    assert "--lineup" in capsys.readouterr().err


# ----------------------------------------------------------------------------- training


def test_maskable_ppo_trains_on_the_sb3_adapter():
    from sb3_contrib import MaskablePPO

    vec = SB3VecEnv(LithVectorEnv(16, opponents="tag"))
    model = MaskablePPO("MlpPolicy", vec, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    assert model.num_timesteps == 512
    masks = vec.env_method("action_masks")
    assert len(masks) == 16 and masks[0].dtype == bool
    obs = vec.reset()
    actions, _ = model.predict(obs, action_masks=np.stack(masks))
    assert np.stack(masks)[np.arange(16), actions].all()
    with pytest.raises(ValueError, match="same step"):
        SB3VecEnv(gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync"))


def test_train_py_batched_run_with_self_play(tmp_path, monkeypatch):
    out = tmp_path / "run"
    argv = ["--game", "lith", "--opponents", "tag,self", "--vec-env", "batched"]
    argv += ["--n-envs", "16", "--n-steps", "16", "--batch-size", "64", "--n-epochs", "1"]
    argv += ["--timesteps", "768", "--self-play-every", "256", "--eval-every", "512"]
    argv += ["--eval-units", "8", "--checkpoint-every", "0", "--no-progress-bar"]
    argv += ["--out", str(out)]
    assert train.main(argv) == 0
    assert list((out / "pool").glob("snapshot_*.zip"))
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["evaluations"]
    import dataclasses

    import games

    # a game without a batched engine (every game has one now) is refused
    plain = dataclasses.replace(games.INFO["gendeneia"], batched_engine=False)
    monkeypatch.setitem(games.INFO, "gendeneia", plain)
    with pytest.raises(ValueError, match="vec_env: batched is for lith only"):
        TrainConfig(game="gendeneia", players=3, opponents=["greedy"], vec_env="batched").validate()


def test_lith_env_module_registers_the_vector_entry_point():
    from gymnasium.envs.registration import load_env_creator

    from lith_env.env import LithEnv

    spec = gym.spec("Lith-v0")
    assert spec.vector_entry_point == "lith_env.vector:LithVectorEnv"
    # the names resolve to the classes, as gym.make and gym.make_vec load them
    assert load_env_creator(spec.vector_entry_point) is LithVectorEnv
    assert load_env_creator(spec.entry_point) is LithEnv
