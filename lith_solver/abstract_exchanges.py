"""Card abstraction and external-sampling MCCFR for heads-up limit Lith with exchanges
(``rounds=2`` or ``3``), the games ``lith_solver.exchanges`` solves exactly on small decks.

The abstraction is of imperfect recall: at every decision a player knows the public history
(the betting, and at each exchange whether each player discarded) and the equity bucket of
the three cards it holds *now* (``lith_solver.buckets.bucket_hands`` on the deck in
play). What the exchanges told it goes into that bucket: the hand it kept or drew; the card
it gave away and the card it saw in a swap are forgotten. With as many buckets as hands, only
that memory is abstracted away.

MCCFR samples the deal and the deck's order once a traversal (so every card drawn), walks all
of the traverser's actions and one sampled action of the opponent, and weighs iteration ``t``
by ``t`` (linear weighting), compiled with numba. The strategy is then read into the exact
game's layout (:func:`exact_game_strategy`: every decision point's (betting lines, private
states) rows, each state playing its current hand's bucket) and measured exactly by
``lith_solver.exchanges`` against the real best response. The abstract game's own best
response is not computed here: with imperfect recall one abstract information set spans
states of different histories, and a best response is no longer a backward induction.
"""

from __future__ import annotations

import itertools
import json
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from lith_env.game import LithConfig
from lith_env.hands import strength
from lith_solver.buckets import bucket_hands
from lith_solver.checkpoint import rules_json
from lith_solver.exchanges import PATTERNS, ExchangeGame, ExchangeSolver, exploitability
from lith_solver.mccfr import (
    DEALT,
    NOTHING_PENDING,
    ROOT,
    check_average_power,
    exchanged,
    hand_index,
    regret_strategy,
    regret_update,
    sampled_action,
    showdown_sign,
    sort3,
)
from lith_solver.one_round import OneRoundGame, betting_tree, normalized
from lith_solver.solutions import as_probabilities

__all__ = [
    "FORMAT",
    "ExactlyMeasured",
    "ExchangeAbstractSolver",
    "ExchangeAbstraction",
    "PublicTree",
    "exact_game_strategy",
    "hand_buckets",
    "load_exchange_abstract",
    "one_round_config",
    "sampled_value",
    "save_exchange_abstract",
    "solve_checked",
]

FORMAT = "lith-abstract-exchanges-1"
BET, X0, X1_KEEP, X1_DISCARD, FOLD, SHOWDOWN = range(6)
RECALLS = ("hand", "perfect")
WIDTH = 4  # the widest decision: an exchange (keep, or discard the first to third card)


class PublicTree:
    """The public tree of the game with exchanges as arrays, with each decision's key in the
    exact game's layout: ``(round, stage index, node or x0/x1k/x1d)`` and the betting line."""

    def __init__(self, config: LithConfig) -> None:
        self.rounds = config.rounds
        max_bets = 1 + config.max_raises
        self.trees = [betting_tree(0, config.bet_sizes[r], max_bets) for r in range(self.rounds)]
        self.ends = [
            [i for i, n in enumerate(tree) if n.player is None and n.folder is None]
            for tree in self.trees
        ]
        self.ante = config.ante
        self.stage_index: dict[tuple, int] = {}
        self._number_stages((), 0)
        kinds, players, children, paid, keys = [], [], [], [], []
        self._kinds, self._players, self._children, self._paid = kinds, players, children, paid
        self.keys: list[tuple | None] = keys
        self._round(0, (), 0, 1, 0)
        n = len(kinds)
        self.kind = np.array(kinds, dtype=np.int64)
        self.player = np.array(players, dtype=np.int64)
        self.child = np.full((n, WIDTH), -1, dtype=np.int64)
        self.width = np.zeros(n, dtype=np.int64)
        for i, c in enumerate(children):
            self.child[i, : len(c)] = c
            self.width[i] = len(c)
        self.paid = np.array(paid, dtype=np.float64)
        self.decision = np.full(n, -1, dtype=np.int64)
        decisions = [i for i, k in enumerate(kinds) if k in (BET, X0, X1_KEEP, X1_DISCARD)]
        self.decision[decisions] = np.arange(len(decisions))
        self.decisions = decisions

    def _number_stages(self, patterns: tuple, exchange: int) -> None:
        # The exact game numbers its stages depth first, in PATTERNS order.
        self.stage_index[patterns] = len(self.stage_index)
        if exchange < self.rounds - 1:
            for pattern in PATTERNS:
                self._number_stages((*patterns, pattern), exchange + 1)

    def _add(self, kind: int, player: int, paid: tuple, key: tuple | None) -> int:
        self._kinds.append(kind)
        self._players.append(player)
        self._children.append([])
        self._paid.append(paid)
        self.keys.append(key)
        return len(self._kinds) - 1

    def _round(self, r: int, patterns: tuple, line: int, lines: int, before: int) -> int:
        """Add betting round ``r`` after the exchanges ``patterns`` and the betting ``line``
        (each player has paid ``before`` beyond the ante); its root's index."""
        tree, stage = self.trees[r], self.stage_index[patterns]
        index: dict[int, int] = {}
        for i, node in enumerate(tree):
            paid = (self.ante + before + node.contributions[0],
                    self.ante + before + node.contributions[1])  # fmt: skip
            if node.player is not None:
                index[i] = self._add(BET, node.player, paid, (r, stage, i, line))
            elif node.folder is not None:
                index[i] = self._add(FOLD, node.folder, paid, None)
            elif r == self.rounds - 1:
                index[i] = self._add(SHOWDOWN, -1, paid, None)
            else:
                after = line + self.ends[r].index(i) * lines
                spent = before + node.contributions[0]
                index[i] = self._exchange(r, patterns, after, lines * len(self.ends[r]), spent)
        for i, node in enumerate(tree):
            self._children[index[i]].extend(index[c] for c in node.children)
        return index[0]

    def _exchange(self, r: int, patterns: tuple, line: int, lines: int, spent: int) -> int:
        stage = self.stage_index[patterns]
        paid = (self.ante + spent, self.ante + spent)
        first = self._add(X0, 0, paid, (r, stage, "x0", line))
        keep = self._add(X1_KEEP, 1, paid, (r, stage, "x1k", line))
        discard = self._add(X1_DISCARD, 1, paid, (r, stage, "x1d", line))
        self._children[first].extend([keep, discard, discard, discard])
        for node, (kept, discarded) in ((keep, ("none", "draw1")), (discard, ("draw0", "swap"))):
            after_keep = self._round(r + 1, (*patterns, kept), line, lines, spent)
            after_discard = self._round(r + 1, (*patterns, discarded), line, lines, spent)
            self._children[node].extend([after_keep, after_discard, after_discard, after_discard])
        return first


# ---------------------------------------------------------------------------------------------
# The compiled traversal


# Not cached: numba's cache reloads a recursive function wrongly (see abstraction.py).
@njit
def _traverse(
    node, p, hands, order, top, pending, history, kind, player, width, child, decision, paid,
    position, size, bucket, strengths, regrets, sums, weight, average_weight,
):  # fmt: skip  # pragma: no cover - compiled
    """The value to ``p`` of ``node``: ``hands`` (2, 3) sorted, ``order`` the undealt cards
    in deck order from ``top``, ``pending`` the first player's exchange action (0 keep).
    ``history``: each player's private history as a number (recall "perfect"), or -1
    (recall "hand": the information set is the current hand's bucket)."""
    k = kind[node]
    if k == FOLD:
        return -paid[node, p] if player[node] == p else paid[node, 1 - p]
    if k == SHOWDOWN:
        return paid[node, p] * showdown_sign(hands, p, strengths, position, size)
    q = player[node]
    d, n = decision[node], width[node]
    b = history[q] if history[q] >= 0 else bucket[hand_index(hands[q], position, size)]
    sigma = np.empty(n)
    regret_strategy(regrets, d, b, n, sigma)
    values = np.zeros(n)
    chosen = sampled_action(sums, d, b, sigma, average_weight) if q != p else -1
    for a in range(n):
        if q != p and a != chosen:
            continue
        next_hands, next_top, next_pending, next_history = hands, top, pending, history
        if k == X0:
            next_pending = a
        elif X1_KEEP <= k <= X1_DISCARD:  # the dealer decided: the exchange happens
            next_hands, next_top, got = exchanged(hands, order, top, pending, a)
            next_pending = 0
            if history[0] >= 0:  # what each learned: its own action and the card it got
                next_history = history.copy()
                for who, action in ((0, pending), (1, a)):
                    received = position[got[who]] + 1 if got[who] >= 0 else 0
                    next_history[who] = (history[who] * 4 + action) * (size + 1) + received
        values[a] = _traverse(
            child[node, a], p, next_hands, order, next_top, next_pending, next_history, kind,
            player, width,
            child, decision, paid, position, size, bucket, strengths, regrets, sums, weight,
            average_weight,
        )  # fmt: skip
        if q != p:
            return values[a]
    return regret_update(regrets, d, b, sigma, values, weight)


@njit
def _iterations(
    first, count, traversals, seed, deck, kind, player, width, child, decision, paid,
    position, bucket, strengths, regrets, sums, perfect, average_power,
):  # fmt: skip  # pragma: no cover - compiled
    """Iterations ``first`` to ``first + count - 1``, each seeded from (``seed``, its
    number): each player traverses ``traversals`` sampled deals and deck orders. Iteration
    ``t`` weighs its regrets by ``t`` and its strategy in the average by ``t**average_power``."""
    size = deck.shape[0]
    hands = np.empty((2, 3), dtype=np.int64)
    for t in range(first, first + count):
        np.random.seed((seed * 1_000_003 + t) % 4_294_967_296)  # noqa: NPY002 (numba)
        for p in range(2):
            for _ in range(traversals):
                order = np.random.permutation(deck)  # noqa: NPY002 (numba)
                for i in range(3):  # dealt one at a time from the dealer's left
                    hands[0, i] = order[2 * i]
                    hands[1, i] = order[2 * i + 1]
                sort3(hands[0])
                sort3(hands[1])
                history = np.full(2, -1, dtype=np.int64)
                if perfect:
                    for who in range(2):
                        history[who] = bucket[hand_index(hands[who], position, size)]
                _traverse(
                    ROOT, p, hands, order, DEALT, NOTHING_PENDING, history, kind, player, width,
                    child, decision, paid, position, size, bucket, strengths, regrets, sums,
                    float(t), float(t) ** average_power,
                )  # fmt: skip


class ExactlyMeasured:
    """What the solvers of the games with exchanges share: the exact game (built once) and the
    real exploitability of their average and current strategies, each read into the exact
    game by :meth:`exact_profile`; a solve to a number of iterations, measured as it goes."""

    config: LithConfig
    iterations: int
    _game: ExchangeGame | None = None

    def average_strategy(self) -> np.ndarray:
        raise NotImplementedError

    def current_strategy(self) -> np.ndarray:
        raise NotImplementedError

    def iterate(self, count: int) -> None:
        raise NotImplementedError

    def exact_profile(self, game: ExchangeGame, strategy: np.ndarray) -> dict[tuple, np.ndarray]:
        """``strategy`` as the exact game's (each decision point's (lines, states, actions))."""
        raise NotImplementedError

    def game(self) -> ExchangeGame:
        """The exact game (built once), in which the strategy is measured."""
        if self._game is None:
            self._game = ExchangeGame(self.config)
        return self._game

    def measure(self) -> dict[str, float]:
        """The real game's exact exploitability of the average and the current strategy."""
        game = self.game()
        out = {}
        for name, strategy in (("average", self.average_strategy()),
                               ("current", self.current_strategy())):  # fmt: skip
            out[f"real_{name}"] = exploitability(game, self.exact_profile(game, strategy))[2]
        return out

    def solve(
        self,
        iterations: int,
        check_every: int,
        report: Callable[[dict], None] | None = None,
        exact: bool = True,
    ) -> list[dict[str, Any]]:
        """Iterate to ``iterations``, reporting every ``check_every`` (see
        :func:`solve_checked`)."""
        return solve_checked(self, iterations, check_every, report, exact)


class ExchangeAbstractSolver(ExactlyMeasured):
    """External-sampling MCCFR with linear weighting on the bucketed game with exchanges."""

    CHUNK = 50

    def __init__(
        self,
        config: LithConfig,
        buckets: int,
        seed: int = 0,
        traversals: int = 1000,
        recall: str = "hand",
        average_power: float = 1.0,
        bucketing: str = "equity",
    ) -> None:
        """``bucketing``: how the hands are grouped (:mod:`lith_solver.buckets`)."""
        check_average_power(average_power)
        if recall not in RECALLS:
            raise ValueError(f"recall: must be hand or perfect, got {recall!r}")
        if config.rounds not in (2, 3):
            raise ValueError(
                f"rounds: this is the game with exchanges (2 or 3), got {config.rounds}"
            )
        self.config = config
        self.tree = PublicTree(config)
        self.deck = np.array(sorted(config.deck), dtype=np.int64)
        size = len(self.deck)
        one_round = OneRoundGame(one_round_config(config))
        hand_bucket = bucket_hands(one_round, buckets, bucketing, config.rounds, seed)
        self.bucketing = bucketing
        self.position = np.full(int(self.deck.max()) + 1, -1, dtype=np.int64)
        self.position[self.deck] = np.arange(size)
        local = self.position[one_round.hands]
        self.bucket = np.full(size**3, -1, dtype=np.int64)
        self.bucket[(local[:, 0] * size + local[:, 1]) * size + local[:, 2]] = hand_bucket
        self.hand_bucket = hand_bucket
        self.hands = one_round.hands
        roles = ("imposter", "beggar") if config.excuse == "demon" else (config.excuse,)
        self.strengths = np.zeros((len(roles), size**3))
        for r, role in enumerate(roles):
            values = strength(
                one_round.hands, pawns_and_courts=config.pawns_and_courts, excuse=role
            )
            self.strengths[r, (local[:, 0] * size + local[:, 1]) * size + local[:, 2]] = values
        self.buckets, self.seed, self.traversals = buckets, seed, traversals
        self.recall, self.average_power = recall, float(average_power)
        shape = (len(self.tree.decisions), information_sets(config, buckets, recall), WIDTH)
        self.regrets = np.zeros(shape)
        self.sums = np.zeros(shape)
        self.iterations = 0

    def iterate(self, count: int) -> None:
        tree = self.tree
        while count > 0:
            step = min(count, self.CHUNK)
            _iterations(
                self.iterations + 1, step, self.traversals, self.seed, self.deck, tree.kind,
                tree.player, tree.width, tree.child, tree.decision, tree.paid, self.position,
                self.bucket, self.strengths, self.regrets, self.sums, self.recall == "perfect",
                self.average_power,
            )  # fmt: skip
            self.iterations += step
            count -= step

    def average_strategy(self) -> np.ndarray:
        return self._rows(self.sums)

    def current_strategy(self) -> np.ndarray:
        return self._rows(np.maximum(self.regrets, 0.0))

    def _rows(self, weights: np.ndarray) -> np.ndarray:
        out = np.zeros_like(weights)
        for d, node in enumerate(self.tree.decisions):
            n = self.tree.width[node]
            out[d, :, :n] = normalized(weights[d, :, :n])
        return out

    def exact_profile(self, game: ExchangeGame, strategy: np.ndarray) -> dict[tuple, np.ndarray]:
        return exact_game_strategy(self, game, strategy)


def solve_checked(
    solver: Any,
    iterations: int,
    check_every: int,
    report: Callable[[dict], None] | None = None,
    exact: bool = True,
) -> list[dict[str, Any]]:
    """Iterate ``solver`` to ``iterations``, reporting every ``check_every`` the CPU time and
    (with ``exact``: the real game fits the exact solver) the real exploitability."""
    curve: list[dict[str, Any]] = []
    spent = 0.0
    while solver.iterations < iterations:
        start = time.process_time()
        solver.iterate(min(check_every, iterations - solver.iterations))
        spent += time.process_time() - start
        entry: dict[str, Any] = {"iteration": solver.iterations, "cpu_seconds": round(spent, 3)}
        if exact:
            entry.update(solver.measure())
        curve.append(entry)
        if report is not None:
            report(entry)
    return curve


def information_sets(config: LithConfig, buckets: int, recall: str) -> int:
    """Information sets a public decision has: the buckets (recall "hand"), or the deal's
    buckets times every course of the player's own exchanges (recall "perfect": at each
    exchange, its action and the card it got, if any)."""
    if recall == "hand":
        return buckets
    return buckets * (4 * (len(config.deck) + 1)) ** (config.rounds - 1)


def sampled_value(
    solver: ExchangeAbstractSolver, player: int, samples: int, seed: int
) -> np.ndarray:
    """``player``'s value of the current strategy on ``samples`` sampled deals and deck orders,
    one a sample, by the compiled traversal with nothing learned (an independent check of
    :func:`exact_game_strategy` and the exact evaluation)."""
    tree, size = solver.tree, len(solver.deck)
    rng = np.random.default_rng(seed)
    np.random.seed(seed)  # noqa: NPY002 - the compiled traversal's own draws
    values = np.empty(samples)
    hands = np.empty((2, 3), dtype=np.int64)
    sums = np.zeros_like(solver.sums)
    for i in range(samples):
        order = rng.permutation(solver.deck)
        hands[0], hands[1] = np.sort(order[[0, 2, 4]]), np.sort(order[[1, 3, 5]])
        history = np.full(2, -1, dtype=np.int64)
        if solver.recall == "perfect":
            local = solver.position[hands]
            history = solver.bucket[(local[:, 0] * size + local[:, 1]) * size + local[:, 2]]
        values[i] = _traverse(
            0, player, hands, order, 6, 0, history, tree.kind, tree.player, tree.width,
            tree.child, tree.decision, tree.paid, solver.position, size, solver.bucket,
            solver.strengths, solver.regrets, sums, 0.0, 0.0,
        )  # fmt: skip
    return values


def one_round_config(config: LithConfig) -> LithConfig:
    """The one-round game on the same deck and hand rules: where the buckets come from."""
    values = rules_json(config)
    values["rounds"] = 1
    values["bet_sizes"] = values["bet_sizes"][:1] + values["bet_sizes"][1:]
    return LithConfig(**values)


def exact_game_strategy(
    solver: Any, game: ExchangeGame, strategy: np.ndarray
) -> dict[tuple, np.ndarray]:
    """The exact game's strategy (every decision point (lines, states, actions)) in which each
    private state plays its current hand's bucket at the public node of its line."""
    tree = solver.tree
    lookup = {key: d for d, key in ((tree.decision[i], tree.keys[i]) for i in tree.decisions)}
    out: dict[tuple, np.ndarray] = {}
    for key, (lines, _, actions) in ExchangeSolver.shapes(game).items():
        r, stage_index, point = key
        stage = game.stages[stage_index]
        player = (
            0 if point == "x0" else 1 if point in ("x1k", "x1d") else game.trees[r][point].player
        )
        if solver.recall == "perfect":
            rows = _history_ids(solver, stage.state_keys[player])
        else:
            rows = hand_buckets(solver, stage.state_hands[player])
        d = np.array([lookup[(r, stage_index, point, line)] for line in range(lines)])
        out[key] = strategy[d][:, rows, :actions]
    return out


def save_exchange_abstract(out: Path, solver: ExchangeAbstractSolver, info: dict) -> None:
    """``abstraction.npz`` (each hand's bucket, both strategies over the public decisions)
    and ``abstraction.json`` (the rules, the buckets, ``info``)."""
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out / "abstraction.npz", hands=solver.hands, bucket=solver.hand_bucket,
        average=solver.average_strategy(), current=solver.current_strategy(),
    )  # fmt: skip
    record = {
        "format": FORMAT, "config": rules_json(solver.config), "buckets": solver.buckets,
        "iterations": solver.iterations, "seed": solver.seed, "traversals": solver.traversals,
        "average_power": solver.average_power,
        "recall": solver.recall, "decisions": len(solver.tree.decisions),
        "bucketing": solver.bucketing, **info,
    }  # fmt: skip
    (out / "abstraction.json").write_text(json.dumps(record, indent=2) + "\n")


class ExchangeAbstraction:
    """A saved abstract strategy, read without the exact game (so on any deck): the public
    tree, each hand's bucket, and ``strategy`` (decisions, information sets, 4)."""

    def __init__(
        self, config: LithConfig, hand_bucket: np.ndarray, hands: np.ndarray, recall: str,
        strategy: np.ndarray | None = None,
    ) -> None:  # fmt: skip
        self.config, self.recall, self.strategy = config, recall, strategy
        self.tree = PublicTree(config)
        self.deck = np.array(sorted(config.deck), dtype=np.int64)
        size = len(self.deck)
        self.position = np.full(int(self.deck.max()) + 1, -1, dtype=np.int64)
        self.position[self.deck] = np.arange(size)
        local = self.position[hands]
        self.bucket = np.full(size**3, -1, dtype=np.int64)
        self.bucket[(local[:, 0] * size + local[:, 1]) * size + local[:, 2]] = hand_bucket
        self.decision_of = {
            self.tree.keys[i]: int(self.tree.decision[i]) for i in self.tree.decisions
        }

    def buckets_of(self, hands: np.ndarray) -> np.ndarray:
        """The bucket of each sorted hand (rows of ``hands``): :func:`hand_buckets`."""
        return hand_buckets(self, hands)

    def information_set(self, hand: tuple[int, ...], deal_key: tuple[int, ...]) -> int:
        """The row a private state plays: the bucket of the ``hand`` it holds now (recall
        "hand") or its history's number (recall "perfect"), from the exact game's state key
        (the dealt hand, then per exchange the slot given, -1 none, and the card got, -1
        none)."""
        if self.recall == "hand":
            return int(self.buckets_of(np.array([hand]))[0])
        return int(_history_ids(self, np.array([deal_key]))[0])

    def strategy_at(
        self, decision: int, hand: tuple[int, ...], patterns: tuple[str, ...],
        deal_key: tuple[int, ...],
    ) -> np.ndarray:  # fmt: skip
        """The probabilities of the private state holding ``hand`` (its history: the
        exchanges' public ``patterns`` and ``deal_key``) at public ``decision``."""
        return self.strategy[decision, self.information_set(hand, deal_key)]


def hand_buckets(owner: Any, hands: np.ndarray) -> np.ndarray:
    """The bucket of each sorted three-card hand (rows of ``hands``) in ``owner``'s
    abstraction (a solver, or one loaded); ``ValueError`` for a card outside its deck."""
    hands = np.asarray(hands, dtype=np.int64)
    position, size = owner.position, len(owner.deck)
    if hands.size and (hands.min() < 0 or hands.max() >= len(position)):
        raise ValueError("abstract: a card outside the deck the strategy was solved for")
    local = position[hands]
    if (local < 0).any():
        raise ValueError("abstract: a card outside the deck the strategy was solved for")
    return owner.bucket[(local[:, 0] * size + local[:, 1]) * size + local[:, 2]]


def _history_ids(solver: Any, keys: np.ndarray) -> np.ndarray:
    """Recall "perfect": each private state's number (its deal's bucket, then per exchange
    its action and the card it got), from the exact game's state keys (the dealt hand, then
    per exchange the slot given, -1 for none, and the card got, -1 for none)."""
    size = len(solver.deck)
    ids = hand_buckets(solver, keys[:, :3])
    for e in range(3, keys.shape[1], 2):
        slot, got = keys[:, e], keys[:, e + 1]
        received = np.where(got >= 0, solver.position[np.maximum(got, 0)] + 1, 0)
        ids = (ids * 4 + slot + 1) * (size + 1) + received
    return ids


def load_exchange_abstract(directory: Path, record: dict, policy: str) -> ExchangeAbstraction:
    """The saved ``policy`` over the public tree of its rules (no exact game is built)."""
    config = LithConfig(**record["config"])
    path = directory / "abstraction.npz"
    try:
        with np.load(path) as arrays:
            hands = np.asarray(arrays["hands"], dtype=np.int64)
            expected = np.array(list(itertools.combinations(sorted(config.deck), 3)))
            if not np.array_equal(hands, expected):
                raise ValueError("its hands are not the hands of its rules")
            recall = record.get("recall", "hand")
            if recall not in RECALLS:
                raise ValueError(f"recall {recall!r}")
            bucket = np.asarray(arrays["bucket"], dtype=np.int64)
            if policy not in arrays.files:
                raise ValueError(f"it keeps no {policy} strategy (only {', '.join(arrays.files)})")
            strategy = as_probabilities(arrays[policy])
        buckets = int(record["buckets"])
        if bucket.min() < 0 or bucket.max() >= buckets:
            raise ValueError("a bucket id out of range")
        loaded = ExchangeAbstraction(config, bucket, hands, recall, strategy)
        shape = (len(loaded.tree.decisions), information_sets(config, buckets, recall), WIDTH)
        if strategy.shape != shape or (strategy < 0).any():
            raise ValueError(f"{policy} has shape {strategy.shape} (expected {shape}) or < 0")
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"abstract: {str(path)!r} is corrupt: {error}") from None
    return loaded
