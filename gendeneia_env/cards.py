"""The Lilitai deck: six suits of twelve cards numbered 0-11 (docs/rules.md §4).

Choices: Collars (C), Hope (H), Blood (B). Forces: Quills (Q), Winds (W), and in Gendeneía
the Twists (T). A zero counts as 12. A card's id is ``suit index * 12 + number`` in the suit
order C, H, B, Q, W, T, so Choices are ids 0-35 and Forces 36-71. Written form: number then
suit letter (``"3B"``, ``"0Q"``); a pair is written Choice/Force (``"3B/2Q"``).
"""

from __future__ import annotations

import re

__all__ = [
    "CHOICE_SUITS",
    "FORCE_SUITS",
    "NUM_CARDS",
    "SUITS",
    "SUIT_NAMES",
    "TWIST_NAMES",
    "card",
    "card_name",
    "is_choice",
    "number",
    "pair_name",
    "parse_card",
    "parse_pair",
    "suit",
    "value",
]

SUITS = "CHBQWT"
SUIT_NAMES = {"C": "Collars", "H": "Hope", "B": "Blood", "Q": "Quills", "W": "Winds", "T": "Twists"}
CHOICE_SUITS = "CHB"
FORCE_SUITS = "QWT"
NUM_CARDS = 72
TWIST_NAMES = (
    "Zelteta",
    "Ighina",
    "Haspina",
    "Zelmota",
    "Víglina",
    "Shistoina",
    "Zelamekhtina",
    "Akoa",
    "Pléa",
    "Atsha",
    "Thela",
    "Stillanivía",
)


def card(number_: int, suit_: str) -> int:
    """The id of a card given its number (0-11) and suit letter."""
    return SUITS.index(suit_) * 12 + number_


def suit(card_id: int) -> str:
    """The suit letter of a card."""
    return SUITS[card_id // 12]


def number(card_id: int) -> int:
    """The printed number, 0-11."""
    return card_id % 12


def value(card_id: int) -> int:
    """The face value: the number, a zero counting as 12."""
    return card_id % 12 or 12


def is_choice(card_id: int) -> bool:
    return card_id < 36


def card_name(card_id: int) -> str:
    """Written form, e.g. ``"3B"``."""
    return f"{number(card_id)}{suit(card_id)}"


def pair_name(choice: int, force: int) -> str:
    """Written form of a pair, e.g. ``"3B/2Q"``."""
    return f"{card_name(choice)}/{card_name(force)}"


_CARD = re.compile(r"^\s*(\d{1,2})\s*([CHBQWTchbqwt])\s*$")


def parse_card(text: str) -> int:
    """The id of a written card (``"3B"``, ``"0q"``); ``ValueError`` naming what is wrong."""
    match = _CARD.match(text) if isinstance(text, str) else None
    if not match:
        raise ValueError(
            f"not a card: {text!r} (expected a number 0-11 and a suit letter C, H, B, Q, W or T)"
        )
    n, s = int(match.group(1)), match.group(2).upper()
    if n > 11:
        raise ValueError(f"not a card: {text!r} (numbers run 0-11)")
    return card(n, s)


def parse_pair(text: str) -> tuple[int, int]:
    """(choice id, force id) of a written pair ``"Choice/Force"``; ``ValueError`` naming it."""
    if not isinstance(text, str) or text.count("/") != 1:
        raise ValueError(f"not a pair: {text!r} (expected Choice/Force, e.g. '3B/2Q')")
    left, right = text.split("/")
    try:
        choice, force = parse_card(left), parse_card(right)
    except ValueError as error:
        raise ValueError(f"bad pair {text!r}: {error}") from None
    if not is_choice(choice) or is_choice(force):
        raise ValueError(f"bad pair {text!r}: a pair is a Choice (C, H, B) then a Force (Q, W, T)")
    return choice, force
