"""``ismcts``: a Lith seat that searches (:mod:`agents.ismcts`) before every decision.

It reads its observation back into the table it shows
(:func:`lith_env.worlds.view_from_observation`), deals worlds with the cards it has not seen
placed at random but consistently with what it saw in the exchanges
(:func:`lith_env.worlds.sample_world`), and searches them. Rollouts play on the engine's state
with a cheap policy (``policy``): the engine costs a few microseconds a move.

A node is an information state abstracted: the acting seat, its hand's strength bucket (one
of ``buckets`` equal slices of the percentile; ``buckets=0``: its exact cards) and the public
actions since the search's root (a discard without its card). Exact cards would leave every
opponent node visited about once, at whatever hand the world dealt, so the other seats would
play at random in the tree; buckets pool their hands, so they learn to bet their strong
hands. Returns are chips won, over the most a seat can lose in the hand.

By default (``belief="tag"``) worlds are weighed by how likely the other seats' betting is
under a soft model of ``tag`` (:func:`betting_likelihood`): a seat that bets is believed to
hold something. A model can be wrong, and like every search over sampled worlds in a betting
game the agent can be exploited: measure it (``docs/search.md``).

Each search is seeded by the agent's ``seed`` and the observation, so the same observation
gets the same search (a fixed strategy, which the exact measures need); ``act`` then draws
from the search's policy with the agent's own generator. The same observation is not searched
twice: a seeded agent with an iteration budget keeps the policies it found (up to
``CACHE_SIZE``), which makes the exact measures and long best-response training affordable.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import zlib
from typing import Any

import numpy as np

from agents.ismcts import SearchSettings, draw, final_policy, search
from agents.lith_heuristics import TAG_BET, TAG_CALL, TAG_RAISE
from lith_env.encoding import action_from_id, features_table, keep_id, legal_mask, num_actions
from lith_env.exchange import role_percentile
from lith_env.game import BETTING_STATS, LithConfig, LithHand, PlayerView
from lith_env.hands import hand_index
from lith_env.worlds import sample_deal, view_from_observation, world_of
from tablegame.agent import legal_ids
from tablegame.registry import register

__all__ = [
    "BELIEFS",
    "POLICIES",
    "ISMCTSAgent",
    "LithSearchRules",
    "SearchState",
    "believed_world",
    "betting_likelihood",
    "most_at_risk",
]

POLICIES = ("random", "caller", "tag")
BELIEFS = ("uniform", "tag")
FOLD, CHECK_CALL, FIRST_RAISE = 0, 1, 2


@functools.cache
def percentiles(config: LithConfig) -> list[float]:
    """Every hand's strength percentile (the two demon roles averaged) by combinatorial index."""
    return features_table(config.pawns_and_courts, config.excuse)[:, -1].tolist()


@functools.cache
def best_discards(config: LithConfig) -> dict[int, int]:
    """For every hand of the table's deck, by combinatorial index: the position (0-2, cards
    sorted) of the card whose discard most raises the expected percentile over the other
    cards of the deck, or -1 to keep (``lith_env.exchange.best_discard``, tabulated so that
    rollouts can afford it)."""
    deck = np.array(config.deck)
    hands = np.array(list(itertools.combinations(sorted(config.deck), 3)))
    others = ~(deck[None, :, None] == hands[:, None, :]).any(axis=2)  # (h, deck)
    pool = np.broadcast_to(deck, others.shape)[others].reshape(len(hands), -1)
    values = np.empty((len(hands), 3))
    for i in range(3):
        kept = np.delete(hands, i, axis=1)
        trial = np.empty((len(hands), pool.shape[1], 3), dtype=np.int64)
        trial[:, :, :2] = kept[:, None, :]
        trial[:, :, 2] = pool
        values[:, i] = role_percentile(trial, config.pawns_and_courts, config.excuse).mean(axis=1)
    now = role_percentile(hands, config.pawns_and_courts, config.excuse)
    best = np.argmax(values, axis=1)
    choice = np.where(values[np.arange(len(hands)), best] > now, best, -1)
    return {hand_index(h): int(c) for h, c in zip(hands.tolist(), choice.tolist(), strict=True)}


def most_at_risk(view: PlayerView, config: LithConfig) -> int:
    """The most chips a seat can lose in this hand: its whole stack, or in limit at most the
    ante and every bet and raise of the rounds left (the search's unit of return)."""
    start = max(s + c for s, c in zip(view.stacks, view.committed, strict=True))
    if config.betting != "limit":
        return max(1, start)
    cap = config.ante + sum(config.bet_sizes[: config.rounds]) * (1 + config.max_raises)
    return max(1, min(start, cap))


# The betting model that weighs worlds (belief="tag"): a seat bets or raises with probability
# MODEL_FLOOR + (1 - 2 MODEL_FLOOR) sigmoid((strength - tag's bet threshold) / MODEL_WIDTH), and
# calls rather than folds likewise around tag's call threshold.
MODEL_FLOOR, MODEL_WIDTH, MAX_TRIES = 0.1, 0.08, 64
CACHE_SIZE = 200_000  # policies a seeded agent keeps, by observation and mask


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def betting_likelihood(view: PlayerView, by_round: list, config: LithConfig) -> float:
    """How likely the other seats' betting so far is under the model (``MODEL_FLOOR``) given
    the cards a world deals them, over its largest possible value: a probability to accept
    the world with. Only the betting summary's counts are read (checks, calls, bets and
    raises per round and seat), each as a draw from the model at the seat's hand then."""
    n, width = view.num_players, len(BETTING_STATS)
    table = percentiles(config)
    opponents = max(1, sum(1 for f in view.folded if not f) - 1)
    betting, ratio = view.betting, 1.0
    top = 1.0 - MODEL_FLOOR
    for r, hands in enumerate(by_round[: view.round + 1]):
        for seat in range(1, n):
            at = (r * n + seat) * width
            checks, calls, raises = betting[at], betting[at + 1], betting[at + 2]
            if not (checks or calls or raises) or not hands[seat]:
                continue
            strength = table[hand_index(hands[seat])] ** opponents
            aggressive = MODEL_FLOOR + (1 - 2 * MODEL_FLOOR) * _sigmoid(
                (strength - TAG_BET[r]) / MODEL_WIDTH
            )
            calling = MODEL_FLOOR + (1 - 2 * MODEL_FLOOR) * _sigmoid(
                (strength - TAG_CALL[r]) / MODEL_WIDTH
            )
            ratio *= (aggressive / top) ** raises * ((1 - aggressive) / top) ** (checks + calls)
            ratio *= (calling / top) ** calls
    return ratio


def believed_world(
    view: PlayerView, config: LithConfig, belief: str, rng: random.Random
) -> LithHand:
    """A world for the search: dealt as chance deals it (``uniform``), or, under ``tag``,
    kept with the probability :func:`betting_likelihood` gives it (rejection sampling; after
    ``MAX_TRIES`` the likeliest world dealt)."""
    deal = sample_deal(view, config, rng)
    if belief == "uniform":
        return world_of(view, config, deal)
    best, best_ratio = deal, -1.0
    for _ in range(MAX_TRIES):
        ratio = betting_likelihood(view, deal.by_round, config)
        if rng.random() < ratio:
            return world_of(view, config, deal)
        if ratio > best_ratio:
            best, best_ratio = deal, ratio
        deal = sample_deal(view, config, rng)
    return world_of(view, config, best)


class SearchState:
    """A world the search plays in: the hand, and the public actions since the root."""

    __slots__ = ("hand", "path")

    def __init__(self, hand: LithHand) -> None:
        self.hand = hand
        self.path: list[tuple[int, int]] = []


class LithSearchRules:
    """The engine as :class:`agents.ismcts.SearchRules`, over action ids: nodes keyed by the
    acting seat, its strength bucket and the public actions since the root; rollouts by
    ``policy`` (random, caller: check or call and keep, tag: bet, raise and call by the
    discounted percentile as ``tag`` does, discard as ``best_discards`` says); returns in
    units of ``scale`` chips."""

    def __init__(self, config: LithConfig, policy: str = "tag", buckets: int = 10) -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}; got {policy!r}")
        if type(buckets) is not int or buckets < 0:
            raise ValueError(f"buckets: must be a non-negative integer, got {buckets!r}")
        self.config, self.policy, self.buckets = config, policy, buckets
        self.keep = keep_id(config)
        self.percentile = percentiles(config)
        self.discards = best_discards(config) if policy == "tag" else {}
        self.scale = 1.0

    def to_act(self, state: SearchState) -> int | None:
        return state.hand.current

    def legal(self, state: SearchState) -> tuple[int, ...]:
        return legal_ids(legal_mask(state.hand))

    def apply(self, state: SearchState, action: int) -> None:
        hand = state.hand
        seat = hand.current
        assert seat is not None
        public = action if action <= self.keep else self.keep + 1  # a discard hides its card
        state.path.append((seat, public))
        hand.apply(action_from_id(hand, action))

    def key(self, state: SearchState, seat: int) -> Any:
        cards = state.hand.cards[seat]
        if self.buckets:
            strength = self.percentile[hand_index(cards)]
            held: Any = min(int(strength * self.buckets), self.buckets - 1)
        else:
            held = tuple(sorted(cards))
        return (seat, held, tuple(state.path))

    def move(self, hand: LithHand, rng: random.Random) -> int:
        """The rollout policy's action id for the seat to act."""
        ids = legal_ids(legal_mask(hand))
        if len(ids) == 1:
            return ids[0]
        if self.policy == "random":
            return ids[rng.randrange(len(ids))]
        seat = hand.current
        assert seat is not None
        if hand.phase == "exchange":
            if self.policy == "caller":
                return self.keep
            cards = hand.cards[seat]
            position = self.discards[hand_index(cards)]
            return self.keep if position < 0 else self.keep + 1 + position
        if self.policy == "caller":
            return CHECK_CALL
        opponents = sum(1 for s in range(hand.n) if s != seat and not hand.folded[s])
        strength = self.percentile[hand_index(hand.cards[seat])] ** max(1, opponents)
        r = hand.round
        can_raise = FIRST_RAISE in ids
        if FOLD in ids:  # facing a bet
            if can_raise and strength >= TAG_RAISE[r]:
                return FIRST_RAISE
            return CHECK_CALL if strength >= TAG_CALL[r] else FOLD
        return FIRST_RAISE if can_raise and strength >= TAG_BET[r] else CHECK_CALL

    def rollout(self, state: SearchState, rng: random.Random) -> list[float]:
        hand = state.hand
        while hand.current is not None:
            hand.apply(action_from_id(hand, self.move(hand, rng)))
        scale = self.scale
        return [chips / scale for chips in hand.net()]

    def prior(self, state: SearchState, seat: int, legal: list[int]) -> list[float]:
        raise NotImplementedError("the Lith search has no prior network")  # pragma: no cover


@register("lith", "ismcts")
class ISMCTSAgent:
    """Information-set MCTS from the seat's observation: ``iterations`` worlds a decision (or
    ``ms`` milliseconds of them), exploration ``c``, rollouts by ``policy`` (random, caller,
    tag), worlds weighed by ``belief`` (uniform: as chance deals them; tag: by how likely the
    others' betting is under a soft model of ``tag``), nodes keyed by ``buckets`` strength
    slices (0: exact cards), ``final`` (visits: play in proportion to the root's visits;
    max_visits; max_value) and ``tree`` (ismcts, or flat Monte Carlo over worlds)."""

    needs_observation = True

    def __init__(
        self,
        seed: int | None = None,
        config: LithConfig | None = None,
        iterations: int = 200,
        ms: float | None = None,
        c: float = 0.1,
        policy: str = "tag",
        buckets: int = 10,
        belief: str = "tag",
        final: str = "visits",
        tree: str = "ismcts",
    ) -> None:
        self.config = config or LithConfig()
        if belief not in BELIEFS:
            raise ValueError(f"ismcts: belief must be one of {', '.join(BELIEFS)}; got {belief!r}")
        self.belief = belief
        try:
            self.settings = SearchSettings(iterations, ms, c, final, tree, "uct")
            self.rules = LithSearchRules(self.config, policy, buckets)
        except ValueError as error:
            raise ValueError(f"ismcts: {error}") from None
        self.seed = seed
        self.rng = random.Random(seed)
        self.cache: dict[bytes, np.ndarray] = {}

    def reset(self, seed: int | None = None) -> None:
        """A new seed: a new generator, and searches seeded afresh (``None`` keeps them)."""
        if seed is not None:
            self.seed = seed
            self.rng = random.Random(seed)
            self.cache = {}

    def search_rng(self, observation: np.ndarray) -> random.Random:
        """The generator of one search: from the seed and the observation, so the same
        observation gets the same search (fresh entropy without a seed)."""
        if self.seed is None:
            return random.Random()
        return random.Random(zlib.crc32(observation.tobytes()) * 2**32 + self.seed % 2**32)

    def search_policy(self, observation: Any, action_mask: np.ndarray) -> np.ndarray:
        """The probability of each action id after one search (the final policy)."""
        mask = np.asarray(action_mask)
        out = np.zeros(num_actions(self.config), dtype=np.float64)
        if mask.shape != out.shape:
            raise ValueError(f"action_mask: shape {mask.shape}, this table's is {out.shape}")
        legal_ids = np.flatnonzero(mask)
        if len(legal_ids) == 0:
            raise ValueError("action_mask: no legal action")
        if len(legal_ids) == 1:
            out[legal_ids[0]] = 1.0
            return out
        observation = np.asarray(observation, dtype=np.float32)
        repeatable = self.seed is not None and self.settings.ms is None
        key = observation.tobytes() + mask.astype(np.int8).tobytes()
        if repeatable and key in self.cache:
            return self.cache[key].copy()
        view = view_from_observation(observation, self.config)
        if view.current_player != 0:
            raise ValueError("observation: the seat is not to act")
        config, rules = self.config, self.rules
        rules.scale = most_at_risk(view, config)
        root = search(
            rules,
            lambda rng: SearchState(believed_world(view, config, self.belief, rng)),
            self.settings,
            self.search_rng(observation),
        )
        legal = list(root)
        if sorted(legal) != legal_ids.tolist():
            raise ValueError("action_mask: differs from the legal actions the observation shows")
        for action, p in final_policy(root, self.settings.final, legal).items():
            out[action] = p
        if repeatable:
            if len(self.cache) >= CACHE_SIZE:
                self.cache.clear()
            self.cache[key] = out.copy()
        return out

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        probabilities = self.search_policy(observation, action_mask)
        ids = np.flatnonzero(probabilities)
        if len(ids) == 1:
            return int(ids[0])
        return int(ids[draw(probabilities[ids], self.rng)])

    def action_probabilities(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """(k, actions): :meth:`search_policy` of each row (what ``act`` draws from)."""
        observations, masks = np.asarray(observations), np.asarray(action_masks)
        rows = zip(observations, masks, strict=True)
        return np.array([self.search_policy(o, m) for o, m in rows])
