"""Lith hands: the 24 categories, tie-breaking, and a vectorized strength evaluator.

Every 3-card hand gets an int64 *strength*: higher wins, equal splits. Strengths come from a
table over all 3-card multisets of the 45 card ids, built once per deck configuration with
numpy and looked up through a combinatorial index, so evaluating a million hands is a few array
operations and one gather.

A strength packs, from the most significant bits down: category (0 = Void ... 23 = Doubly
Kindred), qualifier (0 neither, 1 fortune, 2 kindred), the three ranks in tie order (the pair
first, else highest first), the three cards' suit sequences in that same order, and a last bit
that is 1 for every hand of real cards. A hand with the Excuse as the beggar is worth its
weakest real completion's strength minus 1 (that bit cleared): just below that hand, above
every hand below it. Strengths of the same hand agree across configurations only where its
category does.

Rules: docs/rules.md §2.
"""

from __future__ import annotations

import argparse
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from lith_env.cards import CARDS, EXCUSE, NUM_CARDS, card_ids, deck

__all__ = [
    "CATEGORIES",
    "EXCUSE_ROLES",
    "QUALIFIERS",
    "CategoryCount",
    "HandClass",
    "beggar_completion",
    "category_of",
    "classify",
    "distribution",
    "hand_index",
    "hand_strength",
    "imposter_choice",
    "main",
    "percentile",
    "percentile_table",
    "print_table",
    "qualifier_of",
    "showdown_result",
    "strength",
    "strength_table",
    "tie_order",
]

# Highest first, as in the rules brief's ranked list.
CATEGORIES: tuple[str, ...] = (
    "Doubly Kindred",
    "Running Twin Flush",
    "Running Totum",
    "Pure Twin Flush",
    "Full Spread Trio",
    "Totum Trio",
    "Full Spread Pair",
    "Full Spread",
    "Impure Twin Flush",
    "Totum Pair",
    "Trio",
    "Totum",
    "Running Single Flush",
    "Kindred Pair",
    "Single Flush Pair",
    "Kindred Single Flush",
    "Run",
    "Fortune Single Flush",
    "Fortune Pair",
    "Kindred",
    "Fortune",
    "Single Flush",
    "Pair",
    "Void",
)
# Lowest first: a qualifier's index is its tie-break value.
QUALIFIERS: tuple[str, ...] = ("neither", "fortune", "kindred")
EXCUSE_ROLES: tuple[str, ...] = ("beggar", "imposter")

_NUM_CATEGORIES = len(CATEGORIES)
# Bit 0 is 1 for a hand of real cards; a beggar hand clears it (one below its weakest completion).
_CAT_SHIFT, _QUAL_SHIFT = 42, 40
_RANK_SHIFTS = (36, 32, 28)
_SUIT_SHIFTS = (19, 10, 1)
_REAL = 1


class HandClass(NamedTuple):
    """A hand's category (from :data:`CATEGORIES`) and qualifier (from :data:`QUALIFIERS`)."""

    category: str
    qualifier: str


@dataclass(frozen=True)
class CategoryCount:
    """One row of the hand distribution: how many hands of the deck fall in a category."""

    category: str
    count: int
    kindred: int
    fortune: int
    neither: int
    probability: float


# ---------------------------------------------------------------------------------------------
# Card attributes as arrays (index = card id). The Excuse's entries are zeros and never read:
# a hand with the Excuse is valued through its real completions (see strength_table).

_RANK = np.array([c.rank for c in CARDS], dtype=np.int64)
_SUIT_MASK = np.array([sum(1 << (s - 1) for s in c.suits) for c in CARDS], dtype=np.int64)
_TYPE_MASK = np.array([sum(1 << t for t in c.types) for c in CARDS], dtype=np.int64)
# A card's suits high to low as base-7 digits: comparing codes of equal-length sequences
# compares the sequences lexicographically (Moons highest).
_SUIT_CODE = np.array(
    [sum(int(s) * 7 ** (2 - i) for i, s in enumerate(c.suits)) for c in CARDS], dtype=np.int64
)
_POPCOUNT = np.array([bin(i).count("1") for i in range(64)], dtype=np.int64)
_ALL_SUITS, _ALL_TYPES = 0b111111, 0b111


def _ladder(pawns_and_courts: bool) -> np.ndarray:
    """Each card's position on the rank ladder of the deck in play (for runs).

    Without Pawns and Courts, 9 is followed directly by Crown. The Excuse (never evaluated
    itself) gets a position far from every other.
    """
    ranks = sorted({c.rank for c in CARDS if c.rank} - (set() if pawns_and_courts else {10, 11}))
    position = {r: i for i, r in enumerate(ranks)}
    return np.array([position.get(c.rank, -100) for c in CARDS], dtype=np.int64)


def _hand_keys(triples: np.ndarray, pawns_and_courts: bool) -> np.ndarray:
    """Strengths of an (M, 3) array of distinct real card ids (no Excuse), bit 0 set."""
    suits, types = _SUIT_MASK[triples], _TYPE_MASK[triples]
    ranks = _RANK[triples]
    common_suits = suits[:, 0] & suits[:, 1] & suits[:, 2]
    all_suits = suits[:, 0] | suits[:, 1] | suits[:, 2]
    n_common_suits = _POPCOUNT[common_suits]
    common_types = types[:, 0] & types[:, 1] & types[:, 2]
    n_common_types = _POPCOUNT[common_types]

    # Totum: each suit exactly once, i.e. six suit marks in all covering all six suits.
    totum = (_POPCOUNT[suits].sum(axis=1) == 6) & (all_suits == _ALL_SUITS)
    fortune = (_POPCOUNT[types].sum(axis=1) == 3) & (
        (types[:, 0] | types[:, 1] | types[:, 2]) == _ALL_TYPES
    )
    kindred = n_common_types >= 1
    doubly_kindred = n_common_types >= 2
    twin_flush = n_common_suits >= 2
    pure_twin_flush = twin_flush & (all_suits == common_suits)
    single_flush = n_common_suits >= 1
    same01 = ranks[:, 0] == ranks[:, 1]
    same02 = ranks[:, 0] == ranks[:, 2]
    same12 = ranks[:, 1] == ranks[:, 2]
    trio = same01 & same12
    pair = same01 | same02 | same12
    positions = np.sort(_ladder(pawns_and_courts)[triples], axis=1)
    run = (positions[:, 1] == positions[:, 0] + 1) & (positions[:, 2] == positions[:, 1] + 1)

    conditions = [  # in CATEGORIES order, highest first; Void is the default
        doubly_kindred,
        run & twin_flush,
        run & totum,
        pure_twin_flush,
        trio & totum & fortune,
        trio & totum,
        pair & totum & fortune,
        totum & fortune,
        twin_flush,
        pair & totum,
        trio,
        totum,
        run & single_flush,
        pair & kindred,
        pair & single_flush,
        single_flush & kindred,
        run,
        fortune & single_flush,
        fortune & pair,
        kindred,
        fortune,
        single_flush,
        pair,
    ]
    position_in_list = np.select(conditions, range(len(conditions)), default=_NUM_CATEGORIES - 1)
    category = _NUM_CATEGORIES - 1 - position_in_list  # 23 = best
    qualifier = np.where(kindred, 2, np.where(fortune, 1, 0))

    # Tie order: pair members first, then by rank, then by suits, all high to low.
    in_pair = np.stack([same01 | same02, same01 | same12, same02 | same12], axis=1)
    order_value = (in_pair.astype(np.int64) << 13) | (ranks << 9) | _SUIT_CODE[triples]
    order_value = -np.sort(-order_value, axis=1)
    key = (category << _CAT_SHIFT) | (qualifier << _QUAL_SHIFT) | _REAL
    for i in range(3):
        key |= ((order_value[:, i] >> 9) & 0xF) << _RANK_SHIFTS[i]
        key |= (order_value[:, i] & 0x1FF) << _SUIT_SHIFTS[i]
    return key


# ---------------------------------------------------------------------------------------------
# The strength table: one entry per multiset {lo <= mid <= hi} of card ids, at the combinatorial
# index C(hi + 2, 3) + C(mid + 1, 2) + lo. Multisets with a repeated card and hands with a card
# outside the deck in play hold -1, so one check catches every invalid hand.

C3 = np.array([math.comb(i + 2, 3) for i in range(NUM_CARDS)], dtype=np.int64)
C2 = np.array([math.comb(i + 1, 2) for i in range(NUM_CARDS)], dtype=np.int64)
_TABLE_SIZE = math.comb(NUM_CARDS + 2, 3)


def _all_triples() -> np.ndarray:
    """Every set of three distinct card ids, as sorted rows."""
    ids = np.arange(NUM_CARDS)
    a, b, c = np.meshgrid(ids, ids, ids, indexing="ij")
    keep = (a < b) & (b < c)
    return np.stack([a[keep], b[keep], c[keep]], axis=1)


def _index_sorted(lo: np.ndarray, mid: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return C3[hi] + C2[mid] + lo


def _check_excuse(excuse: str | None) -> None:
    if excuse is None or excuse in EXCUSE_ROLES:
        return
    if excuse == "demon":
        raise ValueError(
            "excuse='demon' is decided per showdown by the engine's coin flip (heads imposter, "
            "tails beggar); evaluate the hand with excuse='beggar' or excuse='imposter'"
        )
    raise ValueError(f"excuse must be None, 'beggar' or 'imposter', got {excuse!r}")


def _completion_keys(pairs: np.ndarray, real: np.ndarray, pawns_and_courts: bool) -> np.ndarray:
    """Strengths of each pair of real cards (P, 2) completed by each card of ``real`` (R,):
    shape (P, R), -1 where the third card is one of the pair."""
    shape = (len(pairs), len(real))
    completed = np.stack(
        [
            np.broadcast_to(pairs[:, :1], shape),
            np.broadcast_to(pairs[:, 1:], shape),
            np.broadcast_to(real, shape),
        ],
        axis=2,
    ).reshape(-1, 3)
    usable = (completed[:, 2] != completed[:, 0]) & (completed[:, 2] != completed[:, 1])
    keys = np.full(len(completed), -1, dtype=np.int64)
    keys[usable] = _hand_keys(np.sort(completed[usable], axis=1), pawns_and_courts)
    return keys.reshape(shape)


@functools.cache
def strength_table(pawns_and_courts: bool = True, excuse: str | None = None) -> np.ndarray:
    """The strength of every 3-card multiset, indexed combinatorially (-1 where not a hand).

    Built once per configuration and cached; the returned array is read-only.
    """
    _check_excuse(excuse)
    in_play = np.zeros(NUM_CARDS, dtype=bool)
    in_play[deck(pawns_and_courts, excuse=excuse is not None)] = True

    triples = _all_triples()
    valid = in_play[triples].all(axis=1)
    triples = triples[valid]
    has_excuse = triples[:, 2] == EXCUSE  # EXCUSE is the highest id, so it sorts last
    keys = np.empty(len(triples), dtype=np.int64)
    keys[~has_excuse] = _hand_keys(triples[~has_excuse], pawns_and_courts)

    if excuse is not None:
        # A hand with the Excuse is valued through its completions: its two real cards with
        # any real card of the deck in play not already in it (one another player holds too).
        real = np.flatnonzero(in_play[:EXCUSE])
        completions = _completion_keys(triples[has_excuse, :2], real, pawns_and_courts)
        if excuse == "imposter":  # the best completion, which it then ties
            keys[has_excuse] = completions.max(axis=1)
        else:  # the beggar: one below the weakest completion (whose bit 0 is set)
            weakest = np.where(completions < 0, np.iinfo(np.int64).max, completions).min(axis=1)
            keys[has_excuse] = weakest - _REAL

    table = np.full(_TABLE_SIZE, -1, dtype=np.int64)
    table[_index_sorted(triples[:, 0], triples[:, 1], triples[:, 2])] = keys
    table.flags.writeable = False
    return table


@functools.cache
def percentile_table(pawns_and_courts: bool = True, excuse: str | None = None) -> np.ndarray:
    """:func:`percentile` of every 3-card multiset, indexed like :func:`strength_table`."""
    table = strength_table(pawns_and_courts, excuse)
    valid = np.sort(table[table >= 0])
    below = np.searchsorted(valid, table, side="left")
    not_above = np.searchsorted(valid, table, side="right")
    out = np.where(table >= 0, (below + not_above) / (2 * len(valid)), np.nan)
    out.flags.writeable = False
    return out


_CHUNK = 65536  # hands per block: keeps the intermediates in cache


@functools.cache
def _pair_index(dtype: np.dtype) -> np.ndarray:
    """C(hi + 2, 3) + C(mid + 1, 2) at [hi * NUM_CARDS + mid]: two index terms in one gather."""
    return (C3[:, None] + C2[None, :]).ravel().astype(dtype)


def _lookup(hands: object, table: np.ndarray) -> np.ndarray:
    """Gather ``table`` at each hand's combinatorial index; shape (..., 3) -> (...).

    Works block by block in reused buffers: each block's three columns are copied out
    contiguously (in the input's own width where that is int32 or int64), sorted with a
    min/max network rather than ``np.sort``, and turned into indices in place.
    """
    hands = np.asarray(hands)
    if hands.ndim == 0 or hands.shape[-1] != 3 or not np.issubdtype(hands.dtype, np.integer):
        raise ValueError(
            f"hands must be an integer array of shape (..., 3), got {hands.dtype} {hands.shape}"
        )
    batch_shape = hands.shape[:-1]
    flat = hands.reshape(-1, 3)
    if flat.dtype not in (np.int32, np.int64):
        flat = flat.astype(np.int64)
    pair_index = _pair_index(flat.dtype)
    n = len(flat)
    out = np.empty(n, dtype=table.dtype)
    columns = np.empty((3, min(n, _CHUNK)), dtype=flat.dtype)
    spare = np.empty(columns.shape[1], dtype=flat.dtype)
    for start in range(0, n, _CHUNK):
        block = flat[start : start + _CHUNK]
        m = len(block)
        a, b, c = columns[:, :m]
        np.copyto(columns[:, :m], block.T)
        lo = spare[:m]
        # Sort network; the comments say what each buffer holds afterwards.
        np.minimum(a, b, out=lo)  # lo = min(a, b)
        np.maximum(a, b, out=b)  # b = max(a, b)
        np.minimum(b, c, out=a)  # a = min(max(a, b), c)
        np.maximum(b, c, out=b)  # b = hi
        np.minimum(lo, c, out=c)  # c = lo of the three
        np.maximum(lo, a, out=a)  # a = mid
        hi, mid, lo = b, a, c
        if lo.min() < 0 or hi.max() >= NUM_CARDS:
            row = start + int(np.argmax((lo < 0) | (hi >= NUM_CARDS)))
            where = np.unravel_index(row, batch_shape) if batch_shape else ()
            raise ValueError(
                f"hand at index {tuple(int(i) for i in where)} has a card id outside "
                f"0-{NUM_CARDS - 1}: {flat[row].tolist()}"
            )
        hi *= NUM_CARDS
        hi += mid
        np.take(pair_index, hi, out=mid, mode="clip")
        mid += lo
        np.take(table, mid, out=out[start : start + m], mode="clip")
    return out.reshape(batch_shape)


def _raise_invalid(hands: object, invalid: np.ndarray, pawns_and_courts: bool, excuse) -> None:
    """Raise ``ValueError`` for the first invalid hand, naming its index and what is wrong."""
    where = tuple(int(i) for i in np.argwhere(invalid)[0])
    cards = [int(x) for x in np.asarray(hands)[where]]
    try:
        _validate_hand(cards, pawns_and_courts, excuse)
    except ValueError as error:
        raise ValueError(f"hand at index {where} {cards}: {error}") from None
    raise AssertionError(f"hand {cards} is valid but has no table entry")  # pragma: no cover


def strength(
    hands: object, *, pawns_and_courts: bool = True, excuse: str | None = None
) -> np.ndarray:
    """Strengths of hands given as card ids in any order: shape (..., 3) -> int64 (...).

    Higher wins and equal splits, exact to every tie rule. A hand with a repeated card or a
    card outside the deck in play raises ``ValueError`` naming the hand and the card.
    """
    out = _lookup(hands, strength_table(pawns_and_courts, excuse))
    if out.size and out.min() < 0:
        _raise_invalid(hands, out < 0, pawns_and_courts, excuse)
    return out


def showdown_result(
    mine: object, theirs: object, *, pawns_and_courts: bool = True, excuse: str | None = None
) -> np.ndarray:
    """+1, -1 or 0 for each pair of hands (..., 3) (broadcast): ``mine`` beats, loses to or
    ties ``theirs`` at a showdown. Under the demon Excuse, whose role is drawn at the
    showdown, the mean over its two roles. Hands are not validated (the fast path)."""
    roles = ("imposter", "beggar") if excuse == "demon" else (excuse,)
    total = 0.0
    for role in roles:
        table = strength_table(pawns_and_courts, role)
        total = total + np.sign(_lookup(mine, table) - _lookup(theirs, table))
    return np.asarray(total / len(roles), dtype=np.float64)


def percentile(
    hands: object, *, pawns_and_courts: bool = True, excuse: str | None = None
) -> np.ndarray:
    """Strength percentile of hands, in [0, 1]: the share of all hands of the deck in play
    that the hand beats, ties counting half. Shape (..., 3) -> float64 (...)."""
    out = _lookup(hands, percentile_table(pawns_and_courts, excuse))
    invalid = np.isnan(out)
    if invalid.any():
        _raise_invalid(hands, invalid, pawns_and_courts, excuse)
    return out


@functools.cache
def _scalar_tables(pawns_and_courts: bool, excuse: str | None) -> tuple[list[int], list[float]]:
    return (
        strength_table(pawns_and_courts, excuse).tolist(),
        percentile_table(pawns_and_courts, excuse).tolist(),
    )


_C3_LIST, _C2_LIST = C3.tolist(), C2.tolist()


def hand_index(cards: Sequence[int]) -> int:
    """The combinatorial index of one hand of three card ids, in any order (no validation)."""
    lo, mid, hi = sorted(cards)
    return _C3_LIST[hi] + _C2_LIST[mid] + lo


def hand_strength(
    cards: Sequence[int], *, pawns_and_courts: bool = True, excuse: str | None = None
) -> tuple[int, float]:
    """(strength, percentile) of one hand of three card ids: the fast path for one hand at a
    time, with the same values and errors as :func:`strength` and :func:`percentile`."""
    strengths, percentiles = _scalar_tables(pawns_and_courts, excuse)
    try:
        lo, mid, hi = sorted(int(c) for c in cards)
        index = _C3_LIST[hi] + _C2_LIST[mid] + lo
        value = strengths[index] if lo >= 0 else -1
    except (TypeError, ValueError, IndexError):
        value = -1
    if value < 0:
        _validate_hand(list(cards), pawns_and_courts, excuse)  # raises, naming the problem
        raise ValueError(f"not a hand: {cards!r}")  # pragma: no cover
    return value, percentiles[index]


def category_of(strengths: object) -> np.ndarray:
    """Category index (into :data:`CATEGORIES`, 0 = Doubly Kindred) of each strength; for a
    beggar hand, that of its weakest completion."""
    return _NUM_CATEGORIES - 1 - (np.asarray(strengths, dtype=np.int64) >> _CAT_SHIFT)


def qualifier_of(strengths: object) -> np.ndarray:
    """Qualifier index (into :data:`QUALIFIERS`, 0 = neither) of each strength; for a beggar
    hand, that of its weakest completion."""
    return (np.asarray(strengths, dtype=np.int64) >> _QUAL_SHIFT) & 0b11


# ---------------------------------------------------------------------------------------------
# One hand at a time, with names.


def _validate_hand(hand: object, pawns_and_courts: bool, excuse: str | None) -> list[int]:
    _check_excuse(excuse)
    if isinstance(hand, str | bytes) or not isinstance(hand, Sequence | np.ndarray):
        raise ValueError(f"a hand is a sequence of three cards, got {hand!r}")
    ids = card_ids(list(hand))
    if len(ids) != 3:
        raise ValueError(f"a hand has exactly three cards, got {len(ids)}: {list(hand)!r}")
    for i in ids:
        if ids.count(i) > 1:
            raise ValueError(f"duplicate card in hand: {CARDS[i].name}")
    in_play = set(deck(pawns_and_courts, excuse=excuse is not None))
    for i in ids:
        if i not in in_play:
            if i == EXCUSE:
                raise ValueError(
                    "The Excuse is not in the deck in play: the Excuse variant is off "
                    "(pass excuse='beggar' or excuse='imposter')"
                )
            raise ValueError(
                f"{CARDS[i].name} is not in the deck in play: the basic deck has no Pawns or "
                "Courts (pass pawns_and_courts=True for the extended deck)"
            )
    return ids


def classify(
    hand: Sequence[str | int], *, pawns_and_courts: bool = True, excuse: str | None = None
) -> HandClass:
    """Category and qualifier of one hand of three card names or ids.

    With the Excuse, these are the category and qualifier of the hand it is valued by: as the
    imposter the best hand it can imitate, as the beggar the weakest hand its two other cards
    make with a real third card (it ranks just below that hand). Wrong input raises
    ``ValueError`` naming what was wrong.
    """
    ids = _validate_hand(hand, pawns_and_courts, excuse)
    key = int(strength_table(pawns_and_courts, excuse)[_index_sorted(*sorted(ids))])
    return HandClass(CATEGORIES[int(category_of(key))], QUALIFIERS[int(qualifier_of(key))])


def tie_order(hand: Sequence[str | int]) -> list[str]:
    """The hand's card names in the order ties compare them: a pair first (better-suited card
    first), otherwise highest rank first, equal ranks by suits."""
    ids = card_ids(list(hand))
    ranks = [CARDS[i].rank for i in ids]

    def order(i: int) -> tuple:
        card = CARDS[i]
        return (ranks.count(card.rank) == 2, card.rank, card.suits)

    return [CARDS[i].name for i in sorted(ids, key=order, reverse=True)]


def _completion(hand: Sequence[str | int], pawns_and_courts: bool, role: str, best: bool) -> str:
    """The real card that, in the Excuse's place, makes the best (or weakest) completion."""
    ids = _validate_hand(hand, pawns_and_courts, role)
    if EXCUSE not in ids:
        raise ValueError("the hand has no Excuse")
    others = [i for i in ids if i != EXCUSE]
    candidates = np.array([c for c in deck(pawns_and_courts) if c not in others])
    replaced = np.column_stack([np.full((len(candidates), 2), others), candidates])
    strengths = strength(replaced, pawns_and_courts=pawns_and_courts)
    pick = np.argmax(strengths) if best else np.argmin(strengths)
    return CARDS[candidates[int(pick)]].name


def imposter_choice(hand: Sequence[str | int], *, pawns_and_courts: bool = True) -> str:
    """The card the Excuse imitates as the imposter in ``hand``: the real card of the deck in
    play, not already in the hand, that makes the best hand (real hands never tie)."""
    return _completion(hand, pawns_and_courts, "imposter", best=True)


def beggar_completion(hand: Sequence[str | int], *, pawns_and_courts: bool = True) -> str:
    """The real card of the deck in play, not already in ``hand``, that makes the weakest hand
    in the Excuse's place: as the beggar, ``hand`` ranks just below that hand."""
    return _completion(hand, pawns_and_courts, "beggar", best=False)


def distribution(pawns_and_courts: bool = True, excuse: str | None = None) -> list[CategoryCount]:
    """How many hands of the deck in play fall in each category (highest first), with the
    qualifier breakdown and the probability of being dealt one."""
    table = strength_table(pawns_and_courts, excuse)
    keys = table[table >= 0]
    category, qualifier = category_of(keys), qualifier_of(keys)
    counts = np.zeros((_NUM_CATEGORIES, len(QUALIFIERS)), dtype=np.int64)
    np.add.at(counts, (category, qualifier), 1)
    total = len(keys)
    return [
        CategoryCount(
            category=name,
            count=int(counts[i].sum()),
            kindred=int(counts[i, 2]),
            fortune=int(counts[i, 1]),
            neither=int(counts[i, 0]),
            probability=float(counts[i].sum() / total),
        )
        for i, name in enumerate(CATEGORIES)
    ]


# ---------------------------------------------------------------------------------------------
# Command line: decktet hands --table [--basic] [--excuse ROLE] | CARD CARD CARD


def print_table(pawns_and_courts: bool = True, excuse: str | None = None) -> None:
    """Print the distribution of hands in the rules brief's layout: name, count, breakdown,
    probability."""
    from rich.console import Console
    from rich.table import Table

    rows = distribution(pawns_and_courts, excuse)
    total = sum(r.count for r in rows)
    title = ("With Pawns and Courts" if pawns_and_courts else "Without Pawns and Courts") + (
        f", the Excuse as {excuse}" if excuse else ""
    )
    table = Table(title=title, box=None, title_justify="left", pad_edge=False)
    table.add_column("Hand")
    for column in ("Number", "Kindred", "Fortune", "Neither", "Probability"):
        table.add_column(column, justify="right")
    for r in rows:
        table.add_row(
            r.category,
            str(r.count),
            str(r.kindred),
            str(r.fortune),
            str(r.neither),
            f"{r.probability:.5f}",
        )
    table.add_row("Total", str(total), "", "", "", f"{1:.5f}")
    Console(width=120).print(table)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point (see ``--help``)."""
    parser = argparse.ArgumentParser(
        prog="decktet hands",
        description="Lith hand table, or the category and strength percentile of one hand.",
    )
    parser.add_argument(
        "cards", nargs="*", help='three card names, e.g. "The Pact" Diplomat Mountain'
    )
    parser.add_argument(
        "--table", action="store_true", help="print the distribution of hands (default: off)"
    )
    parser.add_argument(
        "--basic",
        action="store_true",
        help="the basic deck, without Pawns and Courts (default: the extended deck)",
    )
    parser.add_argument(
        "--excuse",
        choices=EXCUSE_ROLES,
        help="add the Excuse in this role: beggar (dead weight, just below the weakest hand "
        "its two cards make with a real card) or imposter (the best such hand) (default: no "
        "Excuse)",
    )
    args = parser.parse_args(argv)
    pawns_and_courts = not args.basic
    if args.table:
        if args.cards:
            parser.error("give either --table or three cards, not both")
        print_table(pawns_and_courts, args.excuse)
        return 0
    if len(args.cards) != 3:
        parser.error(f"expected three cards or --table, got {len(args.cards)} card(s)")
    try:
        kind = classify(args.cards, pawns_and_courts=pawns_and_courts, excuse=args.excuse)
        ids = card_ids(args.cards)
        pct = float(percentile([ids], pawns_and_courts=pawns_and_courts, excuse=args.excuse)[0])
    except ValueError as error:
        parser.error(str(error))
    print(", ".join(tie_order(ids)))
    if args.excuse == "imposter" and EXCUSE in ids:
        copied = imposter_choice(ids, pawns_and_courts=pawns_and_courts)
        print(f"the Excuse plays as {copied}")
    if args.excuse == "beggar" and EXCUSE in ids:
        below = beggar_completion(ids, pawns_and_courts=pawns_and_courts)
        print(f"the Excuse is dead weight: just below the hand with {below} in its place")
    print(f"{kind.category} ({kind.qualifier})")
    print(f"strength percentile: {100 * pct:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
