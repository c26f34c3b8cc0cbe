"""Lot values and scores (docs/rules.md §4), shared by the engine and :func:`score_player`.

A player's score, with C, H, B the values of their Collars, Hope and Blood lots, is
``|C - B| + |H - B|``; the lowest score wins. A lot's value is the sum of its Choice values,
unless a pre-summing variant applies:

- ``"ignore"``: the Choices paired with Quills and those paired with Winds are totalled apart;
  the smaller of the two totals is dropped (Twist-paired Choices always count);
- ``"subtract"``: the lot is worth Quill-side minus Wind-side plus Twist-side, signed, and the
  differences use the signed values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gendeneia_env.cards import CHOICE_SUITS, SUIT_NAMES, parse_pair, suit, value

__all__ = ["LOT_NAMES", "PRESUMS", "lot_value", "score", "score_player"]

PRESUMS = (None, "ignore", "subtract")
LOT_NAMES = tuple(SUIT_NAMES[s] for s in CHOICE_SUITS)  # Collars, Hope, Blood


_VALUE = tuple(value(card) for card in range(72))  # read in every rollout step of a search
_SUIT = tuple(suit(card) for card in range(72))


def lot_value(pairs: Iterable[tuple[int, int]], presum: str | None = None) -> int:
    """The value of one lot of (choice id, force id) pairs."""
    if presum is None:
        return sum([_VALUE[choice] for choice, _ in pairs])
    sides = {"Q": 0, "W": 0, "T": 0}
    for choice, force in pairs:
        sides[_SUIT[force]] += _VALUE[choice]
    if presum is None:
        return sides["Q"] + sides["W"] + sides["T"]
    if presum == "ignore":
        return max(sides["Q"], sides["W"]) + sides["T"]
    if presum == "subtract":
        return sides["Q"] - sides["W"] + sides["T"]
    raise ValueError(f"presum: must be None, 'ignore' or 'subtract', got {presum!r}")


def score(collars: int, hope: int, blood: int) -> int:
    """A player's score from the values of their three lots: ``|C - B| + |H - B|``."""
    return abs(collars - blood) + abs(hope - blood)


def score_player(lots: Mapping[str, Sequence[str]], presum: str | None = None) -> int:
    """The score of a player whose lots are given as written pairs, e.g.
    ``{"Collars": ["2C/8W", "4C/3W"], "Hope": [...], "Blood": [...]}`` (a missing lot is
    empty). A malformed pair, a Choice in the wrong lot or an unknown lot raises ``ValueError``
    naming it."""
    if presum not in PRESUMS:
        raise ValueError(f"presum: must be None, 'ignore' or 'subtract', got {presum!r}")
    values = dict.fromkeys(LOT_NAMES, 0)
    for name, written in lots.items():
        lot = next(
            (n for n in LOT_NAMES if isinstance(name, str) and n.lower() == name.lower()), None
        )
        if lot is None:
            raise ValueError(f"unknown lot {name!r}; lots are {', '.join(LOT_NAMES)}")
        pairs = [parse_pair(text) for text in written]
        for text, (choice, _) in zip(written, pairs, strict=True):
            if SUIT_NAMES[suit(choice)] != lot:
                raise ValueError(f"pair {text!r} does not belong in the {lot} lot")
        values[lot] = lot_value(pairs, presum)
    return score(values["Collars"], values["Hope"], values["Blood"])
