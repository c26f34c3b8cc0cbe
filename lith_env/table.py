"""The Lith match as learners and agents see it: action ids, masks, encoded observations.

:class:`LithTable` keeps the engine contract of :mod:`tablegame.engine`, so the generic
Gymnasium and PettingZoo wrappers, the agents and the tournaments drive it like any other game.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from lith_env import encoding
from lith_env.game import LithConfig, LithGame, PlayerView
from lith_env.hands import tie_order
from lith_env.incremental import IncrementalEncoder

__all__ = ["LithTable", "check_first_decision", "seat_status"]


def check_first_decision(config: LithConfig, learner_seat: int | None = None) -> None:
    """Refuse rules under which an env would wait for ever for a decision. In a one-round game
    a seat with no chips left after its ante has no decision (no exchange follows), and with
    at most one seat left to bet the hand goes from the deal straight to the showdown, hand
    after hand (``ValueError`` naming ``rounds``); nor would a fixed learner seat starting that
    short ever decide (naming ``learner_seat``). The engine itself plays such hands, and such
    a hand later in a match: it books it and deals the next one."""
    if config.rounds != 1:
        return  # every seat in the hand decides at each exchange
    stacks, ante = config.stacks, config.ante
    if sum(c > ante for c in stacks) < 2:
        raise ValueError(
            f"rounds: a one-round game needs two seats with more chips than the ante ({ante}), "
            f"or no hand has a decision to make; starting_chips is {config.starting_chips!r}"
        )
    if learner_seat is not None and stacks[learner_seat] <= ante:
        raise ValueError(
            f"learner_seat: seat {learner_seat} starts with {stacks[learner_seat]} chip(s), no "
            f"more than the ante ({ante}): in a one-round game it would never have a decision"
        )


def seat_status(view: PlayerView, seat: int) -> str:
    """A seat's state in the hand, in a word: out (of the match), folded, all-in or in."""
    if not view.dealt_in[seat]:
        return "out"
    if view.folded[seat]:
        return "folded"
    return "all-in" if view.stacks[seat] == 0 else "in"


class LithTable:
    """A :class:`LithGame` behind action ids and flat observations (``docs/lith_env.md``).

    ``episode="hand"`` plays one hand from the starting stacks; ``"match"`` plays until one
    player holds every chip or ``max_hands`` is reached. The first dealer is drawn from the
    seed.
    """

    def __init__(self, config: LithConfig, episode: str = "hand") -> None:
        if episode not in ("hand", "match"):
            raise ValueError(f"episode: must be 'hand' or 'match', got {episode!r}")
        if episode == "hand" and config.max_hands not in (None, 1):
            raise ValueError(
                f"max_hands: a 'hand' episode plays one hand, got {config.max_hands!r}"
            )
        if episode == "hand":
            config = dataclasses.replace(config, max_hands=1)
        check_first_decision(config)
        self.config = config
        self.episode = episode
        self.num_players = config.num_players
        self.num_actions = encoding.num_actions(config)
        self.observation_size = encoding.observation_size(config)
        self.observation_low = 0.0
        self.action_names = encoding.action_names(config)
        self.game = LithGame(config, seed=None, first_dealer=None)
        self._encoder = IncrementalEncoder(config)
        self._mask_for: object = None  # the legal-actions object self._mask was built from
        self._mask = np.zeros(self.num_actions, dtype=np.int8)

    def reset(self, seed: int | None = None) -> None:
        self.game.reset(seed, first_dealer=None)

    @property
    def current_player(self) -> int | None:
        return self.game.current_player

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def action_mask(self) -> np.ndarray:
        game = self.game
        if game.is_over:
            return np.zeros(self.num_actions, dtype=np.int8)
        legal = game.hand.legal_actions()  # cached by the engine until the next action
        if self._mask_for is not legal:
            self._mask_for, self._mask = legal, encoding.legal_mask(game.hand)
        return self._mask.copy()

    def apply_id(self, action_id: int) -> None:
        if self.game.is_over:
            from tablegame.engine import IllegalActionError

            raise IllegalActionError(f"illegal action id {action_id!r}: the match is over")
        self.game.apply(encoding.action_from_id(self.game.hand, action_id))

    def observe(self, seat: int) -> PlayerView:
        return self.game.observe(seat)

    def encode(self, seat: int) -> np.ndarray:
        """``seat``'s observation: ``encoding.encode(self.observe(seat), config)``, kept up to
        date action by action (:mod:`lith_env.incremental`)."""
        if not (type(seat) is int and 0 <= seat < self.num_players):
            self.game.observe(seat)  # raises the engine's error for a bad seat
        return self._encoder.encode(self.game.hand, seat)

    def returns(self) -> np.ndarray:
        return self.game.returns()

    def is_out(self, seat: int) -> bool:
        """Out of the match: no chips left, so not dealt into the hand being played."""
        return not self.game.hand.dealt_in[seat]

    def render_text(self, seat: int | None = None) -> str:
        """The table as text, seen from ``seat`` (its cards shown), or from nobody."""
        view = self.game.observe(seat if seat is not None else 0)
        hand = self.game.hand
        lines = [
            f"Lith, hand {self.game.hands_played + (0 if hand.is_over else 1)}"
            f" - {view.phase} {view.round + 1 if view.phase != 'over' else ''}".rstrip()
            + f" - pot {view.pot}",
        ]
        for s in range(self.num_players):
            status = seat_status(view, s)
            marks = ("D" if s == view.dealer else " ") + (">" if s == view.current_player else " ")
            shown = view.showdown.get(s)
            if seat == s:
                cards = ", ".join(tie_order(list(view.cards)))
            elif shown:
                cards = ", ".join(tie_order(list(shown)))
            else:
                cards = "(hidden)"
            chips = f"stack {view.stacks[s]:>4}  bet {view.bets[s]:>3}"
            lines.append(f"{marks} seat {s}: {chips}  {status:<7} {cards}")
        if view.actions:
            last = view.actions[-1]
            what = last["kind"] + (f" to {last['amount']}" if "amount" in last else "")
            lines.append(f"last: seat {last['seat']} {what}")
        if view.phase == "over":
            lines.append("net: " + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(view.net)))
        return "\n".join(lines)
