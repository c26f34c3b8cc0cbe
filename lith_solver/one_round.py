"""Exact equilibria and best responses of heads-up limit Lith with one betting round.

The game: two players ante, each is dealt three cards from the deck in play (``cards``,
``pawns_and_courts``, ``excuse``), one limit betting round (at most one bet and
``max_raises`` raises of ``bet_sizes[0]``), then the showdown. The first player to act is
the one left of the dealer; positions, not seats, name the players here: player 0 acts first,
player 1 is the dealer.

The solver is discounted CFR (Brown & Sandholm 2019; alpha 1.5, beta 0, gamma 2) on the public
betting tree, every quantity a numpy vector over the private hands of one player (the regret
update compiled, ``lith_solver.kernels``): no abstraction and no sampling. Card removal is
exact. A terminal's value for each hand of one player needs the opponent's reach summed over
the hands that share no card with it (a fold) and split into weaker and stronger hands (a
showdown); inclusion-exclusion over the hands that share one card or two cards with it turns
both into prefix sums over hands sorted by strength, O(hands) per terminal instead of the
O(hands²) of a dense win/lose matrix.

Games with exchanges (``rounds=2`` and ``3`` on small decks) are solved by
``lith_solver.exchanges``; ``lith_solver.solving`` runs either to a target and saves it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lith_env.cards import CARDS
from lith_env.game import LithConfig
from lith_env.hands import strength
from lith_solver.kernels import discounted_update, regret_matching

__all__ = [
    "ALPHA",
    "BETA",
    "GAMMA",
    "Node",
    "OneRoundGame",
    "Solver",
    "betting_tree",
    "check_one_round",
    "check_stacks",
    "dcfr_weights",
    "normalized",
    "path_to",
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

    def values(
        self,
        profile: Sequence[np.ndarray],
        player: int,
        best: bool = False,
        bucket: np.ndarray | None = None,
    ) -> np.ndarray:
        """Per hand of ``player``, chips won summed over the opponent's hands when both play
        ``profile`` (or ``player`` best-responds, with ``best``; with ``bucket``, each hand's
        bucket, a best response that chooses per bucket: it sees only the bucket). Divide the
        sum over hands by :attr:`num_deals` for chips a hand."""
        return self._walk(profile, player, best, bucket)[0]

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
        self,
        profile: Sequence[np.ndarray],
        player: int,
        best: bool,
        bucket: np.ndarray | None = None,
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
            elif best and bucket is not None:
                count = int(bucket.max()) + 1
                per_bucket = np.stack(
                    [np.bincount(bucket, column, minlength=count) for column in children.T], axis=1
                )
                choices[index] = np.argmax(per_bucket, axis=1)[bucket]
                value[index] = children[np.arange(len(children)), choices[index]]
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
        solver's own arrays, which ``lith_solver.checkpoint`` saves and loads into."""
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
