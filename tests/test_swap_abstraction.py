"""MCCFR with recall "swap" and "gift" (lith_solver.swap_abstraction): the compiled traversal
and the exact game read the same rows, the agent plays what the solver measured, the best
response reads such a bot exactly, and the command and its files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lith_solver.cli import main as lith_solver_main
from lith_solver.exchanges import exploitability, profile_value
from lith_solver.recall_layout import RecallLayout, layout_strategy
from lith_solver.responder import BotTable, ResponderSolver, mean_interval
from lith_solver.response_calibration import exact_response_value
from lith_solver.swap_abstraction import SwapAbstractSolver, save_swap_abstract
from tablegame.registry import make_agent
from tests.responder_helpers import RULES, TINY, assert_the_agent_plays_what_was_measured
from training.best_response import bot_table

RECALLS = ("swap", "gift")


def random_solver(seed: int = 3, recall: str = "swap") -> SwapAbstractSolver:
    """A solver whose current strategy is random, so that every row differs from the next:
    a row read for the wrong gift, hand or bucket plays other probabilities."""
    solver = SwapAbstractSolver(TINY, 20, seed=1, traversals=1, recall=recall)
    solver.regrets[:] = np.random.default_rng(seed).random(solver.regrets.shape) ** 3
    return solver


def test_a_swap_is_remembered_only_where_the_public_course_has_one():
    lay = SwapAbstractSolver(TINY, 20).layout
    patterns = {i: p for p, i in lay.tree.stage_index.items()}
    for d, node in enumerate(lay.tree.decisions):
        key = lay.tree.keys[node]
        assert lay.recall[d] == (13 if "swap" in patterns[key[1]] else 1)
        assert lay.exchange[d] == (key[2] in ("x0", "x1k", "x1d"))


def rows_of_hands(layout, decision: int) -> np.ndarray:
    """Each hand's row past the decision's first, as ``information_set`` numbers it (the
    hand's lowest card as the one given in the latest swap)."""
    rows = [layout.information_set(decision, tuple(h), int(h[0])) for h in layout.hands]
    return np.array(rows) - layout.offset[decision]


def test_gift_remembers_the_swap_at_betting_and_the_bucket_at_an_exchange():
    """Recall gift has swap's betting rows and one exchange row a bucket, which every hand
    in the bucket plays; swap gives each hand its own."""
    swap = SwapAbstractSolver(TINY, 20).layout
    gift = SwapAbstractSolver(TINY, 20, recall="gift").layout
    for d in range(len(swap.offset)):
        if swap.exchange[d]:
            assert np.array_equal(rows_of_hands(gift, d), gift.bucket[gift.index])
            assert np.array_equal(rows_of_hands(swap, d), np.arange(len(swap.hands)))
        else:
            assert np.array_equal(rows_of_hands(gift, d), rows_of_hands(swap, d))
    exchanges = int(swap.exchange.sum())
    assert swap.rows - gift.rows == exchanges * (len(swap.hands) - 20)


def test_with_every_hand_its_own_bucket_gift_is_swap():
    """Each bucket one hand: gift's exchange row of a bucket is swap's row of that hand, so a
    seeded solve learns the same, row for row (the bench's gift-364 and swap-364 agree to the
    bit on 14 cards)."""
    hands = len(SwapAbstractSolver(TINY, 2).layout.hands)
    swap = SwapAbstractSolver(TINY, hands, seed=3, traversals=20)
    gift = SwapAbstractSolver(TINY, hands, seed=3, traversals=20, recall="gift")
    swap.iterate(40)
    gift.iterate(40)
    assert gift.layout.rows == swap.layout.rows
    order = np.arange(swap.layout.rows)  # gift's row of each of swap's: betting rows alike
    for d in np.flatnonzero(swap.layout.exchange):
        mine, theirs = rows_of_hands(swap.layout, d), rows_of_hands(gift.layout, d)
        order[swap.layout.offset[d] + mine] = gift.layout.offset[d] + theirs
    assert np.array_equal(gift.sums[order], swap.sums) and swap.sums.any()
    assert np.array_equal(gift.regrets[order], swap.regrets)


def always_swapping(solver: SwapAbstractSolver) -> SwapAbstractSolver:
    """Both players give their lowest card at every exchange, and after a swap each row
    plays one action of its own: what a player recalls of the swap decides its betting."""
    lay = solver.layout
    decision = lay.row_decision
    exchange, swapped = lay.exchange[decision], lay.recall[decision] > 1
    solver.regrets[exchange, 0, :] = [0.0, 1.0, 0.0, 0.0]
    widths = lay.tree.width[lay.tree.decisions][decision]
    chosen = np.random.default_rng(5).integers(0, widths)
    one_hot = np.zeros((lay.rows, 4))
    one_hot[np.arange(lay.rows), chosen] = 1.0
    solver.regrets[swapped, 0, :] = one_hot[swapped]
    return solver


@pytest.mark.slow
@pytest.mark.parametrize(
    "make",
    [
        random_solver,
        lambda: always_swapping(random_solver()),
        lambda: always_swapping(random_solver(recall="gift")),
    ],
    ids=["swap", "swap-always-swapping", "gift-always-swapping"],
)
def test_the_simulator_values_a_strategy_as_the_exact_game_does(make):
    solver = make()
    game = solver.game()
    strategy = solver.current_strategy()
    exact = profile_value(game, layout_strategy(solver.layout, solver.layout, game, strategy))
    for player, sign in ((0, 1.0), (1, -1.0)):
        values = solver.sampled_values(player, 20_000, seed=7)
        error = values.std() / np.sqrt(len(values))
        assert abs(values.mean() - sign * exact) < 4 * error, (player, values.mean(), exact)


@pytest.mark.slow
def test_mccfr_descends_the_real_exploitability():
    solver = SwapAbstractSolver(TINY, 56, seed=2, traversals=100)
    game = solver.game()
    uniform = exploitability(
        game, layout_strategy(solver.layout, solver.layout, game, solver.current_strategy())
    )[2]
    curve = solver.solve(600, 200)
    assert uniform > 1.5
    assert curve[-1]["real_average"] < uniform / 3
    assert curve[-1]["real_average"] < curve[0]["real_average"]


def test_a_seeded_solve_repeats_bit_for_bit_in_any_chunking():
    def run(seed: int, chunks: list[int]) -> np.ndarray:
        solver = SwapAbstractSolver(TINY, 10, seed=seed, traversals=20)
        for count in chunks:
            solver.iterate(count)
        return solver.sums

    first = run(5, [120])
    assert np.array_equal(first, run(5, [30, 90]))
    assert not np.array_equal(first, run(6, [120]))


def test_a_row_the_average_never_weighed_plays_the_current_strategy():
    solver = SwapAbstractSolver(TINY, 10, seed=5, traversals=20)
    solver.iterate(30)
    weighed = solver.sums[:, 0, :].sum(axis=1) > 0
    learned = solver.regrets[:, 0, :].max(axis=1) > 0
    assert weighed.any() and (learned & ~weighed).any()  # rows only a traverser reached
    average, current = solver.average_strategy(), solver.current_strategy()
    assert np.array_equal(average[~weighed], current[~weighed])
    rows = solver.sums[weighed, 0, :]
    assert np.allclose(average[weighed], rows / rows.sum(axis=1, keepdims=True))


@pytest.mark.slow
@pytest.mark.parametrize("recall", RECALLS)
def test_the_agent_plays_the_strategy_the_solver_measured(tmp_path, recall):
    solver = SwapAbstractSolver(TINY, 12, seed=4, traversals=100, recall=recall)
    solver.iterate(60)
    save_swap_abstract(tmp_path, solver, {})
    assert_the_agent_plays_what_was_measured(tmp_path, solver.measure(), TINY)


@pytest.mark.slow
@pytest.mark.parametrize("recall", RECALLS)
def test_the_best_response_reads_a_swap_bot_exactly(tmp_path, recall):
    bot = random_solver(seed=8, recall=recall)
    save_swap_abstract(tmp_path, bot, {})
    table = bot_table(f"abstract:{tmp_path}", TINY)  # read from the file, not asked
    assert table.strategy.shape == (bot.layout.rows, 4)
    assert np.allclose(table.strategy, bot.average_strategy(), atol=1e-6)
    game = bot.game()
    layout = RecallLayout(TINY, 20, "swap")  # the responder's own recall, whatever the bot's
    responder = ResponderSolver(layout, table, seed=4, traversals=50)
    responder.iterate(100)
    average = responder.average_strategy()
    sampled = responder.sampled_values(20_000, seed=9)
    for p in range(2):
        mean, half = mean_interval(sampled[p])
        exact = exact_response_value(game, layout, table, average, p)
        assert abs(mean - exact) < 1.5 * half, (p, mean, half, exact)


@pytest.mark.parametrize("recall", RECALLS)
def test_the_command_solves_saves_and_measures_recall_swap(tmp_path, capsys, recall):
    out = tmp_path / "abs"
    argv = ["abstract", *RULES, "--recall", recall, "--buckets", "12", "--iterations", "40",
            "--check-every", "20", "--traversals", "50", "--out", str(out)]  # fmt: skip
    assert lith_solver_main(argv) == 0
    printed = capsys.readouterr().out
    assert "iteration 40" in printed and "in the real game" in printed
    record = json.loads((out / "abstraction.json").read_text())
    assert record["recall"] == recall and record["iterations"] == 40
    agent = make_agent(f"abstract:{out}", "lith", seed=0, config=TINY)
    assert agent.game.recall == recall


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rule", "rounds=1", "--recall", "swap"], "--recall: only for games with exchanges"),
        ([*RULES, "--recall", "swap", "--buckets", "57"],
         "buckets: at most the deck's 56 hands, got 57"),
    ],
)  # fmt: skip
def test_bad_options_exit_2_naming_them(tmp_path, argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        lith_solver_main(["abstract", *argv, "--out", str(tmp_path / "x")])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_a_corrupt_file_is_refused_naming_it(tmp_path):
    solver = SwapAbstractSolver(TINY, 12, seed=4, traversals=10)
    solver.iterate(2)
    save_swap_abstract(tmp_path, solver, {})
    path = tmp_path / "abstraction.npz"
    with np.load(path) as arrays:
        kept = dict(arrays)
    np.savez_compressed(path, **{**kept, "average": kept["average"][:-1]})
    with pytest.raises(ValueError, match=r"abstract: .*abstraction\.npz.* is corrupt: average"):
        make_agent(f"abstract:{tmp_path}", "lith", config=TINY)
    np.savez_compressed(path, **{**kept, "average": -kept["average"]})
    with pytest.raises(ValueError, match="is corrupt: a negative probability"):
        make_agent(f"abstract:{tmp_path}", "lith", config=TINY)


def test_a_table_of_another_recall_is_refused():
    with pytest.raises(ValueError, match="bot: a table of recall swap or gift, not 'perfect'"):
        BotTable.of_layout(RecallLayout(TINY, 56, "perfect"), np.zeros((1, 4)))
    gift = RecallLayout(TINY, 20, "gift")  # the responder plans each hand's exchange
    table = BotTable.of_layout(gift, np.zeros((gift.rows, 4)))
    with pytest.raises(
        ValueError, match="layout: the responder recalls swap or perfect, not 'gift'"
    ):
        ResponderSolver(gift, table)
