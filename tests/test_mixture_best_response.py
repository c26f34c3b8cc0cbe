"""The best response to a mixture that draws one bot a hand (``decktet best-response
mixture:DIR``, ``lith_solver.responder``'s stacked tables), on the eight-card game with one
exchange: its value is each member's exact value by its weight (a mixture is linear in its
members), and no response to a member alone does better against the mixture."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from agents.mixture import read_mixture
from lith_solver import abstract_exchanges as ax
from lith_solver.exchanges import ExchangeGame, best_response_value
from lith_solver.recall_layout import RecallLayout
from lith_solver.responder import BotTable, ResponderSolver, load_response, mean_interval
from lith_solver.response_calibration import exact_response_value
from tests.responder_helpers import RULES, TINY
from training.best_response import main

WEIGHTS = np.array([0.3, 0.7])


@pytest.fixture(scope="module")
def members():
    """Two abstract bots on the same four buckets, one trained (seed 2, 100 iterations) and
    one barely (seed 7, 2 iterations): (solvers, the mixture's table)."""
    solvers = []
    for seed, iterations in ((2, 100), (7, 2)):
        solver = ax.ExchangeAbstractSolver(TINY, 4, seed=seed, traversals=100)
        solver.iterate(iterations)
        solvers.append(solver)
    stacked = np.stack([s.average_strategy() for s in solvers])
    return solvers, BotTable.dense(stacked, solvers[0].bucket, WEIGHTS)


def _perfect(table: BotTable) -> tuple[RecallLayout, np.ndarray]:
    layout = RecallLayout(TINY, math.comb(len(TINY.deck), 3), recall="perfect")
    solver = ResponderSolver(layout, table, seed=3, traversals=100)
    solver.iterate(600)
    return layout, solver.average_strategy()


def test_a_mixtures_table_stacks_its_members_and_checks_its_weights(members):
    solvers, table = members
    assert table.members == 2 and table.member_rows == len(table.strategy) // 2
    for m, solver in enumerate(solvers):
        alone = BotTable.dense(solver.average_strategy(), solver.bucket)
        member = table.member(m)
        assert np.array_equal(member.strategy, alone.strategy) and member.members == 1
        assert np.array_equal(table.offsets()[m], alone.offset + m * table.member_rows)
    stacked = np.stack([s.average_strategy() for s in solvers])
    for weights, message in (
        ([0.5], "2 members need 2 weights"),
        ([0.5, 0.6], "must be >= 0 and sum to 1"),
        ([1.5, -0.5], "must be >= 0 and sum to 1"),
        ([np.nan, 1.0], "must be >= 0 and sum to 1"),
    ):
        with pytest.raises(ValueError, match=message):
            BotTable.dense(stacked, solvers[0].bucket, np.array(weights))
    with pytest.raises(ValueError, match="no member 2 in a mixture of 2"):
        table.member(2)


@pytest.mark.slow
def test_the_sampled_value_against_a_mixture_is_each_members_exact_value_by_weight(members):
    """Drawing a member a deal, by its weight: the sampled value is the weighted exact one
    (and the members' values differ by far more than the interval, so drawing one member
    only, or ignoring the weights, fails)."""
    _, table = members
    game = ExchangeGame(TINY)
    layout = RecallLayout(TINY, 20)
    solver = ResponderSolver(layout, table, seed=4, traversals=50)
    solver.iterate(100)
    average = solver.average_strategy()
    sampled = solver.sampled_values(20_000, seed=9)
    for p in range(2):
        each = [exact_response_value(game, layout, table.member(m), average, p) for m in (0, 1)]
        exact = exact_response_value(game, layout, table, average, p)
        assert exact == pytest.approx(float(WEIGHTS @ each), abs=1e-12)
        mean, half = mean_interval(sampled[p])
        assert abs(mean - exact) < 1.5 * half, (p, mean, half, exact)
        assert abs(each[1] - each[0]) > 6 * half, (p, each, half)


@pytest.mark.slow
def test_the_response_to_a_mixture_beats_each_members_own_response_against_it(members):
    """Against the mixture, the response to it wins at least what the response to either
    member alone wins (each solved the same way), and at most the members' best responses'
    values by weight (a bound no response to the mixture can pass)."""
    solvers, table = members
    game = ExchangeGame(TINY)
    layout, mixed = _perfect(table)
    for p in range(2):
        found = exact_response_value(game, layout, table, mixed, p)
        for m in (0, 1):
            _, own = _perfect(table.member(m))
            against_mixture = exact_response_value(game, layout, table, own, p)
            assert found >= against_mixture - 0.01, (p, m, found, against_mixture)
        bests = [
            best_response_value(game, ax.exact_game_strategy(s, game, s.average_strategy()), p)[0]
            for s in solvers
        ]
        assert found <= float(WEIGHTS @ bests) + 1e-9, (p, found, bests)


@pytest.mark.slow
def test_the_command_responds_to_a_mixture_and_play_holds_its_exact_value(tmp_path, capsys):
    """``decktet best-response mixture:DIR`` with heuristic members: each member asked once
    (its table kept for ``--resume``), and the response played against the mixture itself
    (a member drawn a table) wins the exact value of the saved response against the members'
    tables, by weight."""
    pool = tmp_path / "run" / "pool"
    pool.mkdir(parents=True)
    (pool / "mixture.json").write_text(json.dumps({"members": ["tag", "caller"],
                                                   "weights": [0.4, 0.6]}))  # fmt: skip
    bot, out = f"mixture:{tmp_path / 'run'}", tmp_path / "response"
    common = [bot, *RULES, "--buckets", "56", "--traversals", "50", "--check-every", "100",
              "--samples", "1000", "--hands", "6000", "--seed", "3",
              "--out", str(out)]  # fmt: skip
    assert main([*common, "--iterations", "100"]) == 0
    kept = [out / "bot_table-0.npy", out / "bot_table-1.npy"]
    stamps = [path.stat().st_mtime_ns for path in kept]
    assert main([*common, "--iterations", "200", "--resume"]) == 0
    assert [path.stat().st_mtime_ns for path in kept] == stamps  # not asked again
    assert not (out / "bot_table.npy").exists()
    figures = json.loads((out / "best_response.json").read_text())
    # Stopped while reading the members (no solver state yet): --resume keeps what was read.
    (out / "responder_state.npz").rename(tmp_path / "state.npz")
    assert main([*common, "--iterations", "100", "--resume"]) == 0
    assert [path.stat().st_mtime_ns for path in kept] == stamps
    assert json.loads((out / "best_response.json").read_text())["iterations"] == 100
    (tmp_path / "state.npz").rename(out / "responder_state.npz")
    assert main([*common, "--iterations", "200", "--resume"]) == 0
    again = json.loads((out / "best_response.json").read_text())
    for name in ("computed", "played", "played_low", "played_high", "policy"):
        assert again[name] == figures[name], name  # bit for bit
    (out / "responder_state.npz").unlink()
    with pytest.raises(SystemExit) as exit_:  # tables kept for another bot are not this one's
        main([*common[1:], "tag", "--iterations", "100", "--resume"])
    assert exit_.value.code == 2 and "no responder_state.npz" in capsys.readouterr().err
    _, members, weights = read_mixture(tmp_path / "run")
    assert members == ["tag", "caller"] and np.allclose(weights, [0.4, 0.6])
    tables = [np.load(path) for path in kept]
    table = BotTable.by_hand(np.stack(tables), TINY, weights)
    layout, rows, _ = load_response(out)
    game = ExchangeGame(TINY)
    exact = 50 * sum(exact_response_value(game, layout, table, rows, p) for p in range(2))
    figures = json.loads((out / "best_response.json").read_text())
    assert figures["bot"] == bot and figures["iterations"] == 200
    assert figures["played_low"] <= exact <= figures["played_high"], (figures, exact)
    capsys.readouterr()


def test_a_mixture_with_a_member_of_recall_gift_is_refused_naming_it(tmp_path, capsys):
    from lith_solver.swap_abstraction import SwapAbstractSolver, save_swap_abstract

    solver = SwapAbstractSolver(TINY, 4, recall="gift", seed=1, traversals=10)
    solver.iterate(2)
    save_swap_abstract(tmp_path / "gift", solver, {})
    pool = tmp_path / "run" / "pool"
    pool.mkdir(parents=True)
    member = f"abstract:{tmp_path / 'gift'}"
    (pool / "mixture.json").write_text(json.dumps({"members": ["tag", member],
                                                   "weights": [0.5, 0.5]}))  # fmt: skip
    with pytest.raises(SystemExit) as exit_:
        main([f"mixture:{tmp_path / 'run'}", *RULES, "--iterations", "10", "--hands", "200",
              "--out", str(tmp_path / "out")])  # fmt: skip
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "member 1" in err and "recall 'gift' has no table by hand" in err
    assert "Traceback" not in err
