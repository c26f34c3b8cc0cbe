"""MCCFR on card abstractions of the games with exchanges (lith_solver.abstract_exchanges):
the public tree against the exact game's layout, the simulator's values against the exact
evaluation, convergence, seeding, and the agent ``abstract:DIR``."""

from __future__ import annotations

import numpy as np
import pytest

from lith_env.batched import BatchedLith
from lith_env.game import LithConfig
from lith_solver import abstract_exchanges as ax
from lith_solver.cli import main as lith_solver_main
from lith_solver.exchanges import ExchangeGame, ExchangeSolver, exploitability, profile_value
from tablegame.registry import make_agent
from tests.responder_helpers import assert_the_agent_plays_what_was_measured

CARDS = tuple(range(0, 16, 2))  # eight cards: 56 hands
TINY = LithConfig(rounds=2, cards=CARDS, max_raises=0)


@pytest.fixture(scope="module")
def solver() -> ax.ExchangeAbstractSolver:
    return ax.ExchangeAbstractSolver(TINY, 56, seed=2, traversals=500, recall="perfect")


def test_every_decision_point_of_the_exact_game_has_a_public_node():
    for config in (TINY, LithConfig(rounds=3, cards=tuple(range(9)), max_raises=1)):
        tree = ax.PublicTree(config)
        keys = {tree.keys[i] for i in tree.decisions}
        shapes = ExchangeSolver.shapes(ExchangeGame(config)) if config is TINY else None
        if shapes is not None:
            wanted = {
                (*key, line) for key, (lines, _, _) in shapes.items() for line in range(lines)
            }
            assert keys == wanted
        assert len(keys) == len(tree.decisions)  # no two public nodes share a key


@pytest.mark.slow
@pytest.mark.parametrize("recall", ["hand", "perfect"])
def test_the_simulator_values_a_strategy_as_the_exact_game_does(recall):
    solver = ax.ExchangeAbstractSolver(TINY, 20, seed=1, traversals=1, recall=recall)
    solver.regrets[:] = np.random.default_rng(3).random(solver.regrets.shape) ** 3
    game = solver.game()
    exact = profile_value(game, ax.exact_game_strategy(solver, game, solver.current_strategy()))
    for player, sign in ((0, 1.0), (1, -1.0)):
        values = ax.sampled_value(solver, player, 20_000, seed=7)
        error = values.std() / np.sqrt(len(values))
        assert abs(values.mean() - sign * exact) < 4 * error


@pytest.mark.slow
def test_mccfr_descends_the_real_exploitability(solver):
    game = solver.game()
    strategy = ax.exact_game_strategy(solver, game, solver.current_strategy())
    uniform = exploitability(game, strategy)[2]
    curve = solver.solve(200, 100)
    assert uniform > 1.5
    assert (
        curve[-1]["real_average"] < uniform / 10
        and curve[-1]["real_average"] < curve[0]["real_average"]
    )


def test_a_seeded_solve_repeats_bit_for_bit_in_any_chunking():
    def run(seed: int, chunks: list[int]) -> np.ndarray:
        solver = ax.ExchangeAbstractSolver(TINY, 10, seed=seed, traversals=20)
        for count in chunks:
            solver.iterate(count)
        return solver.sums

    first = run(5, [120])
    assert np.array_equal(first, run(5, [30, 90]))
    assert not np.array_equal(first, run(6, [120]))


def test_the_average_weighs_iteration_t_by_t_squared_at_power_2():
    linear = ax.ExchangeAbstractSolver(TINY, 10, seed=5, traversals=20)
    squared = ax.ExchangeAbstractSolver(TINY, 10, seed=5, traversals=20, average_power=2)
    expected = np.zeros_like(linear.sums)
    for t in range(1, 31):
        before = linear.sums.copy()
        linear.iterate(1)
        expected += (linear.sums - before) * t
    squared.iterate(30)
    assert np.array_equal(squared.regrets, linear.regrets)
    assert np.allclose(squared.sums, expected, rtol=1e-9, atol=1e-9)
    with pytest.raises(ValueError, match="average_power: must be a number from 0 to 4"):
        ax.ExchangeAbstractSolver(TINY, 10, average_power=-1)


@pytest.mark.slow
@pytest.mark.parametrize("recall", ["hand", "perfect"])
def test_the_agent_plays_the_strategy_the_solver_measured(solver, recall, tmp_path):
    if recall == "hand":
        solver = ax.ExchangeAbstractSolver(TINY, 12, seed=4, traversals=200, recall="hand")
        solver.iterate(40)
    ax.save_exchange_abstract(tmp_path, solver, {})
    assert_the_agent_plays_what_was_measured(tmp_path, solver.measure(), TINY, 1e-9)
    with pytest.raises(ValueError, match="abstract: .* was solved for other rules: .*max_raises=3"):
        make_agent(f"abstract:{tmp_path}", "lith", config=LithConfig(rounds=2, cards=CARDS))


def test_the_command_takes_a_game_with_exchanges(tmp_path, capsys):
    out = tmp_path / "abs"
    argv = ["abstract", "--rule", "rounds=2", "--rule", "max_raises=0",
            "--rule", "cards=" + ",".join(map(str, CARDS)), "--buckets", "12",
            "--iterations", "40", "--check-every", "20", "--traversals", "50",
            "--out", str(out)]  # fmt: skip
    assert lith_solver_main(argv) == 0
    printed = capsys.readouterr().out
    assert "iteration 40" in printed and "in the real game" in printed
    assert (out / "abstraction.npz").is_file() and (out / "exploitability.png").is_file()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rule", "rounds=1", "--recall", "perfect"], "--recall: only for games with exchanges"),
        (["--rule", "rounds=2", "--recall", "some"], "--recall: invalid choice"),
        (["--rule", "rounds=2", "--recall", "perfect"],
         "--recall perfect: only where the exact solver holds the game (cards: 44 cards"),
        (["--rule", "rounds=3", "--rule", "betting=pot-limit"], "betting: the solver plays limit"),
        (["--rule", "rounds=2", "--rule", "cards=0,2,4,6,8,10,12,14", "--buckets", "57"],
         "buckets: at most the game's 56 hands, got 57"),
    ],
)  # fmt: skip
def test_bad_options_exit_2_naming_them(tmp_path, argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        lith_solver_main(["abstract", *argv, "--out", str(tmp_path / "x")])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_the_full_game_is_solved_unmeasured_with_a_playable_snapshot_a_check(tmp_path, capsys):
    out = tmp_path / "full"
    argv = ["abstract", "--rule", "rounds=3", "--buckets", "10", "--iterations", "4",
            "--check-every", "2", "--traversals", "3", "--seed", "1",
            "--out", str(out)]  # fmt: skip
    assert lith_solver_main(argv) == 0
    printed = capsys.readouterr().out
    assert "too large to measure exactly" in printed and "decktet lbr" in printed
    assert not (out / "exploitability.png").exists()
    with np.load(out / "abstraction.npz") as final, \
            np.load(out / "iterations" / "4" / "abstraction.npz") as snapshot:  # fmt: skip
        assert np.array_equal(final["average"], snapshot["average"])
    with np.load(out / "iterations" / "2" / "abstraction.npz") as early:
        assert not np.array_equal(final_average(out), early["average"])
    # It plays the full game: the actions it gives weight to are allowed and sum to one, at
    # every decision of 64 seeded hands it plays against itself.
    config = LithConfig(num_players=2)
    agent = make_agent(f"abstract:{out}", "lith", seed=0, config=config)
    engine = BatchedLith(config, 64, episode="hand")
    engine.reset(seeds=3)
    decisions = 0
    while not engine.match_over.all():
        live = np.flatnonzero(~engine.match_over)
        observations = engine.encode(engine.current)[live]
        masks = engine.action_masks()[live].astype(bool)
        probabilities = agent.action_probabilities(observations, masks)
        assert np.allclose(probabilities.sum(axis=1), 1.0)
        assert (probabilities[~masks] == 0).all()
        one_by_one = np.stack([agent._exchanges.probabilities(o) for o in observations])
        assert np.array_equal(probabilities, one_by_one)  # the grouped read is the plain one
        actions = np.zeros(64, dtype=np.int64)
        actions[live] = agent.act_batch(observations, masks)
        engine.step(actions, tables=live)
        decisions += len(live)
    assert decisions > 64 * 4


def final_average(out) -> np.ndarray:
    with np.load(out / "abstraction.npz") as arrays:
        return arrays["average"]
