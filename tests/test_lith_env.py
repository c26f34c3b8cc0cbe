"""Lith-v0 (Gymnasium) and lith_env.aec_env (PettingZoo) over the engine."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import lith_env
from lith_env.encoding import action_names, num_actions, observation_size
from lith_env.game import IllegalActionError, LithConfig
from tests.lith_helpers import PatientCaller, snapshot


def make(**kwargs):
    return gym.make("Lith-v0", **kwargs).unwrapped


def play_episode(env, seed, policy_seed=0):
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    observations, total = [obs], 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        observations.append(obs)
        total += reward
        if terminated or truncated:
            return observations, total, info


# ----------------------------------------------------------------------------- construction


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"num_players": 6, "betting": "no-limit", "opponents": "caller"},
        {"num_players": 3, "betting": "pot-limit", "excuse": "demon", "learner_seat": 2},
        {"num_players": 4, "episode": "match", "max_hands": 4, "pawns_and_courts": False},
        {"num_players": 10, "excuse": "imposter", "starting_chips": 20, "ante": 2},
    ],
)
def test_check_env_passes(kwargs):
    check_env(make(**kwargs))


def test_check_env_on_the_registered_env_with_render_modes():
    check_env(gym.make("Lith-v0").unwrapped)


def test_spaces_follow_the_config():
    env = make(num_players=3, betting="no-limit")
    assert env.action_space.n == num_actions(env.config) == 10
    assert env.observation_space.shape == (observation_size(env.config),)
    assert action_names(env.config)[:3] == ["fold", "check/call", "bet/raise min"]
    assert make().action_space.n == 7


def test_unknown_option_raises_at_construction():
    with pytest.raises(TypeError, match="unknown option.*colour.*options: num_players"):
        gym.make("Lith-v0", colour="red")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 12}, "^num_players:"),
        ({"betting": "fixed"}, "^betting:"),
        ({"excuse": "fool"}, "^excuse:"),
        ({"starting_chips": 0}, "^starting_chips:"),
        ({"episode": "season"}, "^episode:"),
        ({"episode": "hand", "max_hands": 5}, "^max_hands:"),
        ({"learner_seat": 2}, "^learner_seat:"),
        ({"render_mode": "rgb_array"}, "^render_mode:"),
        (
            {"opponents": "maniac"},
            "unknown agent 'maniac' for lith; built-in agents: abstract, bluffer, caller, ismcts, "
            "mixture, ppo, random",
        ),
        ({"opponents": ["random", "caller"]}, "^opponents: need 1"),
        ({"opponents": 42}, "^opponents: 42 is neither"),
        ({"bet_sizes": 5}, "^bet_sizes: must be three positive integers"),
        ({"bet_sizes": None}, "^bet_sizes: must be three positive integers"),
        ({"learner_seat": True}, "^learner_seat:"),
        ({"reward_scale": "x"}, "^reward_scale: must be a finite number"),
        ({"reward_scale": float("nan")}, "^reward_scale: must be a finite number"),
    ],
)
def test_bad_options_name_what_is_wrong(kwargs, message):
    with pytest.raises(ValueError, match=message):
        gym.make("Lith-v0", **kwargs)


@pytest.mark.parametrize("bet_sizes", [5, None, (2, 2)])
def test_aec_bad_bet_sizes_name_the_field(bet_sizes):
    with pytest.raises(ValueError, match="^bet_sizes:"):
        lith_env.aec_env(bet_sizes=bet_sizes)


# ----------------------------------------------------------------------------- stepping


def test_step_plays_opponents_until_the_learners_turn():
    env = make(num_players=4, learner_seat=2)
    obs, info = env.reset(seed=3)
    assert env.table.current_player == 2 and info["seat"] == 2
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    assert np.array_equal(info["action_mask"], env.action_masks().astype(np.int8))
    while True:
        obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
        assert env.table.current_player == 2


def test_learner_seat_is_drawn_each_episode_when_not_fixed():
    env = make(num_players=4)
    seats = {env.reset(seed=s)[1]["seat"] for s in range(40)}
    assert seats == {0, 1, 2, 3}


def test_reward_is_chips_won_and_sums_to_the_episode_result():
    env = make(num_players=3, betting="no-limit")
    for seed in range(30):
        _, total, info = play_episode(env, seed)
        assert total == info["returns"][env.seat]
        assert info["returns"].sum() == 0


def test_reward_scale():
    a, b = make(reward_scale=0.5), make()
    for seed in range(10):
        assert play_episode(a, seed)[1] == pytest.approx(0.5 * play_episode(b, seed)[1])


def test_same_seed_same_episode():
    env = make(num_players=5, betting="pot-limit", episode="match", max_hands=3)
    first = play_episode(env, seed=9, policy_seed=4)
    second = play_episode(env, seed=9, policy_seed=4)
    assert all(np.array_equal(x, y) for x, y in zip(first[0], second[0], strict=True))
    assert first[1] == second[1]
    other = play_episode(env, seed=10, policy_seed=4)
    assert not all(np.array_equal(x, y) for x, y in zip(first[0], other[0], strict=False))


def test_illegal_action_raises_and_changes_nothing():
    env = make()
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = snapshot(env.table.game.hand)
    with pytest.raises(IllegalActionError, match="legal ids: 1 \\(check/call\\)"):
        env.step(illegal)
    assert snapshot(env.table.game.hand) == before
    with pytest.raises(IllegalActionError, match="illegal action id 99"):
        env.step(99)


@pytest.mark.parametrize("action", [1.7, 1.0, True, "1", None, np.float64(1.0)])
def test_a_non_integer_action_raises_and_changes_nothing(action):
    env = make()
    env.reset(seed=0)
    before = snapshot(env.table.game.hand)
    with pytest.raises(IllegalActionError, match="^action: must be an integer action id"):
        env.step(action)
    assert snapshot(env.table.game.hand) == before
    aec = lith_env.aec_env()
    aec.reset(seed=0)
    before = snapshot(aec.table.game.hand)
    with pytest.raises(IllegalActionError, match="integer action id|None is only for finished"):
        aec.step(action)
    assert snapshot(aec.table.game.hand) == before


def test_an_opponent_returning_a_float_is_an_error_not_a_rounded_action():
    class Sloppy:
        needs_observation = False

        def act(self, observation, action_mask):
            return float(np.flatnonzero(action_mask)[0]) + 0.4

    env = make(opponents=Sloppy(), learner_seat=1)  # seat 0 is the opponent: it acts first
    with pytest.raises(IllegalActionError, match="^action: must be an integer action id"):
        for seed in range(20):  # whoever deals, the opponent acts before the learner's turn
            env.reset(seed=seed)
            env.step(1)


def test_integer_actions_of_any_kind_are_taken():
    for action in (1, np.int64(1), np.int32(1), np.array(1), np.array([1])):
        env = make()
        env.reset(seed=0)  # check/call (id 1) is legal on every first decision
        env.step(action)
        mine = [a["kind"] for a in env.table.game.hand.actions if a["seat"] == env.seat]
        assert mine[0] in ("check", "call")


def test_a_match_ends_for_the_learner_when_it_is_out_of_chips():
    """With no ante and two callers, the others would check forever once the learner busts:
    its episode ends there (it has no decisions left), with its final result."""
    rules = {"num_players": 3, "ante": 0, "betting": "no-limit", "starting_chips": [1, 100, 100]}
    callers = [PatientCaller(LithConfig(**rules)) for _ in range(2)]
    env = make(**rules, opponents=callers, episode="match", learner_seat=0)
    _, info = env.reset(seed=0)
    total, terminated = 0.0, False
    while not terminated:
        all_in = int(np.flatnonzero(info["action_mask"])[-1])  # the biggest bet, or a discard
        _, reward, terminated, _, info = env.step(all_in)
        total += reward
    assert env.table.is_out(0) and not env.table.is_over  # the others could play on
    assert total == -1 and info["returns"][0] == -1
    assert not info["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(IllegalActionError, match="call reset"):
        env.step(1)
    env.reset(seed=1)
    assert env.table.game.hands_played == 0 and not env.table.is_out(0)


def test_step_after_the_end_asks_for_reset():
    env = make()
    play_episode(env, seed=1)
    with pytest.raises(IllegalActionError, match="call reset"):
        env.step(1)


def test_action_space_sample_is_legal():
    env = make(num_players=3, betting="no-limit")
    _, info = env.reset(seed=5)
    env.action_space.seed(0)
    for _ in range(200):
        action = env.action_space.sample()
        assert info["action_mask"][action]
        _, _, terminated, _, info = env.step(action)
        if terminated:
            _, info = env.reset()


def test_opponent_objects_and_observations_they_get():
    seen = []

    class Recorder:
        def act(self, observation, action_mask):
            seen.append((observation.shape, action_mask.copy()))
            return 1 if action_mask[1] else 3  # check/call, else keep

        def reset(self):
            pass

    env = make(num_players=2, opponents=[Recorder()])
    play_episode(env, seed=0)
    assert seen and all(shape == env.observation_space.shape for shape, _ in seen)
    assert all(mask[1] or mask[3] for _, mask in seen)


def test_render_modes(capsys):
    env = make(num_players=3, render_mode="ansi", learner_seat=0)
    env.reset(seed=2)
    text = env.render()
    assert "Lith, hand 1" in text and "seat 0:" in text and "(hidden)" in text
    assert text.count("(hidden)") == 2  # only the learner's cards are shown
    human = make(render_mode="human")
    human.reset(seed=2)
    human.render()
    assert "seat 1:" in capsys.readouterr().out


def test_render_without_a_render_mode_warns_and_returns_nothing():
    for env in (make(), lith_env.aec_env()):
        env.reset(seed=0)
        with pytest.warns(UserWarning, match="no render_mode"):
            assert env.render() is None


def _against_caller(model, hands: int = 200) -> tuple[float, float]:
    """The model's deterministic play heads-up against caller on fixed deals: its mean
    result in chips a hand and the share of its decisions that bet or raise; each of its
    actions checked legal."""
    env = make(num_players=2, opponents="caller", learner_seat=0)
    total, decisions, bets = 0.0, 0, 0
    for hand in range(hands):
        obs, info = env.reset(seed=10_000 + hand)
        terminated = False
        while not terminated:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            assert info["action_mask"][int(action)], f"illegal action {action} in hand {hand}"
            decisions += 1
            bets += env.table.action_names[int(action)] == "bet/raise"
            obs, reward, terminated, _, info = env.step(int(action))
            total += reward
    return total / hands, bets / decisions


@pytest.mark.slow
def test_maskable_ppo_learns_on_it_unchanged(one_torch_thread):
    """MaskablePPO trains on Lith-v0 as it is, and learns: betting into a player who calls
    everything loses (caller also exchanges well), so 512 steps teach it to stop betting,
    and its result against caller rises from -2.97 chips a hand (seed 0) to -0.32."""
    from sb3_contrib import MaskablePPO

    env = make(num_players=2, opponents="caller")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=4, seed=0, verbose=0,
        policy_kwargs={"net_arch": [32]},
    )  # fmt: skip
    result_before, bets_before = _against_caller(model)
    model.learn(total_timesteps=512)
    result_after, bets_after = _against_caller(model)
    assert result_before < -1.5 and bets_before > 0.3  # the untrained policy bets freely
    assert result_after > result_before + 1.5
    assert bets_after < bets_before / 3


# ----------------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 2},
        {"num_players": 3, "betting": "no-limit", "excuse": "demon"},
        {"num_players": 6, "episode": "match", "max_hands": 5, "starting_chips": 10},
    ],
)
def test_aec_api_test_passes(kwargs):
    api_test(lith_env.aec_env(**kwargs), num_cycles=300)


def test_aec_rewards_are_chips_and_zero_sum():
    env = lith_env.aec_env(num_players=4, betting="no-limit", episode="match", max_hands=6)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sum(totals.values()) == 0
    assert [totals[a] for a in env.possible_agents] == list(env.table.returns())


def test_aec_illegal_action_raises_and_changes_nothing():
    env = lith_env.aec_env(num_players=3)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = snapshot(env.table.game.hand)
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert snapshot(env.table.game.hand) == before


def test_aec_observations_of_waiting_seats_have_empty_masks():
    env = lith_env.aec_env(num_players=3)
    env.reset(seed=0)
    waiting = [a for a in env.agents if a != env.agent_selection]
    for agent in waiting:
        assert env.observe(agent)["action_mask"].sum() == 0


def test_aec_same_seed_same_game():
    def run(seed):
        env = lith_env.aec_env(num_players=3, betting="pot-limit")
        env.reset(seed=seed)
        rng = np.random.default_rng(1)
        log = []
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            log.append((agent, action, obs["observation"].tobytes()))
            env.step(action)
        return log

    first = run(3)
    assert first == run(3)
    other = run(4)  # the same actions' draws from another deal: another game
    assert [obs for _, _, obs in other] != [obs for _, _, obs in first]


def test_config_object_is_exposed():
    assert lith_env.aec_env(num_players=5).config == LithConfig(num_players=5, max_hands=1)
