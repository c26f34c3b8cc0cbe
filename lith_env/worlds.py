"""Worlds a Lith seat cannot tell apart: the table read back from a seat's observation vector,
and hands dealt from it with the hidden cards placed at random (the determinizations a search
samples, :mod:`agents.lith_ismcts`).

Seats are relative: the observing seat is seat 0, seat ``k`` sits ``k`` places to its left.

What a seat saw in the exchanges pins cards: the card it gave is in its taker's hand (until
the taker discards again), the card it got was its left neighbour's discard or sat at a known
place in the deck, a card it sent under the deck sits at a known place in the bottom block. A
uniform deal of the current hands would break these in nearly every world. So a world is made
by replaying the hand's card flow: the seat's first hand (its cards with its exchanges undone)
and unnamed cards everywhere else are dealt, each exchange is played by the engine's rule (a
discarder's card drawn uniformly from its hand, the left neighbour's made to be the one the
seat got), and only then are the unnamed cards given the unseen names at random. Every
constraint holds by construction.

The belief is chance's alone: bets and keep-or-discard choices, which depend on the cards,
are not read into it (the model is that every seat bets and discards blind).
"""

from __future__ import annotations

import random
from typing import NamedTuple

import numpy as np

from lith_env.cards import NUM_CARDS
from lith_env.encoding import PHASES, field_offsets, observation_size
from lith_env.game import (
    BETTING_STATS,
    ExchangeLog,
    ExchangeView,
    LithConfig,
    LithHand,
    PlayerView,
    resolve_exchange,
)

__all__ = ["Deal", "sample_deal", "sample_world", "view_from_observation", "world_of"]


def view_from_observation(obs: np.ndarray, config: LithConfig) -> PlayerView:
    """The view a seat's observation vector encodes, the seat as seat 0. Chips come back
    exact (shares of ``config.total_chips``); the betting summary's calls and bets and raises
    only up to four a seat and round, the action log not at all (``actions`` is empty).
    ``ValueError`` if the vector is not a ``config`` table's."""
    obs = np.asarray(obs, dtype=np.float32)
    n = config.num_players
    if obs.ndim != 1 or len(obs) != observation_size(config):
        raise ValueError(f"obs: not a {n}-player Lith observation (shape {obs.shape})")
    at = field_offsets(n)
    total = config.total_chips

    def chips(x: float) -> int:
        return round(float(x) * total)

    cards = tuple(int(c) for c in np.flatnonzero(obs[at.own : at.own + NUM_CARDS] > 0.5))
    phase_index = int(np.argmax(obs[at.phase : at.phase + len(PHASES)]))
    phase = "over" if phase_index == len(PHASES) - 1 else ("exchange" if phase_index % 2 else "bet")
    round_ = phase_index // 2
    seats = obs[at.seats : at.seats + 9 * n].reshape(n, 9)
    stacks = tuple(chips(x) for x in seats[:, 0])
    bets = tuple(chips(x) for x in seats[:, 1])
    committed = tuple(chips(x) for x in seats[:, 2])
    dealt_in = tuple(not bool(x > 0.5) for x in seats[:, 6])
    folded = tuple(bool(x > 0.5) or not d for x, d in zip(seats[:, 4], dealt_in, strict=True))
    dealer = int(np.argmax(seats[:, 7]))
    to_act = np.flatnonzero(seats[:, 8] > 0.5)
    current = int(to_act[0]) if len(to_act) else None
    c = at.chips
    raise_range = None
    if phase == "bet" and obs[c + 3] > 0:
        raise_range = (chips(obs[c + 3]), chips(obs[c + 4]))

    width = len(BETTING_STATS)
    per_count = (1, 4, 4, 1)  # checks and folds are flags, calls and raises quarters
    history = obs[at.history : at.history + 3 * n * width]
    betting = []
    for i, x in enumerate(history):
        stat = i % width
        betting.append(chips(x) if stat == width - 1 else round(float(x) * per_count[stat]))

    count = round_ + 1 if phase == "exchange" else round_
    exchanges = []
    for e in range(min(count, 2)):
        block, gave, taken_by, got, got_from = at.exchanges[e]
        flags = obs[block : block + 4 * n].reshape(n, 4) > 0.5
        discarded = tuple(True if f[0] else (False if f[1] else None) for f in flags)
        drew = tuple(True if f[2] else (False if f[3] else None) for f in flags)
        resolved = e < count - 1 or phase != "exchange"
        given = np.flatnonzero(obs[gave : gave + NUM_CARDS] > 0.5)
        my_discard = int(given[0]) if len(given) else None
        taker = None
        if my_discard is not None and resolved:
            where = int(np.argmax(obs[taken_by : taken_by + n + 1]))
            taker = None if where == n else where
        got_cards = np.flatnonzero(obs[got : got + NUM_CARDS] > 0.5)
        received = int(got_cards[0]) if len(got_cards) else None
        source = None
        if received is not None and obs[got_from + 1] > 0.5:  # my left neighbour's discard
            source = next(s for s in range(1, n) if discarded[s] is not None)
        exchanges.append(
            ExchangeView(discarded, drew, my_discard, taker, received, source, resolved)
        )
    betting_now = phase == "bet"
    return PlayerView(
        seat=0,
        num_players=n,
        dealer=dealer,
        phase=phase,
        round=round_,
        current_player=current,
        cards=cards,
        pot=chips(obs[c]),
        highest=chips(obs[c + 2]) if betting_now else 0,
        raise_range=raise_range,
        stacks=stacks,
        bets=bets if betting_now else (0,) * n,
        committed=committed,
        folded=folded,
        dealt_in=dealt_in,
        actions=(),
        betting=tuple(betting),
        exchanges=tuple(exchanges),
        showdown={},
        net=(0,) * n,
    )


def sample_world(view: PlayerView, config: LithConfig, rng: random.Random) -> LithHand:
    """A hand that shows ``view`` to its seat, the cards it has not seen placed at random
    consistently with what it saw in the exchanges (the module's docstring), and the demon
    coin drawn. ``ValueError`` if the view's exchanges cannot have happened."""
    return world_of(view, config, sample_deal(view, config, rng))


class Deal(NamedTuple):
    """Where the hidden cards of one world are: every seat's cards, the undealt cards (top
    first), the exchanges, the demon coin, and the cards every seat held in each betting
    round so far (by round, then seat), which a model of how seats bet weighs worlds by."""

    cards: list[list[int]]
    deck: list[int]
    exchanges: list[ExchangeLog]
    demon_heads: bool
    by_round: list[list[list[int]]]


def sample_deal(view: PlayerView, config: LithConfig, rng: random.Random) -> Deal:
    """The hidden cards of a world of :func:`sample_world`, without the hand built (cheaper,
    for a search that may turn the deal down)."""
    hands, deck, logs, by_round = _CardFlow(view, config, rng).play()
    return Deal(hands, deck, logs, rng.random() < 0.5, by_round)


def world_of(view: PlayerView, config: LithConfig, deal: Deal) -> LithHand:
    """The hand of a deal (:meth:`LithHand.from_view`)."""
    return LithHand.from_view(view, config, deal.cards, deal.deck, deal.exchanges, deal.demon_heads)


class _CardFlow:
    """One hand's cards replayed on unnamed cards (negative numbers) and the seat's named
    ones, unnamed cards named when they must be a card the seat got, the rest named at
    random at the end."""

    def __init__(self, view: PlayerView, config: LithConfig, rng: random.Random) -> None:
        self.view, self.rng, self.me = view, rng, view.seat
        n = view.num_players
        self.order = [s for s in ((view.dealer + 1 + i) % n for i in range(n)) if view.dealt_in[s]]
        first = list(view.cards)  # the seat's first hand: its exchanges undone
        for ex in reversed(view.exchanges):
            if ex.resolved and ex.my_discard is not None:
                if ex.received not in first:
                    raise ValueError(f"view: holds no {ex.received}, the card it got")
                first.remove(ex.received)
                first.append(ex.my_discard)
        self.names: dict[int, int] = {}  # unnamed card -> the card it must be
        unnamed = iter(range(-1, -NUM_CARDS - 1, -1))
        self.hands = [
            (list(first) if s == self.me else [next(unnamed) for _ in range(3)])
            if view.dealt_in[s]
            else []
            for s in range(n)
        ]
        self.deck = [next(unnamed) for _ in range(len(config.deck) - 3 * len(self.order))]
        self.first, self.config = first, config

    def name(self, card: int) -> int:
        return self.names.get(card, card)

    def must_be(self, card: int, wanted: int) -> int:
        """``card``, made to be ``wanted`` if it is unnamed; an error if it is another card."""
        if card < 0 and card not in self.names:
            self.names[card] = wanted
            return card
        if self.name(card) != wanted:
            raise ValueError(f"view: its exchanges cannot have happened (needs {wanted})")
        return card

    def discard_of(self, seat: int, ex: ExchangeView) -> int:
        """The card ``seat`` discards: the seat's own, the one the seat got from it, or one
        drawn uniformly from its hand."""
        hand = self.hands[seat]
        if seat == self.me:
            return next(c for c in hand if self.name(c) == ex.my_discard)
        if ex.resolved and ex.received_from == seat:
            named = [c for c in hand if self.name(c) == ex.received]
            if named:
                return named[0]
            free = [c for c in hand if c < 0 and c not in self.names]
            if not free:
                raise ValueError(f"view: seat {seat} cannot have discarded {ex.received}")
            return self.must_be(free[self.rng.randrange(len(free))], ex.received)
        return hand[self.rng.randrange(len(hand))]

    def play(self) -> tuple[list[list[int]], list[int], list[ExchangeLog], list]:
        """Every exchange so far replayed, then the unnamed cards named at random: the hands,
        the deck, the exchange logs and the hands of each betting round."""
        logs = []
        by_round = [[list(hand) for hand in self.hands]]
        for ex in self.view.exchanges:
            log = ExchangeLog()
            seats = [s for s in self.order if ex.discarded[s] is not None]
            if not ex.resolved:  # pending: the discards stay in the hands until all decide
                for s in seats:
                    log.discards[s] = self.discard_of(s, ex) if ex.discarded[s] else None
                logs.append(log)
                break
            for s in seats:
                log.discards[s] = self.discard_of(s, ex) if ex.discarded[s] else None
            self.resolve(log, seats, ex)
            logs.append(log)
            by_round.append([list(hand) for hand in self.hands])
        names = self.name
        pool = sorted(set(self.config.deck) - set(self.first) - set(self.names.values()))
        self.rng.shuffle(pool)
        free = iter(pool)
        every = [c for hand in self.hands for c in hand] + self.deck
        for card in every:
            if card < 0 and card not in self.names:
                self.names[card] = next(free)
        hands = [[names(c) for c in hand] for hand in self.hands]
        deck = [names(c) for c in self.deck]
        for log in logs:
            log.discards = {s: None if c is None else names(c) for s, c in log.discards.items()}
            log.received = {s: (names(c), f) for s, (c, f) in log.received.items()}
            log.to_bottom = [names(c) for c in log.to_bottom]
        by_round = [[[names(c) for c in hand] for hand in seats] for seats in by_round]
        return hands, deck, logs, by_round

    def resolve(self, log: ExchangeLog, seats: list[int], ex: ExchangeView) -> None:
        """The engine's exchange on these cards, the seat's draw made to be the card it got."""

        def draw(seat: int) -> int:
            card = self.deck.pop(0)
            return self.must_be(card, ex.received) if seat == self.me else card  # type: ignore[arg-type]

        resolve_exchange(log, seats, self.hands, self.deck, draw)
