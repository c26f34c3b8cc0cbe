"""Card abstraction and external-sampling MCCFR for heads-up limit Lith with one betting round.

The abstraction puts the 3-card hands into ``buckets`` groups of (nearly) equal size by their
*equity*: the share of the pot a hand wins at showdown against a hand dealt at random from
the cards it leaves (exact, card removal included; ties count a half). A player knows only
its bucket and the betting, so the abstract game has ``buckets`` information sets per
decision node instead of one per hand. With as many buckets as hands it is the real game.

The abstract game is solved by external-sampling Monte Carlo CFR (Lanctot et al., NeurIPS
2009) with linear weighting (Brown & Sandholm 2019): every traversal samples one deal and the
opponent's actions and walks all of the traverser's; iteration ``t`` weighs its regrets and
its share of the average strategy by ``t``. The traversal is compiled with numba, as the
exact solvers are, and seeded: the same seed and chunking give the same strategy.

Measured inside the abstraction, the *abstract* exploitability is exact: a best response that
also sees only its bucket (:func:`abstract_best_response`, summing the per-hand counterfactual
values of ``lith_solver.one_round`` over each bucket). The strategy played in the real game
(each hand plays its bucket's row) is measured against the real best response by
``lith_solver.one_round`` as any profile is. The gap between the two is the price of the
abstraction; the number of buckets sets it (Johanson et al., AAMAS 2013).

The buckets and the traversal's compiled steps are those of the games with exchanges too
(``lith_solver.mccfr``).
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from lith_env.game import LithConfig
from lith_env.hands import strength
from lith_solver.abstract_exchanges import FORMAT as EXCHANGES_FORMAT
from lith_solver.abstract_exchanges import load_exchange_abstract, solve_checked
from lith_solver.checkpoint import rules_json
from lith_solver.mccfr import (
    ROOT,
    check_average_power,
    equity_buckets,
    regret_strategy,
    regret_update,
    sampled_action,
)
from lith_solver.one_round import OneRoundGame, normalized
from lith_solver.solutions import as_probabilities
from lith_solver.swap_abstraction import FORMAT as SWAP_FORMAT
from lith_solver.swap_abstraction import load_swap_abstract

__all__ = [
    "FORMAT",
    "AbstractSolver",
    "abstract_best_response",
    "abstract_exploitability",
    "load_abstract",
    "real_game_profile",
    "save_abstract",
]

FORMAT = "lith-abstract-1"
MAX_ACTIONS = 3  # fold, check/call, bet/raise


def real_game_profile(
    game: OneRoundGame, bucket: np.ndarray, strategy: np.ndarray
) -> list[np.ndarray]:
    """The real game's profile (every node (hands, actions)) in which each hand plays its
    bucket's row of ``strategy`` (decisions, buckets, MAX_ACTIONS)."""
    profile = game.uniform_profile()
    for d, index in enumerate(game.decisions):
        width = len(game.tree[index].actions)
        profile[index] = strategy[d][bucket][:, :width]
    return profile


def abstract_best_response(
    game: OneRoundGame, bucket: np.ndarray, profile: list[np.ndarray], player: int
) -> float:
    """Chips a hand that ``player`` wins with a best response that knows only its bucket."""
    return float(game.values(profile, player, best=True, bucket=bucket).sum() / game.num_deals)


def abstract_exploitability(
    game: OneRoundGame, bucket: np.ndarray, profile: list[np.ndarray]
) -> float:
    """The mean of both positions' abstract best responses (chips a hand; zero at an
    equilibrium of the abstract game)."""
    return (
        abstract_best_response(game, bucket, profile, 0)
        + abstract_best_response(game, bucket, profile, 1)
    ) / 2


# ---------------------------------------------------------------------------------------------
# The compiled traversal


# Not cached: numba's cache reloads a recursive function wrongly (a segfault, numba 0.6x).
@njit
def _traverse(
    node, p, hands, bucket, strengths, player, width, child, decision, contrib, folder,
    regrets, sums, weight, average_weight,
):  # fmt: skip  # pragma: no cover - compiled
    """The value to ``p`` of ``node`` for the deal ``hands`` (hand rows of positions 0, 1),
    updating ``p``'s regrets and the opponent's strategy sums on the way."""
    q = player[node]
    if q < 0:
        if folder[node] >= 0:
            return -contrib[node, p] if folder[node] == p else contrib[node, 1 - p]
        net = 0.0
        for r in range(strengths.shape[0]):
            a, b = strengths[r, hands[p]], strengths[r, hands[1 - p]]
            net += 1.0 if a > b else (-1.0 if a < b else 0.0)
        return contrib[node, p] * net / strengths.shape[0]
    d, b, k = decision[node], bucket[hands[q]], width[node]
    sigma = np.empty(k)
    regret_strategy(regrets, d, b, k, sigma)
    if q != p:
        a = sampled_action(sums, d, b, sigma, average_weight)
        return _traverse(
            child[node, a], p, hands, bucket, strengths, player, width, child, decision,
            contrib, folder, regrets, sums, weight, average_weight,
        )  # fmt: skip
    values = np.empty(k)
    for a in range(k):
        values[a] = _traverse(
            child[node, a], p, hands, bucket, strengths, player, width, child, decision,
            contrib, folder, regrets, sums, weight, average_weight,
        )  # fmt: skip
    return regret_update(regrets, d, b, sigma, values, weight)


@njit
def _iterations(
    first, count, traversals, seed, cards, bucket, strengths, player, width, child, decision,
    contrib, folder, regrets, sums, average_power,
):  # fmt: skip  # pragma: no cover - compiled
    """Iterations ``first`` to ``first + count - 1``: each updates position 0 then 1, with
    ``traversals`` sampled deals each, its regrets weighted by the iteration's number ``t``
    and its strategy in the average by ``t**average_power``. Each iteration's
    draws are seeded from (``seed``, its number), so any chunking gives the same solve."""
    num_hands = cards.shape[0]
    hands = np.empty(2, dtype=np.int64)
    for t in range(first, first + count):
        # numba compiles only the legacy generator: one seeded stream per iteration
        np.random.seed((seed * 1_000_003 + t) % 4_294_967_296)  # noqa: NPY002
        for p in range(2):
            for _ in range(traversals):
                hands[0] = np.random.randint(num_hands)  # noqa: NPY002
                while True:  # the second hand: any hand sharing no card with the first
                    h = np.random.randint(num_hands)  # noqa: NPY002
                    clash = False
                    for i in range(3):
                        for j in range(3):
                            clash = clash or cards[hands[0], i] == cards[h, j]
                    if not clash:
                        break
                hands[1] = h
                _traverse(
                    ROOT, p, hands, bucket, strengths, player, width, child, decision, contrib,
                    folder, regrets, sums, float(t), float(t) ** average_power,
                )  # fmt: skip


class AbstractSolver:
    """External-sampling MCCFR with linear weighting on the bucketed one-round game."""

    CHUNK = 100  # iterations per compiled call

    def __init__(
        self,
        game: OneRoundGame,
        buckets: int,
        seed: int = 0,
        traversals: int = 1,
        average_power: float = 1.0,
    ):
        check_average_power(average_power)
        self.game = game
        self.average_power = float(average_power)
        self.bucket = equity_buckets(game, buckets)
        self.buckets = buckets
        self.seed = seed
        self.traversals = traversals
        tree = game.tree
        n = len(tree)
        self._player = np.array([-1 if t.player is None else t.player for t in tree])
        self._width = np.array([len(t.actions) for t in tree], dtype=np.int64)
        self._child = np.zeros((n, MAX_ACTIONS), dtype=np.int64)
        self._decision = np.full(n, -1, dtype=np.int64)
        for i, node in enumerate(tree):
            self._child[i, : len(node.children)] = node.children
        for d, i in enumerate(game.decisions):
            self._decision[i] = d
        self._contrib = np.array([t.contributions for t in tree], dtype=np.float64)
        self._folder = np.array([-1 if t.folder is None else t.folder for t in tree])
        roles = ("imposter", "beggar") if game.config.excuse == "demon" else (game.config.excuse,)
        self._strengths = np.stack(
            [
                strength(game.hands, pawns_and_courts=game.config.pawns_and_courts, excuse=role)
                for role in roles
            ]
        ).astype(np.float64)
        shape = (len(game.decisions), buckets, MAX_ACTIONS)
        self.regrets = np.zeros(shape)
        self.sums = np.zeros(shape)
        self.iterations = 0

    def iterate(self, count: int) -> None:
        """Run ``count`` more iterations (in chunks of :attr:`CHUNK`)."""
        while count > 0:
            step = min(count, self.CHUNK)
            _iterations(
                self.iterations + 1, step, self.traversals, self.seed,
                self.game.hands, self.bucket, self._strengths, self._player, self._width,
                self._child, self._decision, self._contrib, self._folder, self.regrets, self.sums,
                self.average_power,
            )  # fmt: skip
            self.iterations += step
            count -= step

    def average_strategy(self) -> np.ndarray:
        """(decisions, buckets, MAX_ACTIONS): the average strategy, iteration ``t`` weighted by
        ``t**average_power`` (1: linear)."""
        return self._rows(self.sums, normalized)

    def current_strategy(self) -> np.ndarray:
        """The last iterate: regret matching on the current regrets."""
        return self._rows(np.maximum(self.regrets, 0.0), normalized)

    def _rows(self, weights: np.ndarray, rule: Callable) -> np.ndarray:
        out = np.zeros_like(weights)
        for d, index in enumerate(self.game.decisions):
            width = len(self.game.tree[index].actions)
            out[d, :, :width] = rule(weights[d, :, :width])
        return out

    def measure(self) -> dict[str, float]:
        """Abstract and real exploitability of the average and the current strategy."""
        out: dict[str, float] = {}
        for name, strategy in (
            ("average", self.average_strategy()),
            ("current", self.current_strategy()),
        ):
            profile = real_game_profile(self.game, self.bucket, strategy)
            out[f"abstract_{name}"] = abstract_exploitability(self.game, self.bucket, profile)
            out[f"real_{name}"] = self.game.exploitability(profile)[2]
        return out

    def solve(
        self,
        iterations: int,
        check_every: int,
        report: Callable[[dict[str, Any]], None] | None = None,
    ) -> list[dict[str, Any]]:
        """Run to ``iterations``, measuring every ``check_every``: the curve (iteration,
        CPU seconds of the solve so far, the four exploitabilities)."""
        return solve_checked(self, iterations, check_every, report)


def save_abstract(out: Path, solver: AbstractSolver, info: dict[str, Any]) -> None:
    """Write ``abstraction.npz`` (the hands, each hand's bucket, the average and the current
    strategy) and ``abstraction.json`` (the rules, the buckets, the tree, ``info``)."""
    out.mkdir(parents=True, exist_ok=True)
    game = solver.game
    np.savez_compressed(
        out / "abstraction.npz",
        hands=game.hands,
        bucket=solver.bucket,
        average=solver.average_strategy(),
        current=solver.current_strategy(),
    )
    record = {
        "format": FORMAT,
        "config": rules_json(game.config),
        "buckets": solver.buckets,
        "iterations": solver.iterations,
        "seed": solver.seed,
        "traversals": solver.traversals,
        "average_power": solver.average_power,
        "nodes": [game.tree[i].history for i in game.decisions],
        **info,
    }
    (out / "abstraction.json").write_text(json.dumps(record, indent=2) + "\n")


def load_abstract(directory: str | Path, policy: str = "average") -> tuple[Any, list, dict]:
    """The game, the real-game profile of the saved ``policy`` (average or current) and the
    record of an abstraction folder; a missing or corrupt file is a ``ValueError`` naming it.
    A game with exchanges gives its ``ExchangeAbstraction`` (public tree, buckets; with
    recall "swap" a ``SwapAbstraction``) and the abstract strategy instead (no exact game is
    built: any deck plays)."""
    if policy not in ("average", "current"):
        raise ValueError(f"abstract: policy must be average or current, got {policy!r}")
    directory = Path(directory)
    record_path, arrays_path = directory / "abstraction.json", directory / "abstraction.npz"
    for path in (record_path, arrays_path):
        if not path.is_file():
            raise ValueError(
                f"abstract: no {path.name} in {str(directory)!r} (run decktet abstract)"
            )
    try:
        record = json.loads(record_path.read_text())
        if record.get("format") not in (FORMAT, EXCHANGES_FORMAT, SWAP_FORMAT):
            raise ValueError(f"not a {FORMAT}, {EXCHANGES_FORMAT} or {SWAP_FORMAT} record")
        config = LithConfig(**record["config"])
        if record["format"] in (EXCHANGES_FORMAT, SWAP_FORMAT):
            load = load_exchange_abstract if record["format"] == EXCHANGES_FORMAT else (
                load_swap_abstract)  # fmt: skip
            loaded = load(directory, record, policy)
            return loaded, loaded.strategy, record
        game = OneRoundGame(config)
    except (ValueError, KeyError, TypeError) as error:
        if str(error).startswith("abstract: "):
            raise
        raise ValueError(
            f"abstract: {str(record_path)!r} is not an abstraction record: {error}"
        ) from None
    try:
        with np.load(arrays_path) as arrays:
            if not np.array_equal(arrays["hands"], game.hands):
                raise ValueError("its hands are not the hands of its rules")
            bucket = np.asarray(arrays["bucket"], dtype=np.int64)
            if policy not in arrays.files:
                raise ValueError(f"it keeps no {policy} strategy (only {', '.join(arrays.files)})")
            strategy = as_probabilities(arrays[policy])
        expected = (len(game.decisions), int(record["buckets"]), MAX_ACTIONS)
        if strategy.shape != expected or bucket.shape != (game.num_hands,):
            raise ValueError(f"{policy} has shape {strategy.shape}, expected {expected}")
        if bucket.min() < 0 or bucket.max() >= expected[1] or (strategy < 0).any():
            raise ValueError("a bucket id out of range or a negative probability")
        profile = real_game_profile(game, bucket, strategy)
        for index in game.decisions:
            if not np.allclose(profile[index].sum(axis=1), 1.0):
                raise ValueError(f"the rows of node {game.tree[index].history!r} do not sum to 1")
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"abstract: {str(arrays_path)!r} is corrupt: {error}") from None
    return game, profile, record
