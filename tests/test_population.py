"""Population training (train.py mixture = "nash", PSRO): the meta-game solvers, the
population's payoff table, the opponents drawing by its mixture, and a tiny run."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import train
from tournaments.metagame import meta_mixture, nash_zero_sum, projected_replicator_dynamics
from tournaments.population import Population, member_spec
from training.opponents import PoolOpponent

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])


def test_rock_paper_scissors_is_played_uniformly():
    assert nash_zero_sum(RPS) == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert projected_replicator_dynamics(RPS) == pytest.approx([1 / 3] * 3, abs=1e-6)


def test_a_dominant_member_takes_all_the_weight():
    dominant = np.array([[0, 1, 2], [-1, 0, 1], [-2, -1, 0]])
    assert nash_zero_sum(dominant) == pytest.approx([1, 0, 0], abs=1e-9)
    prd = projected_replicator_dynamics(dominant, floor=1e-3)
    assert prd[0] == pytest.approx(0.998) and prd[1:] == pytest.approx([1e-3, 1e-3])


def test_a_biased_cycle_has_its_known_equilibrium():
    # x = (0.2, 0.2, 0.6) makes every column pay 0: the game's value and unique equilibrium
    biased = np.array([[0, 3, -1], [-3, 0, 1], [1, -1, 0]])
    x = nash_zero_sum(biased)
    assert x == pytest.approx([0.2, 0.2, 0.6], abs=1e-9)
    assert biased.T @ x == pytest.approx([0, 0, 0], abs=1e-9)
    assert projected_replicator_dynamics(biased) == pytest.approx(x, abs=0.03)


def test_heads_up_uses_the_linear_program_and_more_seats_the_dynamics():
    # A coordination table, where the two methods part: the LP's maximin row mixture makes
    # x0 * 1 = x1 * 2, so (2/3, 1/3); the dynamics of the symmetric game drift to the
    # better-paying member 1, down to the floor (1e-3) for member 0. On RPS both give the
    # uniform mix, so a swap of the branches would pass unseen there.
    coordination = np.array([[1, 0], [0, 2]])
    linear_program = nash_zero_sum(coordination)
    dynamics = projected_replicator_dynamics(coordination)
    assert linear_program == pytest.approx([2 / 3, 1 / 3], abs=1e-9)
    assert dynamics == pytest.approx([1e-3, 1 - 1e-3], abs=1e-6)
    assert meta_mixture(coordination, 2) == pytest.approx(linear_program, abs=1e-9)
    for players in (3, 4):
        assert meta_mixture(coordination, players) == pytest.approx(dynamics, abs=1e-9)


@pytest.mark.parametrize(
    ("payoffs", "message"),
    [
        (np.zeros((2, 3)), "a square, non-empty table"),
        (np.zeros((0, 0)), "a square, non-empty table"),
        (np.array([[0, np.nan], [0, 0]]), "finite"),
    ],
)
def test_bad_payoff_tables_are_named(payoffs, message):
    with pytest.raises(ValueError, match=f"payoffs: .*{message}"):
        nash_zero_sum(payoffs)


def test_heads_up_population_payoffs_are_the_tournament_and_antisymmetric(tmp_path):
    population = Population("lith", 2, {}, tmp_path, units=200, seed=3)
    for member in ("tag", "caller", "random"):
        population.add(member)
    table = population.payoffs
    assert table == pytest.approx(-table.T) and np.diag(table).tolist() == [0, 0, 0]
    assert table[0, 2] > 1 and table[1, 2] > 0  # random loses to both
    assert population.mixture.sum() == pytest.approx(1) and population.mixture[2] == 0
    assert [h["members"] for h in population.history] == [
        ["tag"],
        ["tag", "caller"],
        ["tag", "caller", "random"],
    ]
    with pytest.raises(ValueError, match="'tag' is a member already"):
        population.add("tag")


def test_a_uniform_share_keeps_every_member_in_the_draws(tmp_path):
    population = Population("lith", 2, {}, tmp_path, units=200, seed=3, uniform_share=0.3)
    for member in ("tag", "caller", "random"):
        population.add(member)
    assert population.equilibrium[2] == 0  # random is left out of the equilibrium
    assert population.mixture == pytest.approx(0.7 * population.equilibrium + 0.1)
    population.save(tmp_path / "population.json")
    again = Population.load(tmp_path / "population.json")
    assert again.uniform_share == 0.3 and again.equilibrium == pytest.approx(population.equilibrium)


def test_a_population_saves_and_loads_and_a_corrupt_file_is_named(tmp_path):
    population = Population("gendeneia", 3, {}, tmp_path, units=6, seed=1)
    population.add("greedy")
    population.add("random")
    assert population.payoffs[0, 0] == pytest.approx(1 / 3)  # each its own fair share
    population.save(tmp_path / "population.json")
    again = Population.load(tmp_path / "population.json")
    assert again.members == ["greedy", "random"]
    assert again.payoffs == pytest.approx(population.payoffs)
    mixture = json.loads((tmp_path / "mixture.json").read_text())
    assert mixture["weights"] == pytest.approx(population.mixture.tolist())
    (tmp_path / "population.json").write_text("{not json")
    with pytest.raises(ValueError, match="population: cannot read"):
        Population.load(tmp_path / "population.json")


def test_snapshots_play_their_sampling_policy(tmp_path):
    assert member_spec("snapshot_512.zip", tmp_path) == (
        f"ppo:{tmp_path / 'snapshot_512.zip'}:deterministic=false"
    )
    assert member_spec("tag", tmp_path) == "tag"


def test_opponents_draw_members_by_the_mixture(tmp_path):
    (tmp_path / "mixture.json").write_text(
        json.dumps({"members": ["tag", "rock"], "weights": [0.0, 1.0]})
    )
    opponent = PoolOpponent(
        ["tag", "rock", "self"], "lith", tmp_path, 5, seed=1, mixture_file=tmp_path / "mixture.json"
    )
    for seed in range(20):
        opponent.reset(seed=seed)
        assert opponent.current is opponent.named[1]  # rock, every time
    opponent.reset_tables(np.arange(50))
    assert set(opponent.table_member.tolist()) == {1}
    # a new mixture is read at the next draw
    (tmp_path / "mixture.json").write_text(
        json.dumps({"members": ["tag", "rock"], "weights": [0.7, 0.3]})
    )
    import os

    os.utime(tmp_path / "mixture.json", ns=(1, 10**18))  # a new stamp, whatever the clock
    opponent.rng = random.Random(0)
    opponent.reset_tables(np.arange(2000))
    assert np.mean(opponent.table_member == 0) == pytest.approx(0.7, abs=0.04)


TINY = [
    "--opponents", "tag,bluffer,self", "--mixture", "nash", "--meta-units", "40",
    "--timesteps", "1024", "--n-envs", "2", "--n-steps", "128", "--batch-size", "64",
    "--n-epochs", "1", "--eval-every", "0", "--checkpoint-every", "512",
    "--self-play-every", "512", "--net-arch", "16", "--no-progress-bar",
]  # fmt: skip


@pytest.mark.slow
def test_a_tiny_population_run_grows_its_population_and_resumes(tmp_path):
    out = tmp_path / "run"
    assert train.main([*TINY, "--out", str(out)]) == 0
    saved = json.loads((out / "pool" / "population.json").read_text())
    assert saved["members"] == ["tag", "bluffer", "snapshot_512.zip", "snapshot_1024.zip"]
    assert len(saved["payoffs"]) == 4 and sum(saved["mixture"]) == pytest.approx(1)
    metrics = json.loads((out / "metrics.json").read_text())
    assert [h["step"] for h in metrics["population"]] == [0, 0, 512, 1024]
    assert (out / "population.png").is_file()
    config = json.loads((out / "config.json").read_text())
    assert config["mixture"] == "nash" and config["meta_units"] == 40
    # the same seed, the same population; resuming keeps it and adds to it
    again = tmp_path / "again"
    assert train.main([*TINY, "--out", str(again)]) == 0
    twin = json.loads((again / "pool" / "population.json").read_text())
    assert twin["payoffs"] == saved["payoffs"]
    assert train.main(["--resume", str(out), "--timesteps", "1536", "--no-progress-bar"]) == 0
    resumed = json.loads((out / "pool" / "population.json").read_text())
    assert resumed["members"][-1] == "snapshot_1536.zip" and len(resumed["members"]) == 5
    assert resumed["payoffs"][3][:4] == saved["payoffs"][3]


NASH = ["--mixture", "nash", "--opponents", "tag,self", "--self-play-every", "512"]


@pytest.mark.slow
def test_exploiters_of_the_snapshots_join_the_population(tmp_path):
    """exploiter_every: a best response to the snapshot just taken is trained and joins the
    population as a member (a league's exploiter), drawn by the mixture like the others."""
    out = tmp_path / "run"
    argv = [*TINY, "--exploiter-every", "512", "--exploiter-steps", "256", "--out", str(out)]
    assert train.main(argv) == 0
    saved = json.loads((out / "pool" / "population.json").read_text())
    assert saved["members"] == [
        *("tag", "bluffer", "snapshot_512.zip", "exploiter_512.zip"),
        *("snapshot_1024.zip", "exploiter_1024.zip"),
    ]
    payoffs = np.array(saved["payoffs"])
    assert payoffs.shape == (6, 6) and np.allclose(payoffs, -payoffs.T)
    for step in (512, 1024):
        found = json.loads((out / "pool" / f"exploiter_{step}" / "exploiter.json").read_text())
        assert (
            found["spec"]["target"] == f"ppo:{out / 'pool'}/snapshot_{step}.zip:deterministic=false"
        )
        assert found["steps"] >= 256 and (out / "pool" / f"exploiter_{step}.zip").is_file()
    mixture = json.loads((out / "pool" / "mixture.json").read_text())
    assert mixture["members"] == saved["members"]
    opponent = PoolOpponent(
        ["tag", "bluffer", "self"], "lith", out / "pool", 5, seed=1,
        mixture_file=out / "pool" / "mixture.json",
    )  # fmt: skip
    assert opponent._agent(opponent._pool()[0][3]).deterministic is False  # sampling, as played
    assert member_spec("exploiter_512.zip", out / "pool").endswith(":deterministic=false")


@pytest.mark.slow
def test_exploiters_of_the_equilibrium_mixture_join_the_population(tmp_path):
    """exploiter_target = mixture: PSRO's best response step, each exploiter trained against
    the population's equilibrium mixture as it stands when the snapshot joins."""
    out = tmp_path / "run"
    argv = [*TINY, "--exploiter-every", "512", "--exploiter-steps", "256", "--out", str(out)]
    assert train.main([*argv, "--exploiter-target", "mixture"]) == 0
    saved = json.loads((out / "pool" / "population.json").read_text())
    assert saved["members"][-1] == "exploiter_1024.zip"
    for step in (512, 1024):
        found = json.loads((out / "pool" / f"exploiter_{step}" / "exploiter.json").read_text())
        assert found["spec"]["target"] == f"mixture:{out / 'pool'}"
    assert json.loads((out / "config.json").read_text())["exploiter_target"] == "mixture"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            [*NASH, "--exploiter-every", "512", "--exploiter-target", "newest"],
            "exploiter_target: must be snapshot or mixture, got 'newest'",
        ),
        (
            [*NASH, "--exploiter-target", "mixture"],
            "exploiter_target: is for the exploiters of exploiter_every (set it too)",
        ),
        (["--exploiter-every", "512"], "exploiter_every: is for mixture = nash only"),
        (
            [*NASH, "--exploiter-every", "700"],
            "exploiter_every: must be a multiple of self_play_every (512)",
        ),
        (["--exploiter-every", "-1"], "exploiter_every: must be a non-negative integer"),
        (
            [*NASH, "--exploiter-every", "512", "--exploiter-steps", "0"],
            "exploiter_steps: must be positive when exploiter_every is set",
        ),
        (["--mixture", "nash", "--opponents", "tag"], "mixture: nash needs 'self'"),
        (["--mixture", "nash", "--opponents", "tag,self", "--meta-units", "3"], "meta_units: must"),
        (["--meta-units", "40"], "meta_units: is for mixture = nash only"),
        (["--uniform-share", "0.2"], "uniform_share: is for mixture = nash only"),
        (["--mixture", "nash", "--opponents", "tag,self", "--uniform-share", "1.5"], "from 0 to 1"),
    ],
)
def test_bad_population_options_are_named(argv, message, tmp_path, capsys):
    assert train.main([*argv, "--out", str(tmp_path / "never")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "never").exists()
