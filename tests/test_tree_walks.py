"""The last round's kernel written out for one betting tree (``lith_solver.tree_walks``) against
the generic one that reads the tree from arrays (``lith_solver.last_round``): the same operations
in the same order, so the same regrets, sums, values and best responses to the bit."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from lith_env.cards import EXCUSE
from lith_env.game import LithConfig
from lith_solver.exchanges import (
    ExchangeGame,
    ExchangeSolver,
    best_response_value,
    exploitability,
    profile_value,
)
from lith_solver.tree_walks import kernel_folder, last_round_for, walk_source

CONFIGS = [
    LithConfig(rounds=2, cards=(0, 7, 11, 15, 21, 27, 33)),
    LithConfig(rounds=2, cards=(0, 7, 11, 15, 21, 27, EXCUSE), excuse="demon", max_raises=1),
    LithConfig(rounds=3, cards=(0, 5, 9, 14, 20, 26, 31, 38), max_raises=1),
]
IDS = ["two-rounds", "demon", "three-rounds"]


@pytest.mark.parametrize(
    "config",
    [*CONFIGS[:2], pytest.param(CONFIGS[2], marks=pytest.mark.slow)],  # three rounds: ~8 s
    ids=IDS,
)
def test_the_generated_walk_gives_the_generic_walks_results_to_the_bit(config):
    generated, generic = ExchangeGame(config), ExchangeGame(config)
    for tree in generic.compiled_trees.values():
        tree.generic = True
    assert {t.kernel() for t in generated.compiled_trees.values()}.isdisjoint(
        {t.kernel() for t in generic.compiled_trees.values()}
    )
    solvers = ExchangeSolver(generated), ExchangeSolver(generic)
    for solver in solvers:  # CFR mode
        solver.iterate(3)
        solver.fill_classes()
    for key in solvers[0].regrets:
        np.testing.assert_array_equal(solvers[0].regrets[key], solvers[1].regrets[key])
        np.testing.assert_array_equal(solvers[0].sums[key], solvers[1].sums[key])
    average = solvers[0].average()
    # evaluation and best-response modes
    assert profile_value(generated, average) == profile_value(generic, average)
    assert exploitability(generated, average) == exploitability(generic, average)
    for player in (0, 1):
        (value, chosen), (value_ref, chosen_ref) = (
            best_response_value(game, average, player) for game in (generated, generic)
        )
        assert value == value_ref and chosen.keys() == chosen_ref.keys()
        for key in chosen:
            np.testing.assert_array_equal(chosen[key], chosen_ref[key])


@pytest.mark.slow
def test_walks_in_blocks_of_any_size_give_the_per_state_walks_results_to_the_bit():
    """CFR's walks of first states, a block of them at a time (here 5 and 64: blocks full
    and a last one part full, on stages of 56 to 12,600 first states), against the generic module's
    one state at a time."""
    config = CONFIGS[2]
    results = []
    for block in (None, 5, 64):
        game = ExchangeGame(config)
        for tree in game.compiled_trees.values():
            if block is None:
                tree.generic = True
            else:
                tree._written = last_round_for(tree.arrays, tree.me, block)
                source = Path(sys.modules[tree._written.py_func.__module__].__file__).read_text()
                assert f"states = np.empty({block}, dtype=np.int64)" in source
        solver = ExchangeSolver(game)
        solver.iterate(4)
        results.append(solver)
    reference, *blocked = results
    for solver in blocked:
        for key in reference.regrets:
            np.testing.assert_array_equal(solver.regrets[key], reference.regrets[key])
            np.testing.assert_array_equal(solver.sums[key], reference.sums[key])


def test_the_walk_is_written_node_by_node():
    """No loop over the tree is left: each of my decisions' regrets is written by its own
    line, one per action, at a constant offset from the decision's row."""
    game = ExchangeGame(CONFIGS[2])
    for (_, me), tree in game.compiled_trees.items():
        player, _, width = tree.arrays[:3]
        source = walk_source(tree.arrays, me)
        ast.parse(source)
        lines = [line.strip() for line in source.splitlines()]
        updates = [line for line in lines if line.startswith("regret[row")]
        mine = [n for n in range(len(player)) if player[n] == me]
        expected = [
            f"regret[row{n} + {k}] = x * positive if x > 0.0 else x * negative"
            for n in reversed(mine)
            for k in range(width[n])
        ]
        assert updates == expected
        assert "width[" not in source and "children[" not in source


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A fresh cache folder, and no generated module imported yet in this process."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "numba"))
    for name in [n for n in sys.modules if n.startswith("lith_last_round_")]:
        monkeypatch.delitem(sys.modules, name)
    return tmp_path / "numba" / "lith_env"


def test_a_generated_kernel_is_written_once_to_the_cache_folder(own_cache):
    tree = ExchangeGame(CONFIGS[0]).compiled_trees[1, 0]
    kernel = last_round_for(tree.arrays, 0)
    (path,) = own_cache.glob("lith_last_round_*.py")
    assert path.stem in sys.modules and kernel is sys.modules[path.stem].last_round
    assert path.read_text().count("def walk_state(") == 2  # the generic one, then this tree's
    written = path.stat().st_mtime_ns
    assert last_round_for(tree.arrays, 0) is kernel
    assert last_round_for(tree.arrays, 1) is not kernel  # the other player's walk
    assert path.stat().st_mtime_ns == written
    assert len(list(own_cache.glob("lith_last_round_*.py"))) == 2


def test_a_damaged_kernel_file_is_written_again(own_cache):
    tree = ExchangeGame(CONFIGS[0]).compiled_trees[1, 0]
    last_round_for(tree.arrays, 0)
    (path,) = own_cache.glob("lith_last_round_*.py")
    text = path.read_text()
    path.write_text(text[: len(text) // 2])  # e.g. a disk filled up mid-write by hand
    del sys.modules[path.stem]
    last_round_for(tree.arrays, 0)
    assert path.read_text() == text
    assert not list(own_cache.glob("*.partial"))


def test_the_kernel_folder_follows_numba_then_the_user_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "numba"))
    assert kernel_folder() == tmp_path / "numba" / "lith_env"
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert kernel_folder() == tmp_path / "cache" / "lith_env" / "kernels"
    if os.getuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        monkeypatch.setenv("XDG_CACHE_HOME", str(locked))
        assert kernel_folder().name == f"lith_env-kernels-{os.getuid()}"
