"""Information-set Monte Carlo tree search, for any game given a small adapter.

Multiple-observer ISMCTS (Cowling, Powley & Whitehouse 2012), as OpenSpiel's ``ISMCTSBot``
with ``use_observation_string``: every iteration deals a world consistent with what the
searching seat sees, then descends a tree whose nodes are information states, each keyed by
what the seat *to act* sees in that world. Its own later decisions and the other seats'
decisions are searched at their own information states, so nothing an acting seat could not
know steers its choice. A child's exploration term counts the times it was available, not the
parent's visits (the availability correction: a world may deal different legal actions).

A node reached for the first time is created and the rest of the game is played out by the
adapter's rollout policy; the returns are backed up along the path, each node taking the
return of the seat acting there (the max^n rule). ``tree="flat"`` keeps only the root's
statistics: flat Monte Carlo over sampled worlds (determinized rollouts), the baseline a tree
must beat.

The game enters only through :class:`SearchRules`; the search is plain Python and numpy-free.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "FINAL_POLICIES",
    "SELECTIONS",
    "TREES",
    "SearchRules",
    "SearchSettings",
    "SpielRules",
    "draw",
    "final_policy",
    "search",
]

FINAL_POLICIES = ("max_visits", "visits", "max_value")
TREES = ("ismcts", "flat")
SELECTIONS = ("uct", "puct")


class SearchRules(Protocol):
    """What the search needs of a game: a state is mutable and owned by the search."""

    def to_act(self, state: Any) -> int | None:
        """The seat to act, ``None`` once the game is over."""

    def legal(self, state: Any) -> Sequence[Hashable]:
        """The legal actions, in a fixed order (ties and random picks follow it)."""

    def apply(self, state: Any, action: Hashable) -> None: ...

    def key(self, state: Any, seat: int) -> Hashable:
        """The information state of ``seat`` (everything it sees, nothing it does not)."""

    def rollout(self, state: Any, rng: random.Random) -> Sequence[float]:
        """Play the game out from ``state`` and give every seat's return."""

    def prior(self, state: Any, seat: int, legal: Sequence[Hashable]) -> Sequence[float]:
        """The acting seat's prior probability of each legal action (a policy network's,
        say); asked only with ``select="puct"``."""


@dataclass(frozen=True)
class SearchSettings:
    """A search's budget and choices. ``ms`` (a wall-clock budget a move) overrides
    ``iterations`` and is not reproducible: a busy machine searches less. ``select``: UCT
    (untried actions first, then ``q + c sqrt(ln available / visits)``) or PUCT (AlphaZero's
    ``q + c prior sqrt(available) / (1 + visits)``, an unvisited action valued at its node's
    mean return so far; the rules give the priors)."""

    iterations: int = 200
    ms: float | None = None
    c: float = 0.7
    final: str = "max_visits"
    tree: str = "ismcts"
    select: str = "uct"

    def __post_init__(self) -> None:
        if type(self.iterations) is not int or self.iterations < 1:
            raise ValueError(f"iterations: must be a positive integer, got {self.iterations!r}")
        if self.ms is not None and (
            isinstance(self.ms, bool)
            or not isinstance(self.ms, int | float)
            or not math.isfinite(self.ms)
            or self.ms <= 0
        ):
            raise ValueError(f"ms: must be a positive number of milliseconds, got {self.ms!r}")
        if isinstance(self.c, bool) or not isinstance(self.c, int | float) or not self.c >= 0:
            raise ValueError(f"c: must be a number >= 0, got {self.c!r}")
        if self.final not in FINAL_POLICIES:
            options = ", ".join(FINAL_POLICIES)
            raise ValueError(f"final: must be one of {options}; got {self.final!r}")
        if self.tree not in TREES:
            raise ValueError(f"tree: must be one of {', '.join(TREES)}; got {self.tree!r}")
        if self.select not in SELECTIONS:
            options = ", ".join(SELECTIONS)
            raise ValueError(f"select: must be one of {options}; got {self.select!r}")


# A node maps each action seen there to its statistics
# [visits, total return, times available, prior (PUCT only)].
Node = dict


def search(
    rules: SearchRules,
    sample_world: Callable[[random.Random], Any],
    settings: SearchSettings,
    rng: random.Random,
) -> dict[Hashable, list[float]]:
    """Search from the information state ``sample_world`` deals worlds of; the root's
    statistics, ``{action: [visits, total return, times available, prior]}``."""
    nodes: dict[Hashable, Node] = {}
    deadline = None if settings.ms is None else time.perf_counter() + settings.ms / 1000
    flat = settings.tree == "flat"
    c = settings.c
    root: Node | None = None
    done = 0
    while True:
        if deadline is None:
            if done >= settings.iterations:
                break
        elif done and time.perf_counter() >= deadline:
            break
        done += 1
        state = sample_world(rng)
        path: list[tuple[list[float], int]] = []
        returns = None
        while True:
            seat = rules.to_act(state)
            if seat is None:
                break
            legal = rules.legal(state)
            if len(legal) == 1:  # a forced move needs no node
                rules.apply(state, legal[0])
                continue
            if flat and root is not None and path:
                break
            key = rules.key(state, seat)
            node = nodes.get(key)
            if node is None:
                node = nodes[key] = {}
                if root is None:
                    root = node
                elif not flat:
                    break  # a new leaf: the rollout plays from here
            if settings.select == "puct":
                action, stats = _select_puct(node, legal, c, rules, state, seat)
            else:
                action, stats = _select(node, legal, c, rng)
            path.append((stats, seat))
            rules.apply(state, action)
        returns = rules.rollout(state, rng)
        for stats, seat in path:
            stats[0] += 1
            stats[1] += returns[seat]
    return {} if root is None else root


def _select(
    node: Node, legal: Sequence[Hashable], c: float, rng: random.Random
) -> tuple[Hashable, list[float]]:
    """An untried legal action at random, else the one with the best upper bound (ties at
    random); every legal action here counts one more availability."""
    untried = []
    for action in legal:
        stats = node.get(action)
        if stats is None:
            stats = node[action] = [0, 0.0, 0, 0.0]
        stats[2] += 1
        if stats[0] == 0:
            untried.append(action)
    if untried:
        action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
        return action, node[action]
    best, best_score = [], -math.inf
    for action in legal:
        visits, total, available, _ = node[action]
        score = total / visits + c * math.sqrt(math.log(available) / visits)
        if score > best_score + 1e-12:
            best, best_score = [action], score
        elif score >= best_score - 1e-12:
            best.append(action)
    action = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
    return action, node[action]


def _select_puct(
    node: Node, legal: Sequence[Hashable], c: float, rules: Any, state: Any, seat: int
) -> tuple[Hashable, list[float]]:
    """The action with the best PUCT score (the first of equals, in ``legal``'s order);
    priors are asked of the rules once, when the node first meets an action."""
    if any(action not in node for action in legal):
        priors = rules.prior(state, seat, legal)
        for action, prior in zip(legal, priors, strict=True):
            if action not in node:
                node[action] = [0, 0.0, 0, float(prior)]
    visits = total = 0.0
    for action in legal:
        stats = node[action]
        stats[2] += 1
        visits += stats[0]
        total += stats[1]
    unvisited = total / visits if visits else 0.0
    best, best_score = legal[0], -math.inf
    for action in legal:
        n, w, available, prior = node[action]
        score = (w / n if n else unvisited) + c * prior * math.sqrt(available) / (1 + n)
        if score > best_score:
            best, best_score = action, score
    return best, node[best]


def draw(weights: Any, rng: random.Random) -> int:
    """An index drawn in proportion to ``weights`` (a numpy array) by ``rng``."""
    point, total = rng.random() * float(weights.sum()), 0.0
    for i, w in enumerate(weights):
        total += float(w)
        if point < total:
            return i
    return len(weights) - 1


def final_policy(
    root: dict[Hashable, list[float]], final: str, legal: Sequence[Hashable]
) -> dict[Hashable, float]:
    """The probability of each legal action after a search: all on the most visited
    (``max_visits``) or best valued (``max_value``) actions, ties shared; or in proportion
    to the visits (``visits``, the target expert iteration learns)."""
    visits = [root[a][0] if a in root else 0 for a in legal]
    if final == "visits" and sum(visits):
        return {a: v / sum(visits) for a, v in zip(legal, visits, strict=True)}
    if final == "max_value":
        score = [root[a][1] / root[a][0] if a in root and root[a][0] else -math.inf for a in legal]
    else:
        score = visits
    top = max(score)
    best = [a for a, s in zip(legal, score, strict=True) if s == top]
    return {a: (1 / len(best) if a in best else 0.0) for a in legal}


class SpielRules:
    """An OpenSpiel game's states (``pyspiel.State``) as :class:`SearchRules`: nodes keyed by
    the acting player's information state string, chance outcomes drawn from ``seed``'s
    generator, rollouts with uniform random actions. :meth:`sample_world` deals the worlds of
    a player's information state (``resample_from_infostate``), as OpenSpiel's own ISMCTS
    bot does; so the two searches can be compared on the same game."""

    def __init__(self, seed: int | None = None) -> None:
        self.chance = random.Random(seed)

    def to_act(self, state: Any) -> int | None:
        return None if state.is_terminal() else state.current_player()

    def legal(self, state: Any) -> list[int]:
        return state.legal_actions()

    def apply(self, state: Any, action: int) -> None:
        state.apply_action(action)
        self._resolve_chance(state, self.chance)

    def key(self, state: Any, seat: int) -> str:
        return state.information_state_string(seat)

    def rollout(self, state: Any, rng: random.Random) -> list[float]:
        while not state.is_terminal():
            if state.is_chance_node():
                self._resolve_chance(state, rng)
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        return state.returns()

    def sample_world(self, state: Any, rng: random.Random) -> Any:
        """A state the player to act at ``state`` cannot tell from it, dealt by ``rng``."""
        return state.resample_from_infostate(state.current_player(), rng.random)

    @staticmethod
    def _resolve_chance(state: Any, rng: random.Random) -> None:
        while state.is_chance_node():
            point, total = rng.random(), 0.0
            outcomes = state.chance_outcomes()
            chosen = outcomes[-1][0]  # rounding may leave the point past the last sum
            for outcome, probability in outcomes:
                total += probability
                if point < total:
                    chosen = outcome
                    break
            state.apply_action(chosen)
