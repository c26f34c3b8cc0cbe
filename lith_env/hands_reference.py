"""A plain, one-hand-at-a-time Lith hand evaluator written straight from the rule text.

It is slow on purpose: no tables, no bit tricks, just the sentences of docs/rules.md §2 as
Python, with its own category and qualifier order. Of the production code it uses only the card
data of :mod:`lith_env.cards` (the cards, their ranks, suits and types, names to ids, the deck).
The tests check the vectorized evaluator in :mod:`lith_env.hands` against it on every hand, and
the benchmark measures how much faster the table lookup is.
"""

from __future__ import annotations

from collections.abc import Sequence

from lith_env.cards import CARDS, EXCUSE, Card, Suit, Type, card_ids, deck

__all__ = ["CATEGORIES", "QUALIFIERS", "reference_category", "reference_key"]

# The 24 categories, highest first, typed in from the rules brief's ranked list (docs/rules.md §2,
# "Categories, highest first"), not taken from lith_env.hands: the tests compare the two, so a
# reordering in the production evaluator shows.
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
# Lowest first, so a qualifier's index is its tie-break: kindred beats fortune beats neither
# (docs/rules.md §2, "Ties").
QUALIFIERS: tuple[str, ...] = ("neither", "fortune", "kindred")

# (category, qualifier, ranks in tie order, suits in tie order, 1), or for a beggar hand its
# weakest completion's key with 0 last: just below that hand, above every hand below it.
RefKey = tuple[int, int, tuple[int, ...], tuple[tuple[int, ...], ...], int]


def _is_run(cards: Sequence[Card], pawns_and_courts: bool) -> bool:
    """Consecutive ranks on the ladder of the deck in play (9-Pawn-Court-Crown, or 9-Crown);
    no wrapping."""
    ladder = [1, 2, 3, 4, 5, 6, 7, 8, 9, *([10, 11] if pawns_and_courts else []), 12]
    positions = sorted(ladder.index(c.rank) for c in cards)
    return positions[1] == positions[0] + 1 and positions[2] == positions[1] + 1


def _category(cards: Sequence[Card], pawns_and_courts: bool) -> str:
    """The highest category whose description the hand fits."""
    common_suits = set(cards[0].suits) & set(cards[1].suits) & set(cards[2].suits)
    all_suits = set(cards[0].suits) | set(cards[1].suits) | set(cards[2].suits)
    suit_marks = sorted(s for c in cards for s in c.suits)
    type_marks = sorted(t for c in cards for t in c.types)
    common_types = set(cards[0].types) & set(cards[1].types) & set(cards[2].types)
    ranks = [c.rank for c in cards]

    totum = suit_marks == sorted(Suit)  # each of the six suits exactly once
    fortune = type_marks == sorted(Type)  # each of the three types exactly once
    kindred = len(common_types) >= 1
    twin_flush = len(common_suits) >= 2
    single_flush = len(common_suits) >= 1
    trio = len(set(ranks)) == 1
    pair = len(set(ranks)) <= 2
    run = _is_run(cards, pawns_and_courts)

    fits = {
        "Doubly Kindred": len(common_types) >= 2,
        "Running Twin Flush": run and twin_flush,
        "Running Totum": run and totum,
        "Pure Twin Flush": twin_flush and all_suits == common_suits,
        "Full Spread Trio": trio and totum and fortune,
        "Totum Trio": trio and totum,
        "Full Spread Pair": pair and totum and fortune,
        "Full Spread": totum and fortune,
        "Impure Twin Flush": twin_flush and all_suits != common_suits,
        "Totum Pair": pair and totum,
        "Trio": trio,
        "Totum": totum,
        "Running Single Flush": run and single_flush,
        "Kindred Pair": pair and kindred,
        "Single Flush Pair": pair and single_flush,
        "Kindred Single Flush": single_flush and kindred,
        "Run": run,
        "Fortune Single Flush": fortune and single_flush,
        "Fortune Pair": fortune and pair,
        "Kindred": kindred,
        "Fortune": fortune,
        "Single Flush": single_flush,
        "Pair": pair,
        "Void": True,
    }
    return next(name for name in CATEGORIES if fits[name])


def _qualifier(cards: Sequence[Card]) -> str:
    common_types = set(cards[0].types) & set(cards[1].types) & set(cards[2].types)
    if common_types:
        return "kindred"
    if sorted(t for c in cards for t in c.types) == sorted(Type):
        return "fortune"
    return "neither"


def _tie_order(cards: Sequence[Card]) -> list[Card]:
    """Highest card first, except that a pair comes first (its better-suited card first)."""
    ranks = [c.rank for c in cards]
    paired = [c for c in cards if ranks.count(c.rank) == 2]
    rest = [c for c in cards if ranks.count(c.rank) != 2]

    def by_rank_then_suits(c: Card) -> tuple:
        return (c.rank, tuple(c.suits))

    return sorted(paired, key=by_rank_then_suits, reverse=True) + sorted(
        rest, key=by_rank_then_suits, reverse=True
    )


def _real_key(cards: Sequence[Card], pawns_and_courts: bool) -> RefKey:
    ordered = _tie_order(cards)
    return (
        len(CATEGORIES) - 1 - CATEGORIES.index(_category(cards, pawns_and_courts)),
        QUALIFIERS.index(_qualifier(cards)),
        tuple(c.rank for c in ordered),
        tuple(tuple(int(s) for s in c.suits) for c in ordered),
        1,
    )


def reference_key(
    hand: Sequence[str | int], *, pawns_and_courts: bool = True, excuse: str | None = None
) -> RefKey:
    """A comparable key for one hand: higher wins, equal splits.

    The Excuse's hand is valued through its completions, its two other cards with any real card
    of the deck in play not already in the hand: as ``imposter`` it is worth the best of them;
    as ``beggar`` (dead weight) it ranks just below the weakest of them.
    """
    ids = card_ids(hand)
    if EXCUSE in ids and excuse not in ("imposter", "beggar"):
        raise ValueError(f"the Excuse needs a role ('beggar' or 'imposter'), got {excuse!r}")
    if EXCUSE in ids:
        others = [i for i in ids if i != EXCUSE]
        completions = [
            _real_key([CARDS[i] for i in (*others, c)], pawns_and_courts)
            for c in deck(pawns_and_courts)
            if c not in others
        ]
        if excuse == "imposter":
            return max(completions)
        return (*min(completions)[:4], 0)
    return _real_key([CARDS[i] for i in ids], pawns_and_courts)


def reference_category(
    hand: Sequence[str | int], *, pawns_and_courts: bool = True, excuse: str | None = None
) -> tuple[str, str]:
    """(category, qualifier) of one hand, from :func:`reference_key`."""
    key = reference_key(hand, pawns_and_courts=pawns_and_courts, excuse=excuse)
    return CATEGORIES[len(CATEGORIES) - 1 - key[0]], QUALIFIERS[key[1]]
