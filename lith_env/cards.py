"""The Decktet as data: 45 cards, their ranks, suits and interpretive types.

A card's id is its index in :data:`CARDS`. Ids run by rank, low to high (Aces, 2-9, Pawns,
Courts, Crowns), with the Excuse last, so the 44-card extended deck is exactly ids 0-43.
Card names are the canonical identity of a card: every interface accepts and prints them.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import IntEnum

__all__ = [
    "CARDS",
    "EXCUSE",
    "NUM_CARDS",
    "RANK_NAMES",
    "Card",
    "Suit",
    "Type",
    "card_id",
    "card_ids",
    "deck",
]


class Suit(IntEnum):
    """The six suits; a higher value is a higher suit (Moons highest, Knots lowest)."""

    KNOTS = 1
    WYRMS = 2
    LEAVES = 3
    WAVES = 4
    SUNS = 5
    MOONS = 6

    @property
    def label(self) -> str:
        return self.name.capitalize()


class Type(IntEnum):
    """The three interpretive types (their values are bit positions, not an order)."""

    PERSONALITY = 0
    LOCATION = 1
    EVENT = 2

    @property
    def label(self) -> str:
        return self.name.capitalize()


RANK_NAMES: dict[int, str] = {
    0: "Excuse",
    1: "Ace",
    **{r: str(r) for r in range(2, 10)},
    10: "Pawn",
    11: "Court",
    12: "Crown",
}


@dataclass(frozen=True)
class Card:
    """One Decktet card.

    ``rank``: Excuse 0, Ace 1, 2-9, Pawn 10, Court 11, Crown 12.
    ``suits``: high to low. ``types``: interpretive types (empty for Aces and the Excuse).
    """

    id: int
    name: str
    rank: int
    suits: tuple[Suit, ...]
    types: tuple[Type, ...]

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank]

    @property
    def is_excuse(self) -> bool:
        return self.rank == 0

    def __str__(self) -> str:
        return self.name


M, S, WA, L, WY, K = Suit.MOONS, Suit.SUNS, Suit.WAVES, Suit.LEAVES, Suit.WYRMS, Suit.KNOTS
P, LO, E = Type.PERSONALITY, Type.LOCATION, Type.EVENT

# (name, rank, suits high to low, types) in id order. Source: docs/rules.md §1 (the card table).
_CARD_DATA: list[tuple[str, int, tuple[Suit, ...], tuple[Type, ...]]] = [
    *[(f"Ace of {s.label}", 1, (s,), ()) for s in (M, S, WA, L, WY, K)],
    ("The Author", 2, (M, K), (P,)),
    ("The Desert", 2, (S, WY), (LO,)),
    ("The Origin", 2, (WA, L), (LO, E)),
    ("The Journey", 3, (M, WA), (E,)),
    ("The Painter", 3, (S, K), (P,)),
    ("The Savage", 3, (L, WY), (P,)),
    ("The Mountain", 4, (M, S), (LO,)),
    ("The Sailor", 4, (WA, L), (P,)),
    ("The Battle", 4, (WY, K), (E,)),
    ("The Forest", 5, (M, L), (LO,)),
    ("The Discovery", 5, (S, WA), (E,)),
    ("The Soldier", 5, (WY, K), (P,)),
    ("The Lunatic", 6, (M, WA), (P,)),
    ("The Penitent", 6, (S, WY), (P,)),
    ("The Market", 6, (L, K), (LO, E)),
    ("The Chance Meeting", 7, (M, L), (E,)),
    ("The Castle", 7, (S, K), (LO,)),
    ("The Cave", 7, (WA, WY), (LO,)),
    ("The Diplomat", 8, (M, S), (P,)),
    ("The Mill", 8, (WA, L), (LO,)),
    ("The Betrayal", 8, (WY, K), (E,)),
    ("The Pact", 9, (M, S), (E,)),
    ("The Darkness", 9, (WA, WY), (LO,)),
    ("The Merchant", 9, (L, K), (P,)),
    ("The Watchman", 10, (M, WY, K), (P,)),
    ("The Light Keeper", 10, (S, WA, K), (P,)),
    ("The Borderland", 10, (WA, L, WY), (LO,)),
    ("The Harvest", 10, (M, S, L), (E,)),
    ("The Consul", 11, (M, WA, K), (P,)),
    ("The Rite", 11, (M, L, WY), (E,)),
    ("The Island", 11, (S, WA, WY), (LO,)),
    ("The Window", 11, (S, L, K), (LO,)),
    ("The Huntress", 12, (M,), (P,)),
    ("The Bard", 12, (S,), (P,)),
    ("The Sea", 12, (WA,), (LO,)),
    ("The End", 12, (L,), (LO, E)),
    ("The Calamity", 12, (WY,), (E,)),
    ("The Windfall", 12, (K,), (E,)),
    ("The Excuse", 0, (), ()),
]

CARDS: tuple[Card, ...] = tuple(
    Card(i, name, rank, suits, types) for i, (name, rank, suits, types) in enumerate(_CARD_DATA)
)
NUM_CARDS = len(CARDS)  # 45
EXCUSE = NUM_CARDS - 1  # the Excuse's id

_PAWNS_AND_COURTS = frozenset(c.id for c in CARDS if c.rank in (10, 11))


def _normalize(name: str) -> str:
    words = name.strip().lower().split()
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


_BY_NAME: dict[str, int] = {_normalize(c.name): c.id for c in CARDS}


def card_id(name: str | int) -> int:
    """Return the id of a card given its name (case-insensitive, "The" optional) or its id.

    An unknown name raises ``ValueError`` that suggests the closest card names.
    """
    if isinstance(name, bool):
        raise ValueError(f"not a card: {name!r}")
    if isinstance(name, int):
        if 0 <= name < NUM_CARDS:
            return name
        raise ValueError(f"card id {name} is out of range 0-{NUM_CARDS - 1}")
    if not isinstance(name, str):
        raise ValueError(f"not a card name or id: {name!r}")
    try:
        return _BY_NAME[_normalize(name)]
    except KeyError:
        close = difflib.get_close_matches(_normalize(name), list(_BY_NAME), n=3, cutoff=0.5)
        hint = ", ".join(repr(CARDS[_BY_NAME[c]].name) for c in close)
        raise ValueError(
            f"unknown card {name!r}" + (f"; did you mean {hint}?" if hint else "")
        ) from None


def card_ids(cards: object) -> list[int]:
    """Ids of a sequence of card names and/or ids (each checked by :func:`card_id`)."""
    if isinstance(cards, str | int):
        raise ValueError(f"expected a sequence of cards, got {cards!r}")
    return [card_id(c) for c in cards]  # type: ignore[attr-defined]


def deck(pawns_and_courts: bool = True, excuse: bool = False) -> list[int]:
    """The ids of the cards in play, in id order.

    36 cards (basic deck), 44 with Pawns and Courts; the Excuse adds one.
    """
    return [
        c.id
        for c in CARDS
        if (pawns_and_courts or c.id not in _PAWNS_AND_COURTS) and (excuse or c.id != EXCUSE)
    ]
