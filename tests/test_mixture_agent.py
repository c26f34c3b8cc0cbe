"""``mixture:DIR``: a population's equilibrium mixture, one member drawn per hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.mixture import read_mixture
from lith_env.game import LithConfig
from lith_env.vector import LithVectorEnv
from lith_solver.exploitability import exploitability
from lith_solver.one_round import OneRoundGame
from tablegame.registry import make_agent
from tournaments.batched_tables import run_batched_tournament
from tournaments.metagame import nash_with_margins, nash_with_margins_limit
from tournaments.per_table import run_tournament
from tournaments.spec import TournamentSpec


def _pool(folder: Path, members: list[str], weights: list[float]) -> Path:
    pool = folder / "pool"
    pool.mkdir(parents=True, exist_ok=True)
    (pool / "mixture.json").write_text(json.dumps({"members": members, "weights": weights}))
    return folder


def _chips(agents: list[str], hands: int = 400, seed: int = 5) -> float:
    """The first agent's chips/100 hands against the second on the batched tournament."""
    spec = TournamentSpec(game="lith", agents=tuple(agents), players=2, units=hands, seed=seed)
    (pairing,) = run_batched_tournament(spec)["pairings"].values()
    return pairing["chips_per_100"]["mean"]


def test_a_run_folder_or_its_pool_names_the_mixture(tmp_path):
    _pool(tmp_path, ["tag", "caller"], [0.25, 0.75])
    for folder in (tmp_path, tmp_path / "pool"):
        pool, members, weights = read_mixture(folder)
        assert pool == tmp_path / "pool"
        assert members == ["tag", "caller"]
        assert weights.tolist() == [0.25, 0.75]


def test_a_mixture_of_one_member_plays_exactly_as_that_member(tmp_path):
    _pool(tmp_path, ["rock", "tag", "caller"], [0.0, 1.0, 0.0])
    assert _chips([f"mixture:{tmp_path}", "caller"]) == _chips(["tag", "caller"])


def test_each_hand_is_played_by_a_member_drawn_by_its_weight(tmp_path):
    _pool(tmp_path, ["tag", "caller"], [0.25, 0.75])
    agent = make_agent(f"mixture:{tmp_path}", "lith", seed=3)
    draws = []
    for _ in range(4000):
        agent.reset()
        draws.append(agent.names[agent.current])
    assert draws.count("tag") / len(draws) == pytest.approx(0.25, abs=0.03)
    agent.reset_tables(np.arange(4000))
    assert np.mean(agent.table_member == 0) == pytest.approx(0.25, abs=0.03)


def test_the_same_seed_gives_the_same_draws(tmp_path):
    _pool(tmp_path, ["tag", "caller", "rock"], [0.2, 0.5, 0.3])
    first, second = (make_agent(f"mixture:{tmp_path}", "lith", seed=11) for _ in range(2))
    for agent in (first, second):
        agent.reset_tables(np.arange(50))
    assert first.table_member.tolist() == second.table_member.tolist()


def test_batched_rows_play_their_own_tables_member(tmp_path):
    """Rows of one batch follow the member of their table, not one member for all."""
    _pool(tmp_path, ["caller", "rock"], [0.5, 0.5])
    agent = make_agent(f"mixture:{tmp_path}", "lith", seed=0)
    agent.table_member = np.array([0, 1])  # table 0: caller, table 1: rock
    env = LithVectorEnv(1, num_players=2, opponents=["tag"], learner_seat=1)
    observations, _ = env.reset(seed=4)
    masks = env.action_masks()
    tables = np.array([0, 1])
    actions = agent.act_batch(np.repeat(observations, 2, 0), np.repeat(masks, 2, 0), tables)
    caller = make_agent("caller", "lith").act_batch(observations, masks)
    rock = make_agent("rock", "lith").act_batch(observations, masks)
    assert actions.tolist() == [int(caller[0]), int(rock[0])]


def test_the_mixture_scores_as_the_weighted_mean_of_its_members(tmp_path):
    """Against ``random``, half `caller` and half `tag` wins about the mean of the two."""
    _pool(tmp_path, ["caller", "tag"], [0.5, 0.5])
    mixed = _chips([f"mixture:{tmp_path}", "random"], hands=4000)
    caller, tag = _chips(["caller", "random"], 4000), _chips(["tag", "random"], 4000)
    assert min(caller, tag) < mixed < max(caller, tag)
    assert mixed == pytest.approx((caller + tag) / 2, abs=0.25 * abs(caller - tag) + 15)


def test_the_rotations_of_a_duplicate_deal_meet_the_same_member(tmp_path):
    """Drawn once a block, so the deal's luck cancels: every block of the mixture against
    `caller` is a block of `caller` (nothing, against itself) or one of `tag`."""
    _pool(tmp_path, ["caller", "tag"], [0.5, 0.5])

    def blocks(first: str) -> list[int]:
        spec = TournamentSpec(game="lith", agents=(first, "caller"), players=2, units=400)
        return [b.totals[0] for b in run_batched_tournament(spec)["_blocks"]]

    mixed, tag = blocks(f"mixture:{tmp_path}"), blocks("tag")
    assert all(m in (0, t) for m, t in zip(mixed, tag, strict=True))
    assert 50 < sum(m == t != 0 for m, t in zip(mixed, tag, strict=True)) < 150


def test_a_vector_env_draws_a_member_for_every_table(tmp_path):
    _pool(tmp_path, ["caller", "rock"], [0.5, 0.5])
    opponent = make_agent(f"mixture:{tmp_path}", "lith", seed=2)
    env = LithVectorEnv(32, num_players=2, opponents=[opponent])
    env.reset(seed=1)
    drawn = opponent.table_member[:32]
    assert 0 < drawn.sum() < 32  # both members seated
    for _ in range(40):
        env.step(np.array([int(np.flatnonzero(m)[0]) for m in env.action_masks()]))
    assert len(opponent.table_member) == 32


def test_a_gym_env_draws_a_member_for_every_episode(tmp_path):
    import gymnasium as gym

    import lith_env  # noqa: F401  (registers Lith-v0)

    _pool(tmp_path, ["caller", "rock"], [0.5, 0.5])
    env = gym.make("Lith-v0", opponents=f"mixture:{tmp_path}").unwrapped
    (opponent,) = env.opponents
    drawn = []
    for episode in range(40):
        env.reset(seed=episode)
        drawn.append(opponent.names[opponent.current])
    assert set(drawn) == {"caller", "rock"}
    env.reset(seed=7)
    first = opponent.current
    env.reset(seed=7)
    assert opponent.current == first  # the same seed, the same member


def test_the_per_table_tournament_plays_it_too(tmp_path):
    _pool(tmp_path, ["tag"], [1.0])
    mixture = f"mixture:{tmp_path}"
    spec = TournamentSpec(game="lith", agents=(mixture, "caller"), players=2, units=40)
    plain = TournamentSpec(game="lith", agents=("tag", "caller"), players=2, units=40)
    mine = run_tournament(spec, workers=1)["pairings"]
    assert [p["cumulative"] for p in mine.values()] == [
        p["cumulative"] for p in run_tournament(plain, workers=1)["pairings"].values()
    ]


def test_gendeneia_mixtures_play_gendeneia_members(tmp_path):
    _pool(tmp_path, ["greedy", "spoiler"], [0.5, 0.5])
    agent = make_agent(f"mixture:{tmp_path}", "gendeneia", seed=1)
    assert [type(m).__name__ for m in agent.members] == ["GreedyAgent", "SpoilerAgent"]


def test_exact_measures_refuse_a_mixture(tmp_path):
    """A mixture of strategies is not a behaviour strategy: exact exploitability needs one."""
    _pool(tmp_path, ["tag", "caller"], [0.5, 0.5])
    config = LithConfig(num_players=2, rounds=1)
    agent = make_agent(f"mixture:{tmp_path}", "lith", config=config)
    with pytest.raises(ValueError, match="has no action_probabilities"):
        exploitability(agent, OneRoundGame(config))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no mixture.json"),
        ("{not json", "cannot read"),
        ({"members": ["tag"]}, "cannot read"),
        ({"members": ["tag", "caller"], "weights": [0.5, 0.6]}, "summing to 1"),
        ({"members": ["tag", "caller"], "weights": [1.5, -0.5]}, "at least 0"),
        ({"members": ["tag"], "weights": [0.5, 0.5]}, "summing to 1"),
        ({"members": ["snapshot_5.zip"], "weights": [1.0]}, "'snapshot_5.zip' has no file"),
        ({"members": ["no_such_agent"], "weights": [1.0]}, "unknown agent 'no_such_agent'"),
    ],
)
def test_bad_mixtures_are_named(tmp_path, content, message):
    pool = tmp_path / "pool"
    pool.mkdir()
    if content is not None:
        text = content if isinstance(content, str) else json.dumps(content)
        (pool / "mixture.json").write_text(text)
    with pytest.raises(ValueError, match=message):
        make_agent(f"mixture:{tmp_path}", "lith")


def test_the_exploiter_cli_names_a_bad_mixture_target(tmp_path, capsys):
    from training.exploiter_cli import main

    with pytest.raises(SystemExit) as stop:
        main(["--target", f"mixture:{tmp_path}", "--out", str(tmp_path / "out")])
    assert stop.value.code == 2
    assert "--target: mixture: no mixture.json" in capsys.readouterr().err


# ------------------------------------------------------------------ margin: beat the heuristics

# Rock, paper, scissors, and a "heuristic" that loses to everything a little.
GAME = np.array(
    [
        [0.0, -1.0, 1.0, 0.2],
        [1.0, 0.0, -1.0, 0.2],
        [-1.0, 1.0, 0.0, 0.2],
        [-0.2, -0.2, -0.2, 0.0],
    ]
)


def test_the_margin_equilibrium_is_the_best_mixture_that_beats_the_named_members():
    """Rock must be beaten by 0.5: the maximin mixture under that constraint, checked
    against every mixture on a grid of the simplex."""
    x = nash_with_margins(GAME, [0], 0.5)
    assert x @ GAME[:, 0] >= 0.5 - 1e-9
    value = (x @ GAME).min()
    grid = np.array(
        [(a, b, c, 100 - a - b - c) for a in range(101) for b in range(101 - a)
         for c in range(101 - a - b)]
    ) / 100  # fmt: skip
    feasible = grid[grid @ GAME[:, 0] >= 0.5]
    assert value >= (feasible @ GAME).min(axis=1).max() - 1e-9
    assert value < 0  # the margin costs: the unconstrained equilibrium's value is 0
    assert nash_with_margins(GAME, [3], 0.0) @ GAME[:, 3] >= -1e-9


def test_no_mixture_beats_the_named_members_by_more_than_the_limit():
    assert nash_with_margins_limit(GAME, [0]) == pytest.approx(1.0)  # paper
    assert nash_with_margins_limit(GAME, [0, 1]) == pytest.approx(1 / 3)  # 1/3 r, 2/3 s
    with pytest.raises(ValueError, match="the most one can is 0.3333"):
        nash_with_margins(GAME, [0, 1], 0.5)


def _population_pool(folder: Path) -> Path:
    """A heads-up population of tag, caller and an untrained network, with a payoff table in
    which the network beats both heuristics a little and caller loses to tag."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import lith_env  # noqa: F401  (registers Lith-v0)

    pool = folder / "pool"
    pool.mkdir(parents=True)
    env = gym.make("Lith-v0", opponents="caller").unwrapped
    MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=16, seed=0).save(pool / "snapshot_9.zip")
    members = ["tag", "caller", "snapshot_9.zip"]
    payoffs = [[0.0, 0.5, -0.1], [-0.5, 0.0, -0.2], [0.1, 0.2, 0.0]]
    record = {
        "game": "lith", "players": 2, "rules": {}, "units": 40, "seed": 0,
        "members": members, "payoffs": payoffs, "mixture": [0.0, 0.0, 1.0], "history": [],
    }  # fmt: skip
    (pool / "population.json").write_text(json.dumps(record))
    (pool / "mixture.json").write_text(json.dumps({"members": members, "weights": [0, 0, 1.0]}))
    return folder


def test_a_margin_mixture_is_read_from_the_population(tmp_path):
    folder = _population_pool(tmp_path)
    agent = make_agent(f"mixture:{folder}:margin=0.05", "lith", seed=0)
    weights = dict(zip(agent.names, agent.weights, strict=True))
    table = np.array([[0.0, 0.5, -0.1], [-0.5, 0.0, -0.2], [0.1, 0.2, 0.0]])
    x = np.array([weights.get(m, 0.0) for m in ("tag", "caller", "snapshot_9.zip")])
    assert (x @ table)[:2].min() >= 0.05 - 1e-9
    assert np.allclose(x, nash_with_margins(table, [0, 1], 0.05))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (":margin=0.5", "no mixture of the population beats tag, caller by margin 0.5"),
        (":margin=-1", "margin must be a number of at least 0, got -1"),
        (":margin=true", "margin must be a number of at least 0, got True"),
    ],
)
def test_bad_margins_are_named(tmp_path, spec, message):
    folder = _population_pool(tmp_path)
    with pytest.raises(ValueError, match=message):
        make_agent(f"mixture:{folder}{spec}", "lith")


def test_a_margin_needs_a_heads_up_population(tmp_path):
    _pool(tmp_path, ["tag", "caller"], [0.5, 0.5])
    with pytest.raises(ValueError, match="margin needs the population's payoff table"):
        make_agent(f"mixture:{tmp_path}:margin=0.1", "lith")
    record = {
        "game": "lith", "players": 3, "rules": {}, "units": 30, "seed": 0,
        "members": ["tag", "caller"], "payoffs": [[0, 0], [0, 0]], "mixture": [0.5, 0.5],
        "history": [],
    }  # fmt: skip
    (tmp_path / "pool" / "population.json").write_text(json.dumps(record))
    with pytest.raises(ValueError, match="margin is for heads-up Lith populations"):
        make_agent(f"mixture:{tmp_path}:margin=0.1", "lith")
