"""The benchmark harness counts what it says it counts (timing itself is never asserted)."""

import json

import gymnasium as gym
import pytest

import lith_env  # registers Lith-v0
from agents.random_agent import RandomAgent
from benchmarks.envs import lith_decisions, run_aec, run_gym
from benchmarks.run import BENCHMARKS, NAMES, main


class CountingAgent(RandomAgent):
    """A random agent that counts its decisions."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.decisions = 0

    def act(self, observation, action_mask):
        self.decisions += 1
        return super().act(observation, action_mask)


def test_lith_decisions_are_every_seats_decisions():
    opponents = [CountingAgent(seed) for seed in range(5)]
    env = gym.make("Lith-v0", num_players=6, opponents=opponents).unwrapped
    steps, episodes, _, decisions = run_gym(env, 0.3, decisions_of=lith_decisions)
    assert episodes > 0
    # Every decision made = the learner's steps + the opponents' calls; the harness counts
    # those of finished hands, so the hand in progress when time ran out is left out.
    in_progress = len(env.table.game.hand.actions)
    assert decisions == steps + sum(agent.decisions for agent in opponents) - in_progress
    assert decisions > 2 * steps  # six players: a step holds the opponents' decisions too


def test_aec_decisions_are_its_steps():
    steps, episodes, _, decisions = run_aec(lith_env.aec_env(num_players=3), 0.2)
    assert episodes > 0 and decisions == steps


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--n", "-3"], "argument --n: must be at least 1, got -3"),
        (["--repeat", "x"], "argument --repeat: must be an integer, got 'x'"),
        (["--seconds", "nan"], "argument --seconds: must be at least 0.01"),
        (["--players", "2,11"], "argument --players: each must be from 2 to 10"),
        (["--sizes", "0"], "argument --sizes: each must be from 1"),
        (["--ppo-steps", "-1"], "argument --ppo-steps: must be at least 0"),
        (["bench"], "argument which: invalid choice: 'bench'"),
        (["--web-sessions", "0"], "argument --web-sessions: must be at least 1"),
    ],
)
def test_bad_flags_are_named_before_anything_runs(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_every_benchmark_is_named_once_in_the_help_and_runs_in_the_registry():
    assert sorted(NAMES) == sorted(BENCHMARKS) and len(set(NAMES)) == len(NAMES)
    keys = [b.key for benchmarks in BENCHMARKS.values() for b in benchmarks]
    assert len(set(keys)) == len(keys)


def test_a_benchmark_runs_from_the_command_line_and_writes_its_figures(tmp_path, capsys):
    path = tmp_path / "figures.json"
    argv = ["gendeneia", "--seconds", "0.01", "--env-repeat", "1", "--json", str(path)]
    assert main(argv) == 0
    figures = json.loads(path.read_text())
    assert list(figures) == ["machine", "numpy", "gendeneia"]
    assert set(figures["gendeneia"]) == {"2", "4", "6"}
    assert "Gendeneia, random legal play" in capsys.readouterr().out


def test_help_shows_every_default(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: 1000000)" in text and "(default: 1,64,1024,4096)" in text


@pytest.mark.slow
def test_solver_benchmark_counts_information_sets():
    from benchmarks.solvers import bench_solver

    result = bench_solver(iterations=1, repeat=1)
    # One-round heads-up Lith: ten decisions of the betting round, 13,244 hands each.
    assert result["ours"]["information sets"] == 10 * 13_244
    assert result["OpenSpiel CFR+ Leduc"]["information sets"] == 936
    # Two rounds on 20 cards: the first round's ten decisions over 1,140 dealt hands, three
    # exchange decisions after nine betting lines, then ten decisions a stage after nine lines
    # over the acting player's states (1,140 kept, 58,140 after a draw or a swap).
    hands, changed = 1_140, 58_140
    expected = 10 * hands + 3 * 9 * hands + 10 * 9 * hands + 2 * 5 * 9 * (hands + changed)
    expected += 10 * 9 * changed
    assert result["exchanges"]["information sets"] == expected == 10_712_580
    assert result["exchange ratio"] == pytest.approx(
        result["exchanges"]["updates/s"] / result["OpenSpiel CFR+ Leduc"]["updates/s"]
    )
    assert result["ratio"] == pytest.approx(
        result["ours"]["updates/s"] / result["OpenSpiel CFR+ Leduc"]["updates/s"]
    )
    # Three rounds on 8 cards, one raise a round: 25 betting lines reach the third round.
    assert result["three rounds"]["information sets"] == 7_656_936
    assert result["three-round ratio"] == pytest.approx(
        result["three rounds"]["updates/s"] / result["OpenSpiel CFR+ Leduc"]["updates/s"]
    )


@pytest.mark.slow
def test_the_fingerprint_repeats_and_changes_with_a_result(tmp_path, monkeypatch):
    """python -m benchmarks.fingerprint is a check that a change alters no result: it must
    give the same digests twice, and another digest when a seeded result changes."""
    from benchmarks import fingerprint

    assert fingerprint.main([str(tmp_path / "f.json"), "--quick"]) == 0
    first = json.loads((tmp_path / "f.json").read_text())
    assert {"tournament:lith2", "batched:lith2", "solve:one-round:strategy"} <= set(first)
    assert "exploitability:tag" in first and all(len(d) == 16 for d in first.values())
    assert fingerprint.fingerprint(quick=True) == first
    # other deals, one table at a time: its digest moves, the batched one's does not
    monkeypatch.setattr("tournaments.per_table.block_seed", lambda *parts: sum(parts))
    changed = fingerprint.tournament_digests()
    assert changed["tournament:lith2"] != first["tournament:lith2"]
    assert changed["batched:lith2"] == first["batched:lith2"]


@pytest.mark.slow
def test_the_methods_benchmark_times_each_learner_and_splits_its_time():
    from benchmarks.learning import bench_methods

    result = bench_methods(steps=4096, mccfr_iterations=2)
    for name in ("MaskablePPO (5 epochs)", "PPO tuned (8 epochs)", "MMD (moving magnet)"):
        figures = result[name]
        shares = [figures[k] for k in ("engine share", "forward share", "update share")]
        assert all(0 < s < 1 for s in shares) and sum(shares) == pytest.approx(1.0)
        assert figures["steps/s"] > 0
    assert result["MaskablePPO (5 epochs)"]["ratio to MaskablePPO"] == 1.0
    assert result["MCCFR (100 buckets)"]["traversals/s"] > 0


@pytest.mark.openspiel
def test_the_ismcts_benchmark_times_both_searches_and_every_stage():
    from benchmarks.search import bench_ismcts

    result = bench_ismcts(iterations=20, repeat=1, states=1)
    rates = result["kuhn simulations/s"]
    assert set(rates) == {"agents.ismcts", "OpenSpiel ISMCTSBot"} and min(rates.values()) > 0
    assert result["kuhn speedup"] == pytest.approx(
        rates["agents.ismcts"] / rates["OpenSpiel ISMCTSBot"]
    )
    stages = result["gendeneia ms a decision"]
    assert set(stages) == {"opening", "mid game", "end game", "all"}
    assert stages["all"]["n"] == sum(stages[s]["n"] for s in ("opening", "mid game", "end game"))
    assert all(0 < f["median"] <= f["p95"] for f in stages.values())


def test_the_lith_search_benchmark_times_worlds_beside_a_deep_copy_and_decisions():
    from benchmarks.search import bench_lith_search

    result = bench_lith_search(iterations=5, repeat=1, hands=1)
    micro = result["microseconds"]
    assert set(micro) == {"deepcopy", "sampled world", "world weighed by the betting"}
    assert all(v > 0 for v in micro.values())
    assert set(result["ms a decision"]) == {"2 players", "6 players"}
    assert all(0 < f["median"] <= f["p95"] and f["n"] > 0 for f in result["ms a decision"].values())


@pytest.mark.slow
def test_the_web_benchmark_times_every_move_of_every_session_on_loopback():
    from benchmarks.web import bench_web

    result = bench_web(sessions=3, moves=4)
    assert result["errors"] == [] and result["moves"] == 12  # three people, four moves each
    assert 0 < result["p50 ms"] <= result["p95 ms"] <= result["max ms"]


def test_the_search_benchmark_times_every_primitive_beside_its_reference():
    from benchmarks.search import bench_search

    result = bench_search(repeat=1, states=3)
    assert set(result["microseconds"]) == {"deepcopy", "clone", "sampled world"}
    assert all(v > 0 for v in result["microseconds"].values())
    micro = result["microseconds"]
    assert result["clone_speedup"] == pytest.approx(micro["deepcopy"] / micro["clone"])


def test_the_gendeneia_batched_benchmark_gives_every_figure_and_times_both_recipes():
    from benchmarks import batched_gendeneia as bench

    result = bench.bench_batched_gendeneia(64, 0.05, 1, 0)
    assert all(rate > 0 for rate in result["rates"].values())
    assert "learner vs two spoiler: vector / Gendeneia-v0" in result["ratios"]
    for settings in (
        {"n_envs": 16, "n_steps": 8, "batch_size": 64, "n_epochs": 1, "threads": 1},
        {"n_envs": 2, "n_steps": 16, "batch_size": 16, "n_epochs": 1, "threads": 1},
    ):
        figures = bench.run_ppo(settings, 256)
        assert figures["steps/s"] > 0 and 0 < figures["collect"] + figures["update"] <= 1
