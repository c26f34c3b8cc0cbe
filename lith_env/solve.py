"""Exact equilibria and best responses of heads-up limit Lith with one betting round, and the
``solve`` command for every game the solvers handle (``rounds=2`` and ``3`` on small decks:
``lith_env.solve_exchanges``).

    python -m lith_env.solve --rule rounds=1 --iterations 3000 --out runs/solved-1round

The game: two players ante, each is dealt three cards from the deck in play (``cards``,
``pawns_and_courts``, ``excuse``), one limit betting round (at most one bet and
``max_raises`` raises of ``bet_sizes[0]``), then the showdown. The first player to act is
the one left of the dealer; positions, not seats, name the players here: player 0 acts first,
player 1 is the dealer.

The solver is discounted CFR (Brown & Sandholm 2019; alpha 1.5, beta 0, gamma 2) on the public
betting tree, every quantity a numpy vector over the private hands of one player (the regret
update compiled, ``lith_env.cfr_kernels``): no abstraction and no sampling. Card removal is
exact. A terminal's value for each hand of one player needs the opponent's reach summed over
the hands that share no card with it (a fold) and split into weaker and stronger hands (a
showdown); inclusion-exclusion over the hands that share one card or two cards with it turns
both into prefix sums over hands sorted by strength, O(hands) per terminal instead of the
O(hands²) of a dense win/lose matrix.

Rules know nothing of RL here: agents reach a solved strategy through ``agents.solved``, and
any agent's exact exploitability through ``agents.exploitability``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import sys
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lith_env.cards import CARDS
from lith_env.cfr_kernels import discounted_update, regret_matching
from lith_env.game import LithConfig
from lith_env.hands import strength
from lith_env.solver_checkpoint import (
    load_checkpoint,
    read_checkpoint_record,
    rules_json,
    save_checkpoint,
)

__all__ = [
    "ALPHA",
    "BETA",
    "GAMMA",
    "Node",
    "OneRoundGame",
    "Solver",
    "betting_tree",
    "load_solution",
    "main",
    "save_solution",
]

# Action ids of lith_env.encoding for limit betting.
FOLD, CHECK_CALL, BET_RAISE = 0, 1, 2
ALPHA, BETA, GAMMA = 1.5, 0.0, 2.0  # discounted CFR's recommended weights


@dataclass(frozen=True)
class Node:
    """A node of the public betting tree.

    ``history``: the actions so far, ``k`` check, ``b`` bet or raise, ``c`` call, ``f`` fold.
    ``player``: 0 (first to act) or 1 (the dealer) at a decision, ``None`` at a terminal.
    ``actions``: the action ids (fold 0, check/call 1, bet/raise 2) legal here, in the order of
    ``children``. ``contributions``: each player's chips in the pot, antes included."""

    history: str
    player: int | None
    actions: tuple[int, ...]
    children: tuple[int, ...]
    contributions: tuple[int, int]
    folder: int | None = None  # who folded, at a fold terminal

    @property
    def is_showdown(self) -> bool:
        return self.player is None and self.folder is None


def betting_tree(ante: int, bet: int, max_bets: int) -> list[Node]:
    """The heads-up limit betting round as a list of nodes, the root first, every child after
    its parent. ``max_bets``: the bet and raises a round allows (1 + ``max_raises``)."""
    nodes: list[Node | None] = []

    def add(
        history: str, player: int | None, contributions: tuple[int, int], bets: int, folder=None
    ) -> int:
        index = len(nodes)
        nodes.append(None)
        if player is None:
            nodes[index] = Node(history, None, (), (), contributions, folder)
            return index
        other = 1 - player
        facing = contributions[player] < contributions[other]
        actions, children = [], []
        if facing:
            actions.append(FOLD)
            children.append(add(history + "f", None, contributions, bets, folder=player))
            called = _with(contributions, player, contributions[other])
            actions.append(CHECK_CALL)
            children.append(add(history + "c", None, called, bets))
        else:
            actions.append(CHECK_CALL)
            after_check = None if history.endswith("k") else other  # check, check: showdown
            children.append(add(history + "k", after_check, contributions, bets))
        if bets < max_bets:
            raised = _with(contributions, player, contributions[other] + bet)
            actions.append(BET_RAISE)
            children.append(add(history + "b", other, raised, bets + 1))
        nodes[index] = Node(history, player, tuple(actions), tuple(children), contributions)
        return index

    add("", 0, (ante, ante), 0)
    return nodes  # type: ignore[return-value]


def _with(contributions: tuple[int, int], player: int, value: int) -> tuple[int, int]:
    out = list(contributions)
    out[player] = value
    return out[0], out[1]


# ---------------------------------------------------------------------------------------------
# Sums over the opponent's hands, card removal exact


def _sorted_groups(keys: np.ndarray, hands: np.ndarray, strengths: np.ndarray) -> tuple:
    """Entries (a hand under a key: nothing, one of its cards, one of its pairs) sorted by key,
    then by the hand's strength. Returns the sorted entries' hands, where each sorted entry
    sits (by original entry), and per sorted entry the start and exclusive end of its group
    and of its run of equal strengths."""
    order = np.lexsort((strengths[hands], keys))
    keys, values = keys[order], strengths[hands[order]]
    size = len(keys)
    index = np.arange(size)
    new_group = np.r_[True, keys[1:] != keys[:-1]]
    new_tie = new_group | np.r_[True, values[1:] != values[:-1]]
    group_start = np.maximum.accumulate(np.where(new_group, index, 0))
    tie_start = np.maximum.accumulate(np.where(new_tie, index, 0))
    # Exclusive ends, found from the right.
    last_of_group = np.r_[new_group[1:], True]
    last_of_tie = np.r_[new_tie[1:], True]
    group_end = np.minimum.accumulate(np.where(last_of_group, index + 1, size)[::-1])[::-1]
    tie_end = np.minimum.accumulate(np.where(last_of_tie, index + 1, size)[::-1])[::-1]
    position = np.empty(size, dtype=np.int64)
    position[order] = index
    return hands[order], position, group_start, group_end, tie_start, tie_end


class _OpponentSums:
    """Sums of the opponent's reach over the hands that share no card with each hand: in all
    (a fold) and weaker minus stronger (a showdown), for many reach vectors at once.

    By inclusion-exclusion, a sum over the hands disjoint from ``h`` is the sum over all hands,
    minus the sums over the hands holding each card of ``h``, plus the sums over the hands
    holding each pair of its cards (the hand itself, holding all three, is added back by
    hand). Within each such group, hands sorted by strength make "weaker than ``h``" a prefix:
    every sum is a difference of entries of one cumulative sum over the groups laid end to
    end, so the sums for all hands are one sparse matrix product (a few dozen entries a hand).
    """

    def __init__(self, cards: np.ndarray, strengths: Sequence[np.ndarray]) -> None:
        from scipy import sparse

        num_hands = len(cards)
        owner = np.arange(num_hands)
        size = int(cards.max()) + 1
        layouts = [  # (keys, hands, sign)
            (np.zeros(num_hands, dtype=np.int64), owner, 1.0),
            (cards.reshape(-1), np.repeat(owner, 3), -1.0),
            (
                np.stack(
                    [
                        cards[:, 0] * size + cards[:, 1],
                        cards[:, 0] * size + cards[:, 2],
                        cards[:, 1] * size + cards[:, 2],
                    ],
                    axis=1,
                ).reshape(-1),
                np.repeat(owner, 3),
                1.0,
            ),
        ]
        gather, net_rows, net_cols, net_data, total_rows, total_cols, total_data = (
            [] for _ in range(7)
        )
        offset = 0
        weight = 1.0 / len(strengths)  # the demon: the mean of the two roles
        for role, values in enumerate(strengths):
            for keys, hands, sign in layouts:
                ordered, position, g0, g1, t0, t1 = _sorted_groups(keys, hands, values)
                gather.append(ordered)
                entry_hand = hands  # original entry -> hand
                at = position  # original entry -> sorted position
                for columns, factor in ((t0, 1), (t1, 1), (g0, -1), (g1, -1)):
                    net_rows.append(entry_hand)
                    net_cols.append(offset + columns[at])
                    net_data.append(np.full(len(at), sign * factor * weight))
                if role == 0:
                    for columns, factor in ((g1, 1), (g0, -1)):
                        total_rows.append(entry_hand)
                        total_cols.append(offset + columns[at])
                        total_data.append(np.full(len(at), sign * factor))
                offset += len(keys)
        self.gather = np.concatenate(gather)
        shape = (num_hands, offset + 1)

        def matrix(rows: list, cols: list, data: list) -> Any:
            return sparse.csr_matrix(
                (np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))), shape=shape
            )

        self.net_matrix = matrix(net_rows, net_cols, net_data)
        self.total_matrix = matrix(total_rows, total_cols, total_data)

    def _prefix(self, reach: np.ndarray) -> np.ndarray:
        """Exclusive cumulative sums (entries + 1, k) of reach (k, hands) in entry order.
        (Summed along rows of a (k, entries) array: numpy's cumsum is several times faster
        along the last axis.)"""
        out = np.empty((reach.shape[0], len(self.gather) + 1))
        out[:, 0] = 0.0
        np.cumsum(reach[:, self.gather], axis=1, out=out[:, 1:])
        return np.ascontiguousarray(out.T)

    def net(self, reach: np.ndarray) -> np.ndarray:
        """(k, hands): reach on disjoint hands each hand beats minus on those that beat it
        (equal strengths in neither)."""
        return (self.net_matrix @ self._prefix(reach)).T

    def total(self, reach: np.ndarray) -> np.ndarray:
        """(k, hands): reach on the hands sharing no card with each hand."""
        return (self.total_matrix @ self._prefix(reach)).T - reach


class OneRoundGame:
    """The one-round heads-up limit game of a :class:`LithConfig`: its hands, betting tree and
    exact terminal values. ``ValueError`` names what the config has that this game cannot
    solve."""

    def __init__(self, config: LithConfig) -> None:
        check_one_round(config)
        self.config = config
        deck = np.array(sorted(config.deck), dtype=np.int64)
        self.deck = deck
        self.hands = np.array(list(itertools.combinations(deck.tolist(), 3)), dtype=np.int64)
        num_hands = len(self.hands)
        self.num_hands = num_hands
        # Opponent hands sharing no card with a given hand: the same number for every hand.
        self.num_opponent_hands = math.comb(len(deck) - 3, 3)
        self.tree = betting_tree(config.ante, config.bet_sizes[0], 1 + config.max_raises)
        self.decisions = [i for i, node in enumerate(self.tree) if node.player is not None]
        self.showdowns = [i for i, node in enumerate(self.tree) if node.is_showdown]
        self.folds = [i for i, node in enumerate(self.tree) if node.folder is not None]

        local = np.searchsorted(deck, self.hands)  # card positions in the deck, (hands, 3)
        roles = ("imposter", "beggar") if config.excuse == "demon" else (config.excuse,)
        strengths = [
            strength(self.hands, pawns_and_courts=config.pawns_and_courts, excuse=role)
            for role in roles
        ]
        self._sums = _OpponentSums(local, strengths)

    def hand_index(self, cards: Sequence[int]) -> int:
        """The row of ``self.hands`` holding these three card ids."""
        key = np.sort(np.asarray(cards, dtype=np.int64))
        row = np.flatnonzero((self.hands == key).all(axis=1))
        if len(row) != 1:
            names = [CARDS[c].name for c in key.tolist()]
            raise ValueError(f"hand {names} is not a hand of this game's deck")
        return int(row[0])

    def showdown_net(self, reach: np.ndarray) -> np.ndarray:
        """Per hand (k, hands): the opponent's reach (k, hands) on hands this hand beats minus
        on hands that beat it, over the hands sharing no card with it (the demon: the mean
        over its two roles)."""
        return self._sums.net(reach)

    def disjoint_total(self, reach: np.ndarray) -> np.ndarray:
        """Per hand (k, hands): the opponent's reach summed over the hands sharing no card with
        it."""
        return self._sums.total(reach)

    def terminal_values(self, player: int, reach: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """Chips ``player`` wins at each terminal with each of its hands, times the opponent's
        reach (``reach[terminal]``, over the opponent's hands): summed over the deals."""
        out: dict[int, np.ndarray] = {}
        if self.showdowns:
            stacked = np.stack([reach[t] for t in self.showdowns])
            net = self.showdown_net(stacked)
            for row, t in enumerate(self.showdowns):
                out[t] = self.tree[t].contributions[player] * net[row]
        stacked = np.stack([reach[t] for t in self.folds])
        total = self.disjoint_total(stacked)
        for row, t in enumerate(self.folds):
            node = self.tree[t]
            if node.folder == player:
                out[t] = -node.contributions[player] * total[row]
            else:
                out[t] = node.contributions[1 - player] * total[row]
        return out

    def uniform_profile(self) -> list[np.ndarray]:
        """Every decision node's strategy (hands, actions), uniform over its actions."""
        return [self._uniform(node) for node in self.tree]

    def _uniform(self, node: Node) -> np.ndarray:
        width = max(len(node.actions), 1)
        return np.full((self.num_hands, width), 1.0 / width)

    # ------------------------------------------------------------------ evaluation

    def values(self, profile: Sequence[np.ndarray], player: int, best: bool = False) -> np.ndarray:
        """Per hand of ``player``, chips won summed over the opponent's hands when both play
        ``profile`` (or ``player`` best-responds, with ``best``). Divide the sum over hands by
        :attr:`num_deals` for chips a hand."""
        return self._walk(profile, player, best)[0]

    @property
    def num_deals(self) -> int:
        return self.num_hands * self.num_opponent_hands

    def best_response(
        self, profile: Sequence[np.ndarray], player: int
    ) -> tuple[float, list[np.ndarray]]:
        """The chips a hand ``player`` wins by a best response to the opponent's strategy in
        ``profile``, and that best response as a profile (one-hot rows at ``player``'s nodes,
        the opponent's strategy elsewhere)."""
        per_hand, choices = self._walk(profile, player, best=True)
        response = [np.array(s, copy=True) for s in profile]
        for index, choice in choices.items():
            response[index] = np.eye(len(self.tree[index].actions))[choice]
        return float(per_hand.sum() / self.num_deals), response

    def exploitability(self, profile: Sequence[np.ndarray]) -> tuple[float, float, float]:
        """(best response in position 0, in position 1, their mean): chips a hand."""
        first = self.best_response(profile, 0)[0]
        second = self.best_response(profile, 1)[0]
        return first, second, (first + second) / 2

    def game_value(self, profile: Sequence[np.ndarray]) -> float:
        """Chips a hand player 0 wins when both play ``profile``."""
        return float(self.values(profile, 0).sum() / self.num_deals)

    def _walk(
        self, profile: Sequence[np.ndarray], player: int, best: bool
    ) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        reach = self.opponent_reach(profile, player)
        leaf = self.terminal_values(player, reach)
        value: dict[int, np.ndarray] = {}
        choices: dict[int, np.ndarray] = {}
        for index in reversed(range(len(self.tree))):
            node = self.tree[index]
            if node.player is None:
                value[index] = leaf[index]
                continue
            children = np.stack([value[c] for c in node.children], axis=1)  # (hands, actions)
            if node.player != player:
                value[index] = children.sum(axis=1)
            elif best:
                choices[index] = np.argmax(children, axis=1)
                value[index] = children.max(axis=1)
            else:
                value[index] = (children * profile[index]).sum(axis=1)
        return value[0], choices

    def opponent_reach(self, profile: Sequence[np.ndarray], player: int) -> dict[int, np.ndarray]:
        """Per node (hands,): the probability that ``player``'s opponent, holding each hand,
        takes the actions that lead there."""
        reach = {0: np.ones(self.num_hands)}
        for index, node in enumerate(self.tree):
            for a, child in enumerate(node.children):
                if node.player == player:
                    reach[child] = reach[index]
                else:
                    reach[child] = reach[index] * profile[index][:, a]
        return reach


def check_solvable(config: LithConfig) -> None:
    """Raise ``ValueError`` naming the rule that puts ``config`` outside the solvers: the
    one-round game here, games with exchanges in ``lith_env.solve_exchanges``."""
    if getattr(config, "rounds", 3) == 1:
        check_one_round(config)
    else:
        from lith_env.solve_exchanges import check_exchange_solvable

        check_exchange_solvable(config)


def check_one_round(config: LithConfig) -> None:
    """Raise ``ValueError`` naming the rule that puts ``config`` outside the one-round game."""
    if config.num_players != 2:
        raise ValueError(f"num_players: the solver plays heads-up (2), got {config.num_players}")
    rounds = getattr(config, "rounds", 3)
    if rounds != 1:
        raise ValueError(f"rounds: this is the one-round game (rounds=1), got {rounds}")
    if config.betting != "limit":
        raise ValueError(f"betting: the solver plays limit betting, got {config.betting!r}")
    check_stacks(config)


def check_stacks(config: LithConfig) -> None:
    """Raise ``ValueError`` unless every stack covers the most a hand can cost (no all-in)."""
    rounds = getattr(config, "rounds", 3)
    bets = 1 + config.max_raises
    most = config.ante + bets * sum(config.bet_sizes[:rounds])
    if min(config.stacks) < most:
        raise ValueError(
            f"starting_chips: every stack must cover the most a hand can cost ({most} chips: "
            f"the ante and {bets} bets a round), got {config.starting_chips}"
        )


# ---------------------------------------------------------------------------------------------
# Discounted CFR


class Solver:
    """Discounted CFR (``alpha``, ``beta``, ``gamma``) with alternating updates on a
    :class:`OneRoundGame`. (Predictive CFR+ was tried on the one-round game: three times the
    exploitability of discounted CFR after 300 iterations.)"""

    def __init__(
        self, game: OneRoundGame, alpha: float = ALPHA, beta: float = BETA, gamma: float = GAMMA
    ) -> None:
        self.game = game
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        shapes = {i: (game.num_hands, len(game.tree[i].actions)) for i in game.decisions}
        self.regrets = {i: np.zeros(shape) for i, shape in shapes.items()}
        self.strategy_sums = {i: np.zeros(shape) for i, shape in shapes.items()}
        self.iterations = 0

    def state_dict(self) -> dict[str, np.ndarray]:
        """The iteration count and every node's regrets and strategy sums, by name: the
        solver's own arrays, which ``lith_env.solver_checkpoint`` saves and loads into."""
        state = {"iterations": np.array(self.iterations)}
        for index in self.game.decisions:
            state[f"regrets_{index}"] = self.regrets[index]
            state[f"sums_{index}"] = self.strategy_sums[index]
        return state

    def current_profile(self) -> list[np.ndarray]:
        """Regret matching: each node's strategy from its positive regrets."""
        out = self.game.uniform_profile()
        for index, regret in self.regrets.items():
            out[index] = regret_matching(regret)
        return out

    def average_profile(self) -> list[np.ndarray]:
        """The average strategy: what converges to an equilibrium."""
        out = self.game.uniform_profile()
        for index, sums in self.strategy_sums.items():
            out[index] = normalized(sums)
        return out

    def iterate(self, count: int = 1) -> None:
        """Run ``count`` iterations, each updating player 0 then player 1."""
        profile = self.current_profile()
        for _ in range(count):
            self.iterations += 1
            t = self.iterations
            for player in (0, 1):
                self._update(player, t, profile)

    def _update(self, player: int, t: int, profile: list[np.ndarray]) -> None:
        """Update ``player``'s regrets and sums against ``profile``, whose entries at the
        player's decisions then become its next strategy (in place)."""
        game = self.game
        reach = game.opponent_reach(profile, player)
        own = {0: np.ones(game.num_hands)}
        for index, node in enumerate(game.tree):
            for a, child in enumerate(node.children):
                mine = node.player == player
                own[child] = own[index] * profile[index][:, a] if mine else own[index]
        leaf = game.terminal_values(player, reach)
        value: dict[int, np.ndarray] = {}
        for index in reversed(range(len(game.tree))):
            node = game.tree[index]
            if node.player is None:
                value[index] = leaf[index]
                continue
            children = np.stack([value[c] for c in node.children])  # (actions, hands)
            if node.player != player:
                value[index] = children.sum(axis=0)
                continue
            value[index] = discounted_update(
                self.regrets[index],
                self.strategy_sums[index],
                children,
                profile[index],
                own[index],
                *dcfr_weights(t, self.alpha, self.beta, self.gamma),
            )


def normalized(weights: np.ndarray) -> np.ndarray:
    """``weights`` scaled to sum to 1 along the last axis (uniform where all are zero)."""
    total = weights.sum(axis=-1, keepdims=True)
    uniform = 1.0 / weights.shape[-1]
    return np.where(total > 0, weights / np.where(total > 0, total, 1.0), uniform)


def dcfr_weights(t: int, alpha: float, beta: float, gamma: float) -> tuple[float, float, float]:
    """Discounted CFR's factors at iteration ``t``: on positive regrets t^a / (t^a + 1), on
    negative ones t^b / (t^b + 1), and the weight t^g of this iteration's strategy in the sums.

    Discounted CFR scales the sums by (t / (t + 1))^g after adding iteration t; that leaves
    them (t + 1)^-g times the t^g-weighted sums, which normalize to the same average. Weighting
    instead of scaling leaves the sums of unreached rows untouched, so updates can skip them."""
    t_alpha, t_beta = t**alpha, t**beta
    return t_alpha / (t_alpha + 1), t_beta / (t_beta + 1), float(t) ** gamma


def path_to(tree: Sequence[Node], index: int) -> list[int]:
    """The action ids that lead from the root of a betting tree to node ``index``."""
    by_history = {node.history: i for i, node in enumerate(tree)}
    history = tree[index].history
    out = []
    for depth in range(len(history)):
        parent = tree[by_history[history[:depth]]]
        out.append(parent.actions[parent.children.index(by_history[history[: depth + 1]])])
    return out


# ---------------------------------------------------------------------------------------------
# Saving and loading


def save_solution(
    out: Path, game: OneRoundGame, profile: Sequence[np.ndarray], info: dict[str, Any]
) -> None:
    """Write ``strategy.npz`` (the hands and each decision node's strategy) and
    ``solution.json`` (the rules, the tree, ``info``) to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = {"format": "lith-solution-1", "config": rules_json(game.config)}
    if isinstance(game, OneRoundGame):
        arrays = {"hands": game.hands}
        for index in game.decisions:
            arrays[f"node_{game.tree[index].history or 'root'}"] = profile[index]
        record["nodes"] = [
            {
                "history": game.tree[i].history,
                "player": game.tree[i].player,
                "actions": list(game.tree[i].actions),
            }
            for i in game.decisions
        ]
    else:  # an ExchangeGame: one array per decision point, its states in its build's order
        arrays = {_point_name(key): value for key, value in profile.items()}  # type: ignore[union-attr]
        record["build"] = game.method
    np.savez_compressed(out / "strategy.npz", **arrays)
    record.update(info)
    (out / "solution.json").write_text(json.dumps(record, indent=2) + "\n")


def load_solution(directory: str | Path) -> tuple[OneRoundGame, list[np.ndarray], dict]:
    """The game, the saved profile (every node; uniform at terminals) and ``solution.json`` of
    a solver output folder. A missing or corrupt file is a ``ValueError`` naming it."""
    directory = Path(directory)
    record_path, strategy_path = directory / "solution.json", directory / "strategy.npz"
    for path in (record_path, strategy_path):
        if not path.is_file():
            raise ValueError(f"solved: no {path.name} in {str(directory)!r} (run lith_env.solve)")
    try:
        record = json.loads(record_path.read_text())
        if record.get("format") != "lith-solution-1":
            raise ValueError("not a lith-solution-1 record")
        config = LithConfig(**record["config"])
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(f"solved: {str(record_path)!r} is not a solver record: {error}") from None
    if config.rounds > 1:
        return _load_exchange(config, strategy_path, record)
    game = OneRoundGame(config)
    try:
        with np.load(strategy_path) as arrays:
            if not np.array_equal(arrays["hands"], game.hands):
                raise ValueError("its hands are not the hands of its rules")
            profile = game.uniform_profile()
            for index in game.decisions:
                key = f"node_{game.tree[index].history or 'root'}"
                strategy = np.asarray(arrays[key], dtype=np.float64)
                if strategy.shape != profile[index].shape or not np.all(strategy >= 0):
                    raise ValueError(f"{key} has shape {strategy.shape} or negative entries")
                if not np.allclose(strategy.sum(axis=1), 1.0):
                    raise ValueError(f"{key} rows do not sum to 1")
                profile[index] = strategy
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"solved: {str(strategy_path)!r} is corrupt: {error}") from None
    return game, profile, record


def _point_name(key: tuple) -> str:
    """The npz name of an exchange-game decision point ``(round, stage, node)``."""
    return "r{}_s{}_{}".format(*key)


def _load_exchange(config: LithConfig, path: Path, record: dict) -> tuple[Any, dict, dict]:
    from lith_env.solve_exchanges import (
        BUILDS,
        JOINT_LIMIT,
        ExchangeGame,
        ExchangeSolver,
        auto_build,
    )

    # Each build orders the states its own way, so the strategy is read in the build that saved
    # it; a record from before the build was recorded was saved by the rule of its day.
    build = record.get("build") or auto_build(config, JOINT_LIMIT)
    if build not in BUILDS:
        record_path = str(path.parent / "solution.json")
        raise ValueError(f"solved: {record_path!r} is not a solver record: build {build!r}")
    game = ExchangeGame(config, method=build)
    shapes = ExchangeSolver.shapes(game)
    strategy = {}
    try:
        with np.load(path) as arrays:
            for key, shape in shapes.items():
                name = _point_name(key)
                values = np.asarray(arrays[name], dtype=np.float64)
                if values.shape != shape or not np.all(values >= 0):
                    raise ValueError(f"{name} has shape {values.shape} or negative entries")
                if not np.allclose(values.sum(axis=-1), 1.0):
                    raise ValueError(f"{name} rows do not sum to 1")
                strategy[key] = values
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"solved: {str(path)!r} is corrupt: {error}") from None
    return game, strategy, record


# ---------------------------------------------------------------------------------------------
# Command line


def solve(
    config: LithConfig,
    iterations: int,
    target: float | None = None,
    check_every: int = 50,
    progress: bool = False,
    checkpoint: Path | None = None,
    resume: bool = False,
) -> tuple[OneRoundGame, list[np.ndarray], dict[str, Any]]:
    """Run discounted CFR to ``iterations`` in all (or until the average strategy's
    exploitability is below ``target`` chips a hand), measuring it every ``check_every``
    iterations. Returns the game, the average profile and the curve.

    With ``checkpoint`` (a file path) the solver's state is saved there at every measurement
    (``lith_env.solver_checkpoint``); with ``resume`` too, the solve first goes on from it:
    the same rules, its iterations and curve counting towards these."""
    if config.rounds > 1:
        from lith_env.solve_exchanges import BUILDS, ExchangeGame, ExchangeSolver

        method = "auto"
        if resume and checkpoint is not None and checkpoint.is_file():
            # Go on in the build the checkpoint was saved from, should the faster one differ.
            saved = read_checkpoint_record(checkpoint)["build"]
            method = saved if saved in BUILDS else "auto"
        game: Any = ExchangeGame(config, method=method)
        solver: Any = ExchangeSolver(game)
        build = game.method
    else:
        game = OneRoundGame(config)
        solver = Solver(game)
        build = "one round"
    curve: list[dict[str, float]] = []
    before = 0.0  # seconds spent before this call, in the solve it continues
    if resume:
        if checkpoint is None:
            raise ValueError("resume: needs the checkpoint to go on from")
        curve, before = load_checkpoint(checkpoint, solver, config, build)
    start = time.perf_counter()
    reached = bool(curve) and target is not None and curve[-1]["exploitability"] < target
    bar = None
    if progress:
        from rich.progress import Progress

        bar = Progress()
        bar.start()
        job = bar.add_task("discounted CFR", total=iterations, completed=solver.iterations)
    try:
        while solver.iterations < iterations and not reached:
            step = min(check_every, iterations - solver.iterations)
            solver.iterate(step)
            profile = solver.average_profile()
            first, second, exploitability = game.exploitability(profile)
            curve.append(
                {
                    "iteration": solver.iterations,
                    "seconds": before + time.perf_counter() - start,
                    "exploitability": exploitability,
                    "best_response_0": first,
                    "best_response_1": second,
                }
            )
            if checkpoint is not None:
                save_checkpoint(checkpoint, solver, config, build, curve, curve[-1]["seconds"])
            if bar is not None:
                bar.update(job, completed=solver.iterations)
                bar.update(job, description=f"discounted CFR, exploitability {exploitability:.2e}")
            reached = target is not None and exploitability < target
    finally:
        if bar is not None:
            bar.stop()
    profile = solver.average_profile()
    info = {
        "iterations": solver.iterations,
        "seconds": before + time.perf_counter() - start,
        "exploitability": curve[-1]["exploitability"],
        "game_value": game.game_value(profile),
        "hands": game.num_hands,
        "curve": curve,
    }
    return game, profile, info


def _plot_curve(curve: list[dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog([c["iteration"] for c in curve], [max(c["exploitability"], 1e-12) for c in curve])
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability (chips a hand)")
    ax.set_title("Discounted CFR on heads-up Lith")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _print_exchanges(rows: list[dict[str, Any]]) -> None:
    """The equilibrium's exchanges (``discard_report``) as a terminal table."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="How the equilibrium exchanges (when it plays itself)")
    columns = ["exchange", "stage", "decision", "reached", "discards", "weak third"]
    columns += ["middle third", "strong third", "gives lowest", "gives middle", "gives highest"]
    for column in columns:
        table.add_column(column, justify="left" if column in ("stage", "decision") else "right")
    for row in rows:
        table.add_row(
            *(f"{row[c]:.2f}" if isinstance(row[c], float) else str(row[c]) for c in columns)
        )
    Console().print(table)


def _positive(text: str) -> int:
    from agents.tournament import int_at_least

    return int_at_least(1)(text)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0 or not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lith_env.solve``: solve a one-round heads-up limit game, save it."""
    parser = argparse.ArgumentParser(
        prog="python -m lith_env.solve",
        description=(
            "Solve heads-up limit Lith by discounted CFR, exactly (no abstraction, no "
            "sampling): one betting round (--rule rounds=1) on any deck, or games with "
            "exchanges (rounds=2 or 3) on small decks (--rule cards=...). Saves strategy.npz, "
            "solution.json (rules, curve, game value) and exploitability.png in --out; play "
            "the strategy as the agent solved:OUT."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a Lith rule (repeatable): rounds=1 (the default here when --rule rounds is not "
        "given), or rounds=2/3 with a small deck (--rule cards=0,1,2,...)",
    )
    parser.add_argument("--iterations", type=_positive, default=2000, help="most iterations")
    parser.add_argument(
        "--target",
        type=_positive_float,
        default=None,
        help="stop once the exploitability is below this many chips a hand",
    )
    parser.add_argument(
        "--check-every", type=_positive, default=50, help="iterations between measurements"
    )
    parser.add_argument(
        "--vary",
        action="append",
        metavar="KEY=VALUE",
        help="solve once per --vary (repeatable), each the --rule set plus this rule, in "
        "OUT/KEY=VALUE, and compare them in a table and OUT/solves.json, e.g. --vary "
        "excuse=none --vary excuse=imposter",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="with --vary: solve the configurations at once as Ray tasks, a CPU each, on the "
        "cluster at ADDRESS (auto, HOST:PORT, ray://HOST:PORT) or a local Ray without one "
        "(docs/scale.md); default: one after another here",
    )
    parser.add_argument(
        "--checkpoint",
        action="store_true",
        help="keep the solver's state in OUT/checkpoint.npz, rewritten at every measurement, so "
        "that a solve stopped on the way can go on with --resume (16 bytes a strategy entry: "
        "3.7 GB for three rounds on nine cards)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from OUT/checkpoint.npz, with the same rules (--iterations counts from the "
        "start of the solve); keeps checkpointing",
    )
    parser.add_argument("--out", required=True, help="output folder")
    args = parser.parse_args(argv)

    from agents.rules import game_config, parse_rules
    from agents.tournament import output_folder

    try:
        given = parse_rules(args.rule, "lith")
        base = {"rounds": 1, **given}
        jobs = []
        for text in args.vary or [None]:
            rules = dict(base)
            folder = Path(args.out)
            if text is not None:
                try:
                    varied = parse_rules([text], "lith")
                except ValueError as error:  # its message names --rule: this is --vary
                    raise ValueError(str(error).replace("--rule", "--vary", 1)) from None
                if set(varied) & set(given):
                    raise ValueError(f"--vary {text}: that rule is also set by --rule")
                rules.update(varied)
                folder = folder / re.sub(r"[^A-Za-z0-9_.=,-]+", "_", text.strip())
            config = game_config("lith", 2, rules)
            check_solvable(config)
            jobs.append((text, rules, str(folder)))
        if args.vary and len({j[2] for j in jobs}) < len(jobs):
            raise ValueError("--vary: a configuration is given twice")
        if args.ray is not None and not args.vary:
            raise ValueError("--ray: only with --vary (its configurations are the tasks)")
        if args.ray is not None and (args.checkpoint or args.resume):
            flag = "--resume" if args.resume else "--checkpoint"
            raise ValueError(
                f"{flag}: not with --ray (a Ray task solves in a scratch folder of its worker; "
                "checkpoint the configurations here instead)"
            )
        if args.resume:
            from lith_env.solver_checkpoint import (
                CHECKPOINT_FILE,
                check_resumable,
                read_checkpoint_record,
            )

            resumed = []
            for _, rules, folder in jobs:
                try:
                    record = read_checkpoint_record(Path(folder) / CHECKPOINT_FILE)
                    check_resumable(record, game_config("lith", 2, rules), args.iterations)
                except ValueError as error:
                    raise ValueError(f"--resume: {error}") from None
                resumed.append((folder, record))
            for folder, record in resumed:
                curve = record["curve"]
                last = f", exploitability {curve[-1]['exploitability']:.6f}" if curve else ""
                print(
                    f"going on from {folder}/{CHECKPOINT_FILE}: {record['iterations']:,} "
                    f"iterations, {record['seconds']:.1f} s{last}"
                )
        if args.ray is not None:
            from distributed.cluster import ClusterError, parse_address

            try:
                address = parse_address(args.ray)
            except ClusterError as error:
                raise ValueError(f"--ray: {error}") from None
        for _, _, folder in jobs:
            output_folder(folder)
        settings = (args.iterations, args.target, args.check_every)
        if args.ray is not None:
            from distributed.solves import solve_on_ray

            try:
                infos = solve_on_ray(
                    [(rules, folder) for _, rules, folder in jobs], settings, address
                )
            except ClusterError as error:
                raise ValueError(f"--ray: {error}") from None
        else:
            infos = [
                solve_to_folder(
                    rules,
                    *settings,
                    folder,
                    progress=sys.stderr.isatty(),
                    checkpoint=args.checkpoint,
                    resume=args.resume,
                )
                for _, rules, folder in jobs
            ]
    except ValueError as error:
        parser.error(str(error))
    if not args.vary:
        (info,) = infos
        if "exchanges" in info:
            _print_exchanges(info["exchanges"])
        out = jobs[0][2]
        print(
            f"{info['hands']:,} hands a player, {info['iterations']:,} iterations in "
            f"{info['seconds']:.1f} s; first player's value {info['game_value']:+.4f} chips a hand"
        )
        print(f"saved to {out}/ (play it as solved:{out})")
        print(f"exploitability: {info['exploitability']:.6f} chips/hand")
        return 0
    _print_solves(jobs, infos, Path(args.out))
    return 0


def solve_to_folder(
    rules: dict[str, Any],
    iterations: int,
    target: float | None,
    check_every: int,
    out: str,
    progress: bool = False,
    checkpoint: bool = False,
    resume: bool = False,
) -> dict[str, Any]:
    """Solve the heads-up game of ``rules`` and save it in ``out`` (strategy, solution.json,
    the curve's plot); what ``solution.json`` records of the run, with ``hands``. With
    ``checkpoint`` the solver's state is kept in ``out/checkpoint.npz``; with ``resume`` the
    solve goes on from it."""
    from agents.rules import game_config
    from lith_env.solver_checkpoint import CHECKPOINT_FILE

    config = game_config("lith", 2, rules)
    state = Path(out) / CHECKPOINT_FILE if checkpoint or resume else None
    game, profile, info = solve(
        config, iterations, target, check_every, progress, checkpoint=state, resume=resume
    )
    if config.rounds > 1:
        from lith_env.solve_exchanges import discard_report

        info["exchanges"] = discard_report(game, profile)
    out_path = Path(out)
    out_path.mkdir(parents=True, exist_ok=True)
    save_solution(out_path, game, profile, info)
    _plot_curve(info["curve"], out_path / "exploitability.png")
    return {**info, "hands": game.num_hands}


def _print_solves(jobs: list, infos: list[dict[str, Any]], out: Path) -> None:
    """The table comparing the configurations of --vary, also saved as OUT/solves.json."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="solved configurations")
    for column in ("vary", "hands", "iterations", "seconds", "first player", "exploitability"):
        table.add_column(column, justify="left" if column == "vary" else "right")
    rows = []
    for (text, rules, folder), info in zip(jobs, infos, strict=True):
        table.add_row(
            text,
            f"{info['hands']:,}",
            f"{info['iterations']:,}",
            f"{info['seconds']:.1f}",
            f"{info['game_value']:+.4f}",
            f"{info['exploitability']:.6f}",
        )
        rows.append({"vary": text, "rules": rules, "out": folder, **{
            k: info[k] for k in ("hands", "iterations", "seconds", "game_value", "exploitability")
        }})  # fmt: skip
    Console().print(table)
    (out / "solves.json").write_text(json.dumps(rows, indent=2))
    print(f"saved to {out}/KEY=VALUE/ (play each as solved:DIR); the table in {out}/solves.json")


if __name__ == "__main__":
    raise SystemExit(main())
