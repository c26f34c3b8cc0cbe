"""Lith: the Decktet, hand evaluation, and (with issue 3) the game engine and environments."""

from lith_env.cards import CARDS, Card, card_id, deck
from lith_env.hands import classify, distribution, percentile, strength

__all__ = ["CARDS", "Card", "card_id", "classify", "deck", "distribution", "percentile", "strength"]
