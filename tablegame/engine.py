"""The contract every game engine keeps, so one set of wrappers, agents and tournaments serves
all games. Plain Python: no Gymnasium, PettingZoo or torch here."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["IllegalActionError", "TurnBasedGame", "as_action_id", "illegal_id_error"]


class IllegalActionError(ValueError):
    """An action that is not legal now. The message lists the legal actions; the game state is
    left exactly as it was."""


def illegal_id_error(
    action_id: object, action: object, names: list[str], mask: np.ndarray, extra: str = ""
) -> IllegalActionError:
    """The error for an action id that is not legal: what it stood for and the legal ids."""
    legal = ", ".join(f"{i} ({names[i]})" for i in np.flatnonzero(mask))
    return IllegalActionError(
        f"illegal action id {action_id!r}"
        + (f" ({action})" if action is not None else "")
        + f"; legal ids: {legal or 'none'}"
        + extra
    )


def as_action_id(action: object) -> int:
    """An env's action as a plain int: a Python or numpy integer, or an integer array of one
    element (as vectorized policies hand them over). Anything else (a float, a bool, a string)
    raises :class:`IllegalActionError` naming it: nothing is rounded or guessed."""
    if type(action) is int or type(action) is np.int64:  # the usual cases, first
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
        return int(action.reshape(()))
    if isinstance(action, int | np.integer) and not isinstance(action, bool):
        return int(action)
    raise IllegalActionError(f"action: must be an integer action id, got {action!r}")


@runtime_checkable
class TurnBasedGame(Protocol):
    """A seeded, turn-based, multi-seat game, seen one seat at a time.

    ``current_player`` is the seat to act (``None`` exactly when ``is_over``); ``apply_id`` takes an
    action id of the game's ``Discrete`` action space and raises :class:`IllegalActionError`
    (changing nothing) when the id is not in ``action_mask()``; ``encode(seat)`` is that seat's
    flat observation, whose entries lie in [``observation_low``, 1]; ``returns()`` the chips
    or score each seat has won so far; ``is_out(seat)`` says the seat has no decision left
    while the game goes on without it (a player out of chips in a match).
    """

    num_players: int
    num_actions: int
    observation_size: int
    observation_low: float

    @property
    def current_player(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    def action_mask(self) -> np.ndarray: ...

    def apply_id(self, action_id: int) -> None: ...

    def encode(self, seat: int) -> np.ndarray: ...

    def returns(self) -> np.ndarray: ...

    def is_out(self, seat: int) -> bool: ...

    def render_text(self, seat: int | None = None) -> str: ...
