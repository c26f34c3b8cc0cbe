"""The compiled kernels of the exact solvers against the numpy they replace."""

import numpy as np
import pytest
from scipy import sparse

from lith_solver.kernels import (
    discounted_update,
    factored_sums,
    moved_reach,
    regret_matching,
    summed_into_parents,
)
from lith_solver.one_round import dcfr_weights, normalized


def dcfr_update(regret, sums, instant, contribution, t):
    """Discounted CFR's update (alpha 1.5, beta 0, gamma 2) in numpy, step by step."""
    regret += instant
    positive, negative, _ = dcfr_weights(t, 1.5, 0.0, 2.0)
    regret *= np.where(regret > 0, positive, negative)
    sums += contribution * t**2.0


def test_regret_matching_is_normalized_positive_regret():
    rng = np.random.default_rng(0)
    regret = rng.normal(size=(500, 3))
    regret[:50] = -np.abs(regret[:50])  # no positive regret: uniform
    regret[50:60, 1:] = 0.0  # one positive action: all on it
    out = regret_matching(regret)
    np.testing.assert_array_equal(out, normalized(np.maximum(regret, 0.0)))
    np.testing.assert_array_equal(out[:50], np.full((50, 3), 1 / 3))
    np.testing.assert_allclose(out.sum(axis=1), 1.0)


@pytest.mark.parametrize("t", [1, 7, 250])
def test_discounted_update_is_the_numpy_update(t):
    rng = np.random.default_rng(t)
    rows, actions = 400, 4
    regret, sums = rng.normal(size=(rows, actions)), rng.random((rows, actions))
    children, own = rng.normal(size=(actions, rows)), rng.random(rows)
    strategy = regret_matching(rng.normal(size=(rows, actions)))
    expected_regret, expected_sums = regret.copy(), sums.copy()
    expected_value = (children.T * strategy).sum(axis=1)
    dcfr_update(
        expected_regret, expected_sums, children.T - expected_value[:, None],
        own[:, None] * strategy, t,
    )  # fmt: skip
    value = discounted_update(regret, sums, children, strategy, own, *dcfr_weights(t, 1.5, 0, 2))
    np.testing.assert_allclose(value, expected_value, rtol=1e-12)
    np.testing.assert_allclose(regret, expected_regret, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(sums, expected_sums, rtol=1e-12)
    # the strategy in place is the next one: regret matching on the new regrets
    np.testing.assert_allclose(strategy, regret_matching(expected_regret), rtol=1e-12)


def test_weighted_sums_average_as_discounted_cfr_sums():
    """The sums gain t^gamma times iteration t's play instead of being scaled by
    (t / (t + 1))^gamma after it, as discounted CFR writes it: the average is the same."""
    rng = np.random.default_rng(5)
    rows, actions = 200, 3
    regret, weighted = np.zeros((rows, actions)), np.zeros((rows, actions))
    discounted = np.zeros((rows, actions))
    for t in range(1, 60):
        children, own = rng.normal(size=(actions, rows)), rng.random(rows)
        own[rng.random(rows) < 0.5] = 0.0  # unreached rows: their sums are left alone
        strategy = regret_matching(regret)
        played = own[:, None] * strategy
        discounted = (discounted + played) * (t / (t + 1)) ** 2.0
        discounted_update(regret, weighted, children, strategy, own, *dcfr_weights(t, 1.5, 0, 2))
    np.testing.assert_allclose(normalized(weighted), normalized(discounted), rtol=1e-11)
    # the weights grow as t^2: the last iteration counts 59^2 times the first
    assert weighted.sum() > discounted.sum() * 50**2


def test_factored_sums_is_matrix_times_prefix_of_merged_reach():
    rng = np.random.default_rng(3)
    states, classes, entries, rows, k = 300, 120, 900, 80, 5
    reach = rng.random((k, states))
    state_class = rng.integers(0, classes, states)
    gathers = rng.integers(0, classes, (2, entries))
    matrix = sparse.random(rows, 2 * (entries + 1), density=0.05, format="csr", random_state=4)
    merged = np.zeros((k, classes))
    np.add.at(merged.T, state_class, reach.T)
    prefix = np.concatenate(
        [
            np.concatenate([np.zeros((k, 1)), np.cumsum(merged[:, g], axis=1)], axis=1)
            for g in gathers
        ],
        axis=1,
    )
    expected = (matrix @ prefix.T).T
    out = factored_sums(
        reach, state_class, classes, gathers,
        matrix.indptr.astype(np.int64), matrix.indices.astype(np.int64), matrix.data,
    )  # fmt: skip
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)


def test_moved_reach_is_the_numpy_gather():
    """A child stage's reach: each child state takes its parent's, times the probability of
    the exchange action that led to it, or not (a best responder's own reach)."""
    rng = np.random.default_rng(3)
    reach, probs = rng.random((5, 40)), rng.dirichlet(np.ones(4), (5, 40))
    parent, action = np.sort(rng.integers(0, 40, 150)), rng.integers(0, 4, 150)
    np.testing.assert_array_equal(
        moved_reach(reach, parent, action, probs), reach[:, parent] * probs[:, parent, action]
    )
    np.testing.assert_array_equal(
        moved_reach(reach, parent, action, np.empty((0, 0, 0))), reach[:, parent]
    )


def test_summed_into_parents_is_the_sparse_gather():
    """Child states' values summed into their parent's (state, action): the sparse product
    it replaces, to the bit (children added in the same order)."""
    rng = np.random.default_rng(4)
    values = rng.normal(size=(5, 150))
    parent, action = np.sort(rng.integers(0, 40, 150)), rng.integers(0, 4, 150)
    gather = sparse.csr_matrix(
        (np.ones(150), (parent * 4 + action, np.arange(150))), shape=(40 * 4, 150)
    )
    summed = summed_into_parents(values, parent, action, 40)
    np.testing.assert_array_equal(summed, (gather @ values.T).T)
    assert summed.shape == (5, 160)
