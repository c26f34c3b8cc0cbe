"""Registering a small Python game with OpenSpiel, for the exact solver's independent checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def register_game(
    pyspiel: Any,
    name: str,
    state_class: type,
    info_string: Callable[[Any, int], str],
    num_actions: int,
    max_utility: float,
    max_length: int,
) -> Any:
    """Register and load a two-player zero-sum Python game with chance, imperfect
    information and terminal rewards. ``state_class(game)`` makes its states (a subclass of
    ``pyspiel.State``); ``info_string(state, player)`` is a player's information state."""
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=num_actions,
        max_chance_outcomes=num_actions,
        num_players=2,
        min_utility=-max_utility,
        max_utility=max_utility,
        utility_sum=0.0,
        max_game_length=max_length,
    )

    class Observer:
        def __init__(self, iig_obs_type, params):
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict = {}

        def set_from(self, state, player):
            pass

        def string_from(self, state, player):
            return info_string(state, player)

    class Game(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self):
            return state_class(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer(iig_obs_type, params)

    pyspiel.register_game(game_type, Game)
    return pyspiel.load_game(name)


def hand_state_class(pyspiel: Any) -> type:
    """A base for the states of a hand: subclasses set ``over``, ``folder`` (who folded, or
    None) and ``pot`` (each player's chips in), and give ``showdown()``, the first player's
    winnings at a showdown."""

    class HandState(pyspiel.State):
        def is_terminal(self):
            return self.over

        def returns(self):
            if not self.over:
                return [0.0, 0.0]
            if self.folder is not None:  # the folder loses what it put in
                loss = float(self.pot[self.folder])
                return [-loss, loss] if self.folder == 0 else [loss, -loss]
            won = float(self.showdown())
            return [won, -won]

    return HandState
