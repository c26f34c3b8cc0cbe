"""Gendeneia-v0 (Gymnasium) and gendeneia_env.aec_env (PettingZoo)."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import gendeneia_env
from gendeneia_env.encoding import action_names, encode, layout
from gendeneia_env.game import GAction, IllegalActionError
from gendeneia_env.table import GendeneiaTable


def make(**kwargs):
    return gym.make("Gendeneia-v0", **kwargs).unwrapped


def episode(env, seed, policy=0):
    rng = np.random.default_rng(policy)
    _, info = env.reset(seed=seed)
    rewards = []
    while True:
        _, reward, terminated, _, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        rewards.append(reward)
        if terminated:
            return rewards, info


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"num_players": 2, "discard_ends_turn": True, "max_rounds": None, "max_reshuffles": 1},
        {
            "num_players": 6,
            "presum": "subtract",
            "twist_any": ("Zelteta",),
            "twist_any_rule": "must",
        },
        {"num_players": 4, "round_lots": True, "twist_suit": (10, 6, 4, 2), "reward": "shaped"},
    ],
)
def test_check_env_passes(kwargs):
    check_env(make(**kwargs))


def test_check_env_on_the_registered_env_with_render_modes():
    check_env(gym.make("Gendeneia-v0").unwrapped)


def test_unknown_option_raises():
    with pytest.raises(TypeError, match="unknown option.*trumps.*options: num_players"):
        gym.make("Gendeneia-v0", trumps=True)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 7}, "^num_players:"),
        ({"presum": "sum"}, "^presum:"),
        ({"reward": "dense"}, "^reward:"),
        ({"reward_scale": 0}, "^reward_scale:"),
        ({"opponents": "lith-only"}, "unknown agent 'lith-only' for gendeneia"),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        gym.make("Gendeneia-v0", **kwargs)


def test_final_reward_is_mean_opponent_score_minus_mine_scaled():
    env = make(num_players=3)
    for seed in range(10):
        rewards, info = episode(env, seed)
        scores = np.array(env.table.game.scores(), dtype=float)
        mine = scores[env.seat]
        expected = 0.1 * ((scores.sum() - mine) / 2 - mine)
        assert rewards[-1] == pytest.approx(expected)
        assert all(r == 0 for r in rewards[:-1])
        assert info["returns"][env.seat] == pytest.approx(expected)


def test_shaped_reward_sums_to_the_same_figure():
    shaped, final = make(reward="shaped"), make()
    for seed in range(10):
        a = episode(shaped, seed)[0]
        b = episode(final, seed)[0]
        assert sum(a) == pytest.approx(sum(b))
        assert any(r != 0 for r in a[:-1]) or len(a) == 1


def test_shaped_win_adds_the_win_share_at_the_end():
    plain, with_win = make(reward="shaped"), make(reward="shaped_win")
    for seed in range(10):
        a, _ = episode(plain, seed)
        b, _ = episode(with_win, seed)
        assert b[:-1] == pytest.approx(a[:-1])  # the same shaping until the last step
        winners = with_win.table.game.winners()
        share = 1 / len(winners) if with_win.seat in winners else 0.0
        assert b[-1] - a[-1] == pytest.approx(share - 1 / 3)


def test_illegal_action_raises_and_changes_nothing():
    env = make()
    _, info = env.reset(seed=0)
    game = env.table.game
    before = (game.phase, game.current, [list(h) for h in game.hands], game._rng.getstate())
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="legal ids: 0 \\(keep\\), 1 \\(discard\\)"):
        env.step(illegal)
    assert (game.phase, game.current, [list(h) for h in game.hands], game._rng.getstate()) == before


def test_action_ids_cover_keep_discard_targets_and_removals():
    names = action_names(gendeneia_env.GendeneiaConfig(num_players=4))
    assert names[:2] == ["keep", "discard"]
    assert names[2:6] == [
        "play on my lots",
        "play on seat +1",
        "play on seat +2",
        "play on seat +3",
    ]
    assert names[6] == "remove 0C" and names[-1] == "remove nothing" and len(names) == 43


def test_observation_layout_sizes():
    where = layout(3, False)
    assert where["lots"][1] == 3 * 3 * 12 * 5 and where["round lots"][1] == 0
    assert layout(3, True)["round lots"][1] == 180
    assert make().observation_space.shape == (where["size"][0],)


def test_render_shows_every_players_lots_and_scores(capsys):
    env = make(num_players=3, render_mode="ansi", learner_seat=1)
    episode(env, seed=2)
    text = env.render()
    assert "Collars" in text and "score" in text and "over" in text
    assert sum(line.strip()[:1] in ">L0123456789" for line in text.splitlines()) >= 3
    human = make(render_mode="human")
    human.reset(seed=1)
    human.render()
    assert "Gendeneia - round 1" in capsys.readouterr().out


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 2},
        {"num_players": 4, "twist_any": (0, 11, 5), "round_lots": True, "reward": "shaped"},
        {"num_players": 6, "presum": "subtract", "discard_ends_turn": True},
    ],
)
def test_aec_api_test_passes(kwargs):
    api_test(gendeneia_env.aec_env(**kwargs), num_cycles=400)


def test_aec_rewards_zero_sum():
    env = gendeneia_env.aec_env(num_players=5, max_rounds=4)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(
            None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
    assert sum(totals.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("bad", [True, 1.0, "1", np.float64(1.0)], ids=repr)
def test_table_refuses_an_action_id_that_is_not_an_integer(bad):
    table = GendeneiaTable(gendeneia_env.GendeneiaConfig())
    table.reset(seed=0)
    game = table.game
    before = (game.phase, game.current, [list(h) for h in game.hands], game._rng.getstate())
    with pytest.raises(IllegalActionError, match="illegal action id"):
        table.apply_id(bad)  # True is not id 1 (discard)
    assert (game.phase, game.current, [list(h) for h in game.hands], game._rng.getstate()) == before


@pytest.mark.parametrize(("round_lots", "leader", "opener"), [(False, None, 1), (True, 2, 2)])
def test_observation_marks_who_opens_the_round(round_lots, leader, opener):
    config = gendeneia_env.GendeneiaConfig(num_players=3, round_lots=round_lots)
    game = gendeneia_env.GendeneiaGame(config, seed=0, first_player=1)
    for _ in range(3):  # one round: keep, and play onto one's own lots
        game.apply(GAction("keep"))
        if game.phase == "play":
            game.apply(GAction("play", target=game.current))
    view = game.observe(0)
    assert (view.round, view.leader, view.opener) == (1, leader, opener)
    assert view.current_player == opener
    start, size = layout(3, round_lots)["opener"]
    assert encode(view, config)[start : start + size].tolist() == [
        float(k == opener) for k in range(3)
    ]
