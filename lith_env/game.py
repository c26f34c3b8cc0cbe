"""The Lith table: one hand (:class:`LithHand`) and a match of hands (:class:`LithGame`).

A pure state machine with no RL imports (docs/rules.md §3). Seats are numbered clockwise; "left"
of a seat is the next seat clockwise (seat + 1). Every action is validated before anything
changes: an illegal one raises :class:`IllegalActionError` listing the legal actions and leaves
the state exactly as it was.

A hand runs: antes; deal three cards each; betting round 1; exchange 1; betting round 2;
exchange 2; betting round 3; showdown. ``LithConfig(rounds=r)`` plays the first ``r`` betting
rounds with an exchange between consecutive ones (``rounds=1``: deal, one betting round,
showdown). If all players but one fold, that player takes the pot at once. If at most one
player can still bet, the remaining exchanges still happen.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, NoReturn

import numpy as np

from lith_env.betting import STRUCTURES, BetOptions, bet_options
from lith_env.cards import CARDS, EXCUSE, card_id, deck
from lith_env.hands import EXCUSE_ROLES, hand_strength
from lith_env.pots import Pot, award_pots, side_pots
from tablegame.engine import IllegalActionError

__all__ = [
    "EXCUSE_VARIANTS",
    "RECORD_FORMAT",
    "Action",
    "ExchangeLog",
    "IllegalActionError",
    "LegalActions",
    "LithConfig",
    "LithGame",
    "LithHand",
    "config_json",
    "hand_record",
    "resolve_exchange",
]

EXCUSE_VARIANTS = (*EXCUSE_ROLES, "demon")
NUM_ROUNDS = 3
BETTING_STATS = ("checks", "calls", "bets and raises", "folds", "chips")
STAT_COLUMN = {"check": 0, "call": 1, "bet": 2, "raise": 2, "fold": 3}


# ---------------------------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True)
class LithConfig:
    """Table rules. Invalid values raise ``ValueError`` naming the field.

    ``rounds`` (1-3) is the number of betting rounds; round r uses ``bet_sizes[r]``. ``cards``
    restricts the deal to a subset of the deck that ``pawns_and_courts`` and ``excuse`` select
    (card names or ids, kept as sorted ids; ``None``: that whole deck). Hand strengths stay
    those of the whole deck: the subset only decides which cards are dealt and drawn.
    """

    game: ClassVar[str] = "lith"  # the game's name in agent specs and --game

    num_players: int = 2
    betting: str = "limit"
    bet_sizes: tuple[int, int, int] = (2, 2, 4)
    max_raises: int = 3
    pawns_and_courts: bool = True
    excuse: str | None = None
    starting_chips: int | tuple[int, ...] = 100
    ante: int = 1
    max_hands: int | None = None
    rounds: int = NUM_ROUNDS
    cards: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        def bad(name: str, why: str) -> ValueError:
            return ValueError(f"{name}: {why}, got {getattr(self, name)!r}")

        if not _is_int(self.num_players) or not 2 <= self.num_players <= 10:
            raise bad("num_players", "must be an integer from 2 to 10")
        if self.betting not in STRUCTURES:
            raise bad("betting", f"must be one of {', '.join(STRUCTURES)}")
        sizes = _as_list(self.bet_sizes)
        if (
            sizes is None
            or len(sizes) != NUM_ROUNDS
            or not all(_is_int(s) and s > 0 for s in sizes)
        ):
            raise bad("bet_sizes", "must be three positive integers, one per betting round")
        if not _is_int(self.max_raises) or self.max_raises < 0:
            raise bad("max_raises", "must be a non-negative integer")
        if not isinstance(self.pawns_and_courts, bool):
            raise bad("pawns_and_courts", "must be True or False")
        if self.excuse is not None and self.excuse not in EXCUSE_VARIANTS:
            raise bad("excuse", f"must be None or one of {', '.join(EXCUSE_VARIANTS)}")
        chips = self.starting_chips
        listed = None if isinstance(chips, str) else _as_list(chips)  # one stack per seat
        if listed is not None:
            chips = tuple(listed)
            if len(chips) != self.num_players:
                raise bad("starting_chips", f"must give one stack per player ({self.num_players})")
            object.__setattr__(self, "starting_chips", chips)
        else:
            chips = (chips,)
        if not all(_is_int(c) and c > 0 for c in chips):
            raise bad("starting_chips", "must be positive integers")
        if not _is_int(self.ante) or self.ante < 0:
            raise bad("ante", "must be a non-negative integer")
        if self.max_hands is not None and (not _is_int(self.max_hands) or self.max_hands < 1):
            raise bad("max_hands", "must be None or a positive integer")
        if not _is_int(self.rounds) or not 1 <= self.rounds <= NUM_ROUNDS:
            raise bad("rounds", f"must be an integer from 1 to {NUM_ROUNDS}")
        if self.cards is not None:
            object.__setattr__(self, "cards", self._checked_cards())
        # Numpy integers pass the checks; the config keeps Python ints (JSON-ready records).
        for name in ("num_players", "max_raises", "ante", "max_hands", "rounds"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, int(getattr(self, name)))
        object.__setattr__(self, "bet_sizes", tuple(int(s) for s in sizes))
        starting = self.starting_chips
        object.__setattr__(
            self,
            "starting_chips",
            tuple(int(c) for c in starting) if isinstance(starting, tuple) else int(starting),
        )

    def _checked_cards(self) -> tuple[int, ...]:
        """``cards`` as sorted ids, or ``ValueError`` naming ``cards`` and saying why."""
        given = self.cards
        listed = None if isinstance(given, str | bytes | dict) else _as_list(given)
        if listed is None:
            raise ValueError(f"cards: must be a list of card names or ids, got {given!r}")
        ids = []
        for card in listed:
            try:
                ids.append(card_id(int(card) if _is_int(card) else card))
            except ValueError as error:
                raise ValueError(f"cards: {error}") from None
        in_play = set(deck(self.pawns_and_courts, excuse=self.excuse is not None))
        seen: set[int] = set()
        for c in ids:
            if c not in in_play:
                why = (
                    "needs excuse set"
                    if c == EXCUSE
                    else "is a Pawn or Court and pawns_and_courts is False"
                )
                raise ValueError(f"cards: {CARDS[c].name} is not in the deck in play: it {why}")
            if c in seen:
                raise ValueError(f"cards: {CARDS[c].name} is listed twice")
            seen.add(c)
        n = self.num_players
        need = 3 * n + (self.rounds - 1) * (n // 2)
        if len(ids) < need:
            raise ValueError(
                f"cards: {len(ids)} given, too few for {n} players and {self.rounds} betting "
                f"round(s): a hand can use {need} (3 a player, and up to {n // 2} drawn from "
                "the deck at each exchange)"
            )
        return tuple(sorted(ids))

    @property
    def stacks(self) -> list[int]:
        """Every seat's starting stack."""
        if isinstance(self.starting_chips, tuple):
            return list(self.starting_chips)
        return [self.starting_chips] * self.num_players

    @functools.cached_property
    def total_chips(self) -> int:
        """All chips at the table."""
        return sum(self.stacks)

    @functools.cached_property
    def deck(self) -> tuple[int, ...]:
        """The card ids in play, in id order: ``cards``, or else the whole deck that
        ``pawns_and_courts`` and ``excuse`` select."""
        if self.cards is not None:
            return self.cards
        return tuple(deck(self.pawns_and_courts, excuse=self.excuse is not None))

    @functools.cached_property
    def deck_ids(self) -> list[int]:
        """The card ids in play, in id order, as a list (what a sorted deck order must equal)."""
        return sorted(self.deck)


def _is_int(x: object) -> bool:
    return isinstance(x, int | np.integer) and not isinstance(x, bool)


def _as_list(values: object) -> list | None:
    """``values`` as a list, or None when it is not a collection (an int, None, ...)."""
    try:
        return list(values)  # type: ignore[call-overload]
    except TypeError:
        return None


# ---------------------------------------------------------------------------------------------
# Actions


class Action(NamedTuple):
    """An engine action. ``amount`` is the raise-to total of a bet or raise in this round;
    ``card`` the card id of a discard. (A named tuple: legality checks compare actions, and
    tuples compare in C.)"""

    kind: str  # fold, check, call, bet, raise, keep, discard
    amount: int | None = None
    card: int | None = None

    KINDS = ("fold", "check", "call", "bet", "raise", "keep", "discard")

    def __str__(self) -> str:
        # Also describes malformed actions, for the error that rejects them.
        if self.kind in ("bet", "raise"):
            amount = self.amount
            return f"{self.kind} to {amount if _is_int(amount) else repr(amount)}"
        if self.kind == "discard":
            card = self.card
            if card is None:
                return "discard"
            is_card = _is_int(card) and 0 <= card < len(CARDS)  # type: ignore[operator]
            return f"discard {CARDS[card].name if is_card else repr(card)}"  # type: ignore[index]
        return str(self.kind)

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind}
        if self.amount is not None:
            out["amount"] = self.amount
        if self.card is not None:
            out["card"] = CARDS[self.card].name
        return out


FOLD, CHECK, CALL, KEEP = Action("fold"), Action("check"), Action("call"), Action("keep")
DISCARDS = tuple(Action("discard", card=c) for c in range(len(CARDS)))


class LegalActions(NamedTuple):
    """The legal actions of the seat to act: discrete ones, plus a range of raise-to amounts
    (a named tuple: cheap to make once per decision)."""

    actions: tuple[Action, ...]
    raise_kind: str | None = None  # "bet" or "raise" when a bet/raise is legal
    min_to: int | None = None
    max_to: int | None = None

    def contains(self, action: Action) -> bool:
        if action.kind in ("bet", "raise"):
            return (
                action.kind == self.raise_kind
                and _is_int(action.amount)
                and self.min_to <= action.amount <= self.max_to  # type: ignore[operator]
            )
        return action in self.actions

    def __str__(self) -> str:
        parts = [str(a) for a in self.actions]
        if self.raise_kind:
            parts.append(
                f"{self.raise_kind} to {self.min_to}"
                + (f"-{self.max_to}" if self.max_to != self.min_to else "")
            )
        return ", ".join(parts) if parts else "none (no seat to act)"


# ---------------------------------------------------------------------------------------------
# What one seat may know


class ExchangeView(NamedTuple):
    """One exchange as a seat sees it. ``discarded[s]`` is ``None`` until seat ``s`` has decided
    (and for seats not in it); ``drew[s]`` says whether a discarder drew from the deck rather
    than taking their left neighbour's discard (known to all once the exchange is resolved)."""

    discarded: tuple[bool | None, ...]
    drew: tuple[bool | None, ...]
    my_discard: int | None  # the card I gave away
    taken_by: int | None  # who took it (None: nobody, it went to the bottom of the deck)
    received: int | None  # the card I got
    received_from: int | None  # the seat I took it from (None: the deck)
    resolved: bool


class PlayerView(NamedTuple):
    """Everything one seat may know: its own cards and the public record, nothing else."""

    seat: int
    num_players: int
    dealer: int
    phase: str  # "bet", "exchange" or "over"
    round: int  # betting round 0-2, or exchange 0-1
    current_player: int | None
    cards: tuple[int, ...]  # own cards, sorted by id
    pot: int
    highest: int  # the highest bet this round
    raise_range: tuple[int, int] | None  # raise-to bounds of the seat to act, if it may raise
    stacks: tuple[int, ...]
    bets: tuple[int, ...]  # this round
    committed: tuple[int, ...]  # this hand
    folded: tuple[bool, ...]  # seats not dealt in count as folded
    dealt_in: tuple[bool, ...]
    actions: tuple[dict, ...]  # public actions in order (read-only); discards show no card
    betting: tuple[int, ...]  # per round, seat and BETTING_STATS entry, flattened in that order
    exchanges: tuple[ExchangeView, ...]
    showdown: dict[int, tuple[int, ...]]  # cards shown at showdown, once the hand is over
    net: tuple[int, ...]  # chips won or lost this hand, once it is over

    @property
    def to_call(self) -> int:
        return min(self.highest - self.bets[self.seat], self.stacks[self.seat])


# ---------------------------------------------------------------------------------------------
# One hand


@dataclass
class ExchangeLog:
    """One exchange: who discarded what, and where every discard and new card went."""

    # seat -> the card it discarded, or None if it kept
    discards: dict[int, int | None] = field(default_factory=dict)
    # discarder -> (card received, the seat it came from or None for the deck)
    received: dict[int, tuple[int, int | None]] = field(default_factory=dict)
    # discarder -> the seat that took its discard, or None (it went to the bottom of the deck)
    taken_by: dict[int, int | None] = field(default_factory=dict)
    to_bottom: list[int] = field(default_factory=list)
    _public: tuple | None = None  # (discarded, drew) once resolved, computed once

    def public(self, n: int, resolved: bool) -> tuple[tuple, tuple]:
        """What every seat sees: who discarded (None: not decided yet, or not in) and, once
        resolved, which discarders drew from the deck."""
        if self._public is not None:
            return self._public
        discards = self.discards
        discarded = tuple([(discards[s] is not None) if s in discards else None for s in range(n)])
        if not resolved:
            return discarded, (None,) * n
        received = self.received
        drew = tuple([(received[s][1] is None) if s in received else None for s in range(n)])
        self._public = (discarded, drew)
        return self._public


def resolve_exchange(
    log: ExchangeLog,
    order: Sequence[int],
    cards: list[list[int]],
    deck: list[int],
    draw: Callable[[int], int] | None = None,
) -> None:
    """The exchange rule on ``cards`` and ``deck`` (top first), recording it in ``log``: from
    the left of the dealer (``order``: the seats in the exchange), each discarder takes the
    discard of the next seat on their left if it discarded, otherwise the top card of the
    deck; discards nobody takes go to the bottom of the deck, in the same order. ``draw(seat)``,
    if given, takes the top card instead of ``deck.pop(0)`` (a search that names cards as they
    are drawn)."""
    discards = log.discards
    for seat, card in discards.items():
        if card is not None:
            cards[seat].remove(card)
    for i, seat in enumerate(order):
        if discards[seat] is None:
            continue
        left = order[(i + 1) % len(order)]
        if left != seat and discards[left] is not None:
            card = discards[left]
            log.received[seat] = (card, left)
            log.taken_by[left] = seat
        else:
            card = deck.pop(0) if draw is None else draw(seat)
            log.received[seat] = (card, None)
        cards[seat].append(card)
    for seat in order:
        card = discards[seat]
        if card is not None and seat not in log.taken_by:
            log.taken_by[seat] = None
            log.to_bottom.append(card)
    deck.extend(log.to_bottom)


class LithHand:
    """One hand of Lith from given stacks, dealer and deck order.

    ``deck_order`` lists every card in play, top first. ``demon_heads`` is the outcome of the
    demon's coin flip, used only at a showdown with the Excuse under ``excuse="demon"``.
    """

    def __init__(
        self,
        config: LithConfig,
        stacks: Sequence[int],
        dealer: int,
        deck_order: Sequence[int],
        demon_heads: bool = False,
    ) -> None:
        n = config.num_players
        given = stacks
        stacks = _as_list(stacks)
        if (
            stacks is None
            or len(stacks) != n
            or not all(type(s) is int or _is_int(s) for s in stacks)
            or min(stacks) < 0
        ):
            raise ValueError(f"stacks: need {n} non-negative integers, got {given!r}")
        self.start_stacks = [int(s) for s in stacks]
        self.dealt_in = [s > 0 for s in self.start_stacks]
        if self.dealt_in.count(True) < 2:
            raise ValueError(
                f"stacks: at least two seats need chips to play a hand, got {list(stacks)}"
            )
        if not (_is_int(dealer) and 0 <= dealer < n and stacks[dealer] > 0):
            raise ValueError(f"dealer: must be a seat with chips, got {dealer!r}")
        deck_order = _as_list(deck_order)
        if (
            deck_order is None
            or not all(_is_int(c) for c in deck_order)
            or sorted(deck_order) != config.deck_ids
        ):
            raise ValueError("deck_order: must hold every card in play exactly once")
        deck_order = [int(c) for c in deck_order]
        self._setup(config, self.start_stacks, int(dealer), deck_order, bool(demon_heads))

    @classmethod
    def _unchecked(
        cls,
        config: LithConfig,
        stacks: list[int],
        dealer: int,
        deck_order: list[int],
        demon_heads: bool,
    ) -> LithHand:
        """A hand from arguments known to be valid (Python ints; ``LithGame`` makes them)."""
        hand = cls.__new__(cls)
        hand.start_stacks = list(stacks)
        hand.dealt_in = [s > 0 for s in stacks]
        hand._setup(config, hand.start_stacks, dealer, deck_order, demon_heads)
        return hand

    @classmethod
    def from_view(
        cls,
        view: PlayerView,
        config: LithConfig,
        cards: Sequence[Sequence[int]],
        deck: Sequence[int],
        exchanges: Sequence[ExchangeLog],
        demon_heads: bool = False,
    ) -> LithHand:
        """A hand in the middle of play that shows ``view`` to its seat, with what the view
        hides filled in: every seat's cards (``cards[view.seat]`` must be the view's), the
        undealt cards top first, the exchanges so far as logs (the last one pending during an
        exchange, its discards still in the hands) and the demon coin. A search deals such
        worlds (:mod:`lith_env.worlds`).

        The betting round's internals are not in a view; they are derived from it: who has
        acted (matched the highest bet, or checked it at zero), who may still raise (who has
        not acted; the view's seat to act as its ``raise_range`` says), the limit's count of
        full raises (``highest // bet size``, at most the round's bets and raises) and the
        size of the last full raise (from the raise range when the seat to act may raise,
        else the highest bet over the largest lower one of a seat with chips behind). They are
        exact but after an all-in raise for less, which reopens nothing. The action log starts
        empty, so such a hand has no record of its own."""
        n = config.num_players
        if view.num_players != n:
            raise ValueError(f"view: a {view.num_players}-player view for a {n}-player table")
        if view.phase not in ("bet", "exchange") or view.current_player is None:
            raise ValueError(f"view: nobody is to act (phase {view.phase!r})")
        cards = [[int(c) for c in hand] for hand in cards]
        if len(cards) != n or any(
            len(hand) != (3 if dealt else 0)
            for hand, dealt in zip(cards, view.dealt_in, strict=True)
        ):
            raise ValueError("cards: need three cards for every seat dealt in, none for others")
        if tuple(sorted(cards[view.seat])) != tuple(view.cards):
            raise ValueError(f"cards: seat {view.seat} holds {view.cards}, not {cards[view.seat]}")
        deck = [int(c) for c in deck]
        if sorted(deck + [c for hand in cards for c in hand]) != config.deck_ids:
            raise ValueError("cards, deck: must hold every card in play exactly once")
        hand = cls.__new__(cls)
        hand.config, hand.n, hand.dealer = config, n, view.dealer
        hand.stacks, hand.committed = list(view.stacks), list(view.committed)
        hand.start_stacks = [s + c for s, c in zip(view.stacks, view.committed, strict=True)]
        hand.dealt_in, hand.folded = list(view.dealt_in), list(view.folded)
        hand._order = [s for s in ((view.dealer + 1 + i) % n for i in range(n)) if view.dealt_in[s]]
        hand.cards, hand._deck, hand.deck_order = cards, deck, []
        hand.demon_heads = bool(demon_heads)
        hand.actions, hand._public_actions = [], []
        hand.exchanges = list(exchanges)
        hand.showdown, hand.demon_used, hand.pots, hand.pot_winners = {}, None, [], []
        hand.winnings = [0] * n
        hand.phase, hand.round, hand.current = view.phase, view.round, view.current_player
        hand._legal = None
        hand._betting = list(view.betting)
        hand.bets = list(view.bets)
        hand.highest, hand.last_raise, hand.raises = view.highest, 0, 0
        hand.acted, hand.open_to_raise = [False] * n, [True] * n
        if view.phase == "exchange":
            hand._exchange_order = [s for s in hand._order if not hand.folded[s]]
            hand._exchange_index = view.round
            return hand
        hand._derive_betting_round(view)
        return hand

    def _derive_betting_round(self, view: PlayerView) -> None:
        """The betting round's internals from what a view shows (see :meth:`from_view`)."""
        n, highest, bets = self.n, self.highest, self.bets
        width = len(BETTING_STATS)
        start = self.round * n * width
        summary = self._betting
        if highest > 0:
            self.acted = [bets[s] == highest for s in range(n)]
        else:
            self.acted = [summary[start + s * width + STAT_COLUMN["check"]] > 0 for s in range(n)]
        self.open_to_raise = [not a for a in self.acted]
        bet_size = self.config.bet_sizes[self.round]
        full_raises = sum(summary[start + s * width + STAT_COLUMN["raise"]] for s in range(n))
        self.raises = min(full_raises, highest // bet_size)
        # A lower bet of a seat with chips behind was once the highest (an all-in call for
        # less was not): the last raise went from the largest of them.
        lower = [b for b, chips in zip(bets, self.stacks, strict=True) if b < highest and chips]
        self.last_raise = highest - max(lower, default=0) if highest else 0
        seat = view.current_player
        if seat == view.seat:
            if view.raise_range is None:
                self.open_to_raise[seat] = False  # whatever the reason, no raise now
            else:
                low = view.raise_range[0]
                if low < self.stacks[seat] + bets[seat]:  # a full raise: its size is known
                    self.last_raise = low - highest
                self.open_to_raise[seat] = True

    def _setup(
        self,
        config: LithConfig,
        stacks: list[int],
        dealer: int,
        deck_order: list[int],
        demon_heads: bool,
    ) -> None:
        """Everything of a new hand after its arguments are checked: antes, deal, betting."""
        n = config.num_players
        self.config = config
        self.n = n
        self.dealer = dealer
        self.stacks = list(stacks)
        self.deck_order = deck_order
        self.demon_heads = demon_heads
        # Seats not dealt in count as folded, so "still in the hand" is just "not folded".
        self.folded = [not d for d in self.dealt_in]
        # Seats dealt in, starting left of the dealer: the order of the deal, the antes,
        # every exchange and the showdown.
        self._order = [s for s in ((self.dealer + 1 + i) % n for i in range(n)) if self.dealt_in[s]]
        self.committed = [0] * n
        self.bets = [0] * n
        self.cards: list[list[int]] = [[] for _ in range(n)]
        self.actions: list[dict] = []
        self.exchanges: list[ExchangeLog] = []
        self.showdown: dict[int, list[int]] = {}
        self.demon_used: str | None = None
        self.pots: list[Pot] = []
        self.pot_winners: list[tuple[int, ...]] = []
        self.winnings = [0] * n
        self.phase = "bet"
        self.round = 0
        self.current: int | None = None
        self._legal: LegalActions | None = None
        self._public_actions: list[dict] = []  # the action log with discarded cards hidden
        self._betting = [0] * (NUM_ROUNDS * n * len(BETTING_STATS))

        self._post_antes()
        self._deal()
        self._start_betting_round(0)

    # ------------------------------------------------------------------ seats and order

    def seats_from_left_of_dealer(self) -> list[int]:
        """Seats dealt into this hand, starting left of the dealer."""
        return list(self._order)

    def in_hand(self, seat: int) -> bool:
        return not self.folded[seat]  # seats not dealt in count as folded

    def can_bet(self, seat: int) -> bool:
        return not self.folded[seat] and self.stacks[seat] > 0

    def _seats_able_to_bet(self) -> int:
        """How many seats are still in the hand with chips behind."""
        return sum(self.can_bet(s) for s in range(self.n))

    @property
    def pot(self) -> int:
        """All chips committed this hand, this round's bets included."""
        return sum(self.committed)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def public_actions(self) -> list[dict]:
        """The action log as every seat sees it (discards show no card); read-only."""
        return self._public_actions

    @property
    def betting_summary(self) -> list[int]:
        """The public betting summary (:data:`BETTING_STATS` per round and seat, flattened in
        that order), as :attr:`PlayerView.betting`; read-only."""
        return self._betting

    # ------------------------------------------------------------------ set-up

    def _post_antes(self) -> None:
        """Every player with chips antes; one who cannot cover it posts what they have and is
        all-in."""
        ante = self.config.ante
        for seat in self._order:
            self._commit(seat, min(ante, self.stacks[seat]), round_bet=False)

    def _deal(self) -> None:
        """Three cards each, one at a time, starting left of the dealer: the seat at place i
        of k gets the deck's cards i, k + i and 2k + i."""
        order, deck = self._order, self.deck_order
        k = len(order)
        for i, seat in enumerate(order):
            self.cards[seat] = deck[i : 3 * k : k]
        self._deck = deck[3 * k :]  # top first

    def _commit(self, seat: int, chips: int, round_bet: bool = True) -> None:
        self.stacks[seat] -= chips
        self.committed[seat] += chips
        if round_bet:
            self.bets[seat] += chips

    # ------------------------------------------------------------------ betting

    def _start_betting_round(self, round_: int) -> None:
        n = self.n
        self.phase = "bet"
        self.round = round_
        self.bets = [0] * n
        self.highest = 0
        self.last_raise = 0
        self.raises = 0
        self.acted = [False] * n
        self.open_to_raise = [True] * n
        if self._seats_able_to_bet() <= 1:
            self._end_betting_round()  # nobody left to bet against: no betting
            return
        self.current = self._next_to_bet(after=self.dealer)
        if self.current is None:
            self._end_betting_round()

    def _next_to_bet(self, after: int) -> int | None:
        """The next seat clockwise after ``after`` that still has to act: one still in with
        chips behind that has not acted this round or has not matched the highest bet."""
        n, folded, stacks, acted, bets = self.n, self.folded, self.stacks, self.acted, self.bets
        highest = self.highest
        for i in range(1, n + 1):
            seat = (after + i) % n
            if not folded[seat] and stacks[seat] > 0 and (not acted[seat] or bets[seat] < highest):
                return seat
        return None

    def bet_options(self) -> BetOptions:
        """Legal betting options of the seat to act."""
        seat = self.current
        assert seat is not None and self.phase == "bet"
        return bet_options(
            structure=self.config.betting,
            bet_size=self.config.bet_sizes[self.round],
            max_raises=self.config.max_raises,
            stack=self.stacks[seat],
            my_bet=self.bets[seat],
            highest=self.highest,
            last_raise=self.last_raise,
            raises=self.raises,
            may_reraise=self.open_to_raise[seat],
            pot=self.pot,
            # Could anyone else answer a raise? With no empty stack, yes: at least one other
            # seat is still in (or the hand would be over) and it has chips.
            others_can_bet=0 not in self.stacks or self._seats_able_to_bet() > 1,
        )

    def _apply_bet_action(self, seat: int, action: Action) -> None:
        kind = action.kind
        chips = 0
        if kind == "fold":
            self.folded[seat] = True
        elif kind == "check" or kind == "call":
            chips = min(self.highest - self.bets[seat], self.stacks[seat])
            self._commit(seat, chips)
        else:  # bet or raise to action.amount
            amount: int = action.amount  # type: ignore[assignment]
            size = amount - self.highest
            chips = amount - self.bets[seat]
            self._commit(seat, chips)
            bet_size = self.config.bet_sizes[self.round]
            full_size = (
                bet_size if self.config.betting == "limit" else max(self.last_raise, bet_size)
            )
            full = size >= full_size  # less is an all-in for less: it reopens nothing
            self.highest = amount
            if full:
                # A full raise reopens the betting for everyone else.
                self.last_raise = size
                self.raises += 1
                self.open_to_raise = [True] * self.n
            self.acted = [False] * self.n
        self.acted[seat] = True
        self.open_to_raise[seat] = False
        entry = {"phase": "bet", "round": self.round, "seat": seat, "kind": kind}
        if action.amount is not None:
            entry["amount"] = action.amount
        entry["chips"] = chips
        self.actions.append(entry)
        self._public_actions.append(entry)
        # The public betting summary: per round and seat, checks, calls, bets and raises,
        # folded, chips put in.
        at = (self.round * self.n + seat) * len(BETTING_STATS)
        self._betting[at + STAT_COLUMN[kind]] += 1
        self._betting[at + 4] += chips

        if kind == "fold" and self.folded.count(False) == 1:
            self._fold_win()
            return
        self.current = self._next_to_bet(after=seat)
        if self.current is None:
            self._end_betting_round()

    def _end_betting_round(self) -> None:
        self.current = None
        if self.round < self.config.rounds - 1:  # an exchange between consecutive rounds
            self._start_exchange(self.round)
        else:
            self._showdown()

    # ------------------------------------------------------------------ exchange

    def _start_exchange(self, index: int) -> None:
        """Starting left of the dealer, each player still in (all-in players included) keeps
        their hand or discards one card face down."""
        self.phase = "exchange"
        self.exchanges.append(ExchangeLog())
        self._exchange_order = [s for s in self._order if not self.folded[s]]
        self._exchange_index = index
        self.current = self._exchange_order[0]

    def _apply_exchange_action(self, seat: int, action: Action) -> None:
        log = self.exchanges[-1]
        log.discards[seat] = action.card if action.kind == "discard" else None
        entry = {
            "phase": "exchange",
            "round": self._exchange_index,
            "seat": seat,
            **action.to_json(),
        }
        self.actions.append(entry)
        self._public_actions.append({**entry, "card": None} if "card" in entry else entry)
        position = self._exchange_order.index(seat)
        if position + 1 < len(self._exchange_order):
            self.current = self._exchange_order[position + 1]
            return
        self.current = None
        self._resolve_exchange()
        self._start_betting_round(self._exchange_index + 1)

    def _resolve_exchange(self) -> None:
        """From the left of the dealer, each discarder takes the discard of the next player still
        in on their left if that player discarded, otherwise the top card of the deck. Discards
        nobody takes go to the bottom of the deck (in the same order)."""
        resolve_exchange(self.exchanges[-1], self._exchange_order, self.cards, self._deck)

    # ------------------------------------------------------------------ the end of a hand

    def _fold_win(self) -> None:
        """All players but one folded: that player takes the pot at once and shows nothing."""
        (winner,) = [s for s in range(self.n) if self.in_hand(s)]
        self.pots = [Pot(self.pot, (winner,))]
        self.pot_winners = [(winner,)]
        self.winnings = [0] * self.n
        self.winnings[winner] = self.pot
        self._finish()

    def _showdown(self) -> None:
        """Side pots from the smallest all-in up; each to the best eligible hand."""
        shown = [s for s in self.seats_from_left_of_dealer() if self.in_hand(s)]
        self.showdown = {s: list(self.cards[s]) for s in shown}
        role = self.config.excuse
        if role == "demon":
            role = "imposter" if self.demon_heads else "beggar"
            if any(EXCUSE in self.cards[s] for s in shown):
                self.demon_used = "heads" if self.demon_heads else "tails"
        strengths: list[int | None] = [None] * self.n
        for s in shown:
            strengths[s] = hand_strength(
                self.cards[s], pawns_and_courts=self.config.pawns_and_courts, excuse=role
            )[0]
        self.pots = side_pots(self.committed, [not self.in_hand(s) for s in range(self.n)])
        self.winnings, self.pot_winners = award_pots(self.pots, strengths, self.dealer)
        self._finish()

    def _finish(self) -> None:
        for seat in range(self.n):
            self.stacks[seat] += self.winnings[seat]
        self.phase = "over"
        self.current = None

    def net(self) -> list[int]:
        """Chips each seat won (+) or lost (-) in this hand; zero until the hand is over."""
        if not self.is_over:
            return [0] * self.n
        return [self.stacks[s] - self.start_stacks[s] for s in range(self.n)]

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now (nothing once the hand is over)."""
        if self._legal is None:
            self._legal = self._compute_legal_actions()
        return self._legal

    def _compute_legal_actions(self) -> LegalActions:
        seat = self.current
        if seat is None:
            return LegalActions(())
        if self.phase == "exchange":
            return LegalActions((KEEP, *[DISCARDS[c] for c in sorted(self.cards[seat])]))
        options = self.bet_options()
        check_or_call = CHECK if options.call == 0 else CALL
        discrete = (FOLD, check_or_call) if options.can_fold else (check_or_call,)
        if options.min_to is not None:
            return LegalActions(discrete, options.kind, options.min_to, options.max_to)
        return LegalActions(discrete)

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act; an illegal action raises
        :class:`IllegalActionError` and changes nothing.

        ``amount`` and ``card`` must be ``None`` or integers (Python or numpy; the hand and its
        record keep Python ints): ``1.0``, ``True`` or ``"1"`` are illegal, nothing is rounded.
        """
        legal = self.legal_actions()
        if not isinstance(action, Action):
            self._reject(action, legal)
        amount, card = action.amount, action.card
        if (amount is not None and type(amount) is not int) or (
            card is not None and type(card) is not int
        ):
            for name, value in (("amount", amount), ("card", card)):
                if value is not None and not _is_int(value):
                    self._reject(action, legal, f"{name}: must be an integer, got {value!r}")
            action = Action(
                action.kind,
                None if amount is None else int(amount),
                None if card is None else int(card),
            )
        if not legal.contains(action):
            self._reject(action, legal)
        seat = self.current
        assert seat is not None
        self._legal = None
        if self.phase == "bet":
            self._apply_bet_action(seat, action)
        else:
            self._apply_exchange_action(seat, action)

    def _reject(self, action: object, legal: LegalActions, why: str = "") -> NoReturn:
        """Raise :class:`IllegalActionError` for ``action``, saying why (when a field is
        malformed), who is to act and what is legal."""
        who = (
            "nobody is to act: the hand is over"
            if self.current is None
            else f"seat {self.current} to act in {self.phase} {self.round + 1}"
        )
        why = f"{why}; " if why else ""
        raise IllegalActionError(f"illegal action {action}; {why}{who}; legal: {legal}")

    # ------------------------------------------------------------------ what a seat may know

    def observe(self, seat: int) -> PlayerView:
        """What ``seat`` may know: its own cards, public actions, who discarded and who drew,
        the card it gave away and who took it, the card it received, showdown reveals."""
        n = self.n
        if not (type(seat) is int or _is_int(seat)) or not 0 <= seat < n:
            raise ValueError(f"seat: must be 0-{n - 1}, got {seat!r}")
        betting = self.phase == "bet"
        last = len(self.exchanges) - 1
        exchanges = []
        for index, log in enumerate(self.exchanges):
            resolved = index < last or self.phase != "exchange"
            discarded, drew = log.public(n, resolved)
            received = log.received.get(seat) if resolved else None
            exchanges.append(
                ExchangeView(
                    discarded,
                    drew,
                    log.discards.get(seat),
                    log.taken_by.get(seat) if resolved else None,
                    received[0] if received else None,
                    received[1] if received else None,
                    resolved,
                )
            )
        over = self.phase == "over"
        return PlayerView(
            seat=seat,
            num_players=n,
            dealer=self.dealer,
            phase=self.phase,
            round=self.round if self.phase != "exchange" else last,
            current_player=self.current,
            cards=tuple(sorted(self.cards[seat])),
            pot=sum(self.committed),
            highest=self.highest if betting else 0,
            raise_range=self._raise_range(),
            stacks=tuple(self.stacks),
            bets=tuple(self.bets) if betting else (0,) * n,
            committed=tuple(self.committed),
            folded=tuple(self.folded),
            dealt_in=tuple(self.dealt_in),
            actions=tuple(self._public_actions),
            betting=tuple(self._betting),
            exchanges=tuple(exchanges),
            showdown={s: tuple(sorted(c)) for s, c in self.showdown.items()} if over else {},
            net=tuple(self.net()) if over else (0,) * n,
        )

    def _raise_range(self) -> tuple[int, int] | None:
        if self.phase != "bet" or self.current is None:
            return None
        legal = self.legal_actions()
        return None if legal.raise_kind is None else (legal.min_to, legal.max_to)  # type: ignore[return-value]

    def deck_remaining(self) -> list[int]:
        """The undealt cards, top first (hidden from every seat)."""
        return list(self._deck)


# ---------------------------------------------------------------------------------------------
# A finished hand's record: the JSON that lith_env.history saves, loads and replays

RECORD_FORMAT = "lith-hand/1"
_CONFIG_FIELDS = (
    "num_players",
    "betting",
    "bet_sizes",
    "max_raises",
    "pawns_and_courts",
    "excuse",
    "ante",
)


def _names(cards: Iterable[int]) -> list[str]:
    return [CARDS[c].name for c in cards]


def config_json(config: LithConfig) -> dict[str, Any]:
    """The rules as a record's ``config``. ``rounds`` and ``cards`` (as card names) are written
    only when they differ from the defaults (3 rounds, the whole deck), so a record of the
    standard game reads as before and a record without them is one of the standard game."""
    out = {name: getattr(config, name) for name in _CONFIG_FIELDS}
    out["bet_sizes"] = list(out["bet_sizes"])
    if config.rounds != NUM_ROUNDS:
        out["rounds"] = config.rounds
    if config.cards is not None:
        out["cards"] = _names(config.cards)
    return out


def hand_record(hand: LithHand, seed: int | None = None, index: int = 0) -> dict[str, Any]:
    """The JSON-ready record of a finished hand."""
    if not hand.is_over:
        raise ValueError("hand_record: the hand is not over yet")
    config = config_json(hand.config)
    dealt = [
        _names(hand_cards) if hand.dealt_in[s] else None
        for s, hand_cards in enumerate(_initial_cards(hand))
    ]
    return {
        "format": RECORD_FORMAT,
        "hand": index,
        "seed": seed,
        "config": config,
        "dealer": hand.dealer,
        "stacks": list(hand.start_stacks),
        "deck": _names(hand.deck_order),
        "demon_heads": hand.demon_heads,
        "cards": dealt,
        "actions": [dict(a) for a in hand.actions],
        "exchanges": [
            {
                "discards": {
                    str(s): (CARDS[c].name if c is not None else None)
                    for s, c in log.discards.items()
                },
                "received": {
                    str(s): {"card": CARDS[c].name, "from": "deck" if src is None else src}
                    for s, (c, src) in log.received.items()
                },
                "to_bottom": _names(log.to_bottom),
            }
            for log in hand.exchanges
        ],
        "showdown": {str(s): _names(c) for s, c in hand.showdown.items()},
        "demon": hand.demon_used,
        "pots": [
            {"amount": p.amount, "eligible": list(p.eligible), "winners": list(w)}
            for p, w in zip(hand.pots, hand.pot_winners, strict=True)
        ],
        "net": hand.net(),
        "stacks_after": list(hand.stacks),
    }


def _initial_cards(hand: LithHand) -> list[list[int]]:
    """The three cards each seat was dealt: one at a time from the top, left of dealer first."""
    cards: list[list[int]] = [[] for _ in range(hand.n)]
    order = hand.seats_from_left_of_dealer()
    top = iter(hand.deck_order)
    for _ in range(3):
        for seat in order:
            cards[seat].append(next(top))
    return cards


# ---------------------------------------------------------------------------------------------
# A match


def shuffle(order: list[int], rng: random.Random) -> None:
    """Shuffle ``order`` in place exactly as CPython's ``random.Random.shuffle`` (Fisher-Yates,
    each draw by rejection from ``getrandbits``), written out: several times faster than the
    library's, and the same deals on every Python version."""
    getrandbits = rng.getrandbits
    for i, size, bits in _shuffle_steps(len(order)):
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        order[i], order[j] = order[j], order[i]


@functools.cache
def _shuffle_steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """Fisher-Yates from the end: each position, how many cards it draws among, and the bits
    ``random`` draws for that (``size.bit_length()``)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))


def deal(config: LithConfig, hand_seed: int) -> tuple[list[int], bool]:
    """The deck order (top first) and demon coin (heads?) of the hand with seed ``hand_seed``."""
    rng = random.Random(hand_seed)  # Python's Mersenne Twister: fast to seed
    order = list(config.deck)
    shuffle(order, rng)
    return order, rng.random() < 0.5


class LithGame:
    """A match of Lith: hands in turn until one player holds every chip or ``max_hands`` hands
    have been played (then the most chips wins).

    Each hand's deck order and demon coin come from its own seed, drawn from the match's seed,
    so the same seed and the same actions give the same game, card for card. When a hand ends
    the next one is dealt at once; finished hands are kept as JSON-ready records.
    """

    def __init__(
        self,
        config: LithConfig | None = None,
        seed: int | None = None,
        first_dealer: int | None = 0,
    ) -> None:
        self.config = config or LithConfig()
        self.reset(seed, first_dealer)

    def reset(self, seed: int | None = None, first_dealer: int | None = 0) -> None:
        """Start a new match: starting stacks, the first hand dealt. ``first_dealer=None`` draws
        the first dealer from the seed."""
        n = self.config.num_players
        if first_dealer is not None and not (_is_int(first_dealer) and 0 <= first_dealer < n):
            raise ValueError(
                f"first_dealer: must be None or a seat 0-{n - 1}, got {first_dealer!r}"
            )
        self.seed = seed
        self._rng = random.Random(seed)
        if first_dealer is None:
            first_dealer = self._rng.randrange(n)
        self.stacks = self.config.stacks
        self.start_stacks = list(self.stacks)
        self.dealer = first_dealer
        self.hands_played = 0
        self._over = False
        self._finished: list[tuple[LithHand, int]] = []  # made into records when asked for
        self._returns_for: tuple | None = None  # (hand, over) the cached returns belong to
        self._records: list[dict] = []
        self._deal_hand()

    # ------------------------------------------------------------------ hands

    def _deal_hand(self) -> None:
        """Deal the next hand. A hand can end at the deal with nobody to act: in a one-round
        game where at most one seat has chips left after the antes, it goes straight to the
        showdown. Such a hand is booked at once and the next one dealt."""
        while True:
            self.hand_seed = self._rng.getrandbits(63)
            order, demon_heads = deal(self.config, self.hand_seed)
            # Stacks, dealer and deck are valid by construction: skip the checks.
            self.hand = LithHand._unchecked(
                self.config, self.stacks, self.dealer, order, demon_heads
            )
            if self.hand.phase != "over" or not self._book_hand():
                return

    def _after_hand(self) -> None:
        if self._book_hand():
            self._deal_hand()

    def _book_hand(self) -> bool:
        """Keep the finished hand; whether the match goes on (then the deal passes left)."""
        self._finished.append((self.hand, self.hand_seed))
        self.stacks = list(self.hand.stacks)
        self.hands_played += 1
        limit = self.config.max_hands
        if sum(1 for s in self.stacks if s > 0) <= 1 or (limit and self.hands_played >= limit):
            self._over = True
            return False
        # The deal passes left, to the next player still in the match.
        n = self.config.num_players
        self.dealer = next(
            s for s in ((self.dealer + i) % n for i in range(1, n + 1)) if self.stacks[s] > 0
        )
        return True

    @property
    def records(self) -> list[dict]:
        """JSON-ready records of the finished hands (:func:`hand_record`), in order."""
        while len(self._records) < len(self._finished):
            hand, seed = self._finished[len(self._records)]
            self._records.append(hand_record(hand, seed=seed, index=len(self._records)))
        return self._records

    # ------------------------------------------------------------------ the contract

    @property
    def num_players(self) -> int:
        return self.config.num_players

    @property
    def is_over(self) -> bool:
        """One player holds every chip, or the hand limit is reached."""
        return self._over

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.hand.current

    def legal_actions(self) -> LegalActions:
        return self.hand.legal_actions() if not self.is_over else LegalActions(())

    def apply(self, action: Action) -> None:
        """Play an action for the seat to act; when it ends the hand, the next hand is dealt
        (unless the match is over)."""
        if self._over:
            raise IllegalActionError(f"illegal action {action}: the match is over")
        self.hand.apply(action)
        if self.hand.phase == "over":
            self._after_hand()

    def observe(self, seat: int) -> PlayerView:
        return self.hand.observe(seat)

    def returns(self) -> np.ndarray:
        """Chips each seat has won (+) or lost (-) over the hands finished so far."""
        # They change only when a hand ends, so they are kept per (hand, finished or not).
        key = (self.hand, self.hand.phase == "over")
        if self._returns_for != key:
            settled = self.hand.stacks if key[1] else self.hand.start_stacks
            self._returns = np.array(
                [a - b for a, b in zip(settled, self.start_stacks, strict=True)]
            )
            self._returns_for = key
        return self._returns.copy()

    def winners(self) -> list[int]:
        """Seats holding the most chips (the match's winners once it is over)."""
        stacks = self.hand.stacks if self.hand.is_over else self.hand.start_stacks
        top = max(stacks)
        return [s for s, c in enumerate(stacks) if c == top]
