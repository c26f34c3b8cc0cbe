"""Gendeneía as learners and agents see it: action ids, masks, encoded observations, rewards.

:class:`GendeneiaTable` keeps the engine contract of :mod:`tablegame.engine`, so the generic
Gymnasium and PettingZoo wrappers drive it like Lith.
"""

from __future__ import annotations

import numpy as np

from gendeneia_env import encoding
from gendeneia_env.cards import pair_name
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame, GendeneiaView
from gendeneia_env.scoring import LOT_NAMES

__all__ = ["REWARDS", "GendeneiaTable", "check_reward", "seat_returns"]

REWARDS = ("final", "shaped", "shaped_win")


def check_reward(reward: str, reward_scale: float) -> float:
    """``reward`` and ``reward_scale`` checked (``ValueError`` naming either); the scale."""
    if reward not in REWARDS:
        raise ValueError(f"reward: must be one of {', '.join(REWARDS)}, got {reward!r}")
    if (
        not isinstance(reward_scale, int | float)
        or isinstance(reward_scale, bool)
        or reward_scale <= 0
    ):
        raise ValueError(f"reward_scale: must be a positive number, got {reward_scale!r}")
    return float(reward_scale)


def seat_returns(scores: np.ndarray, over: np.ndarray, reward: str, scale: float) -> np.ndarray:
    """Every seat's return at many tables: ``scores`` (tables, seats), ``over`` (tables,).
    See :class:`GendeneiaTable`; a table still playing returns zeros under ``"final"``."""
    n = scores.shape[1]
    scores = scores.astype(float)
    others_mean = (scores.sum(axis=1, keepdims=True) - scores) / (n - 1)
    margin = (others_mean - scores) * scale
    if reward == "final":
        margin[~over] = 0.0
    elif reward == "shaped_win":
        best = scores == scores.min(axis=1, keepdims=True)
        shares = best / best.sum(axis=1, keepdims=True)
        margin[over] += shares[over] - 1 / n
    return margin


class GendeneiaTable:
    """A :class:`GendeneiaGame` behind action ids, flat observations and rewards.

    A seat's return is ``reward_scale`` x (the mean of the other seats' scores minus its own):
    with ``reward="final"`` it is counted once, when the game ends; with ``"shaped"`` it is the
    running value after every action, so the rewards of a game sum to the same final figure.
    ``"shaped_win"`` is ``"shaped"`` plus, when the game ends, the seat's share of the win
    (1 / the number of seats tied for the lowest score, else 0) minus 1 / players: it pays
    winning, which the score margin alone does not. Returns of all seats sum to zero.
    """

    def __init__(self, config: GendeneiaConfig, reward: str = "final", reward_scale: float = 0.1):
        self.reward_scale = check_reward(reward, reward_scale)
        self.config = config
        self.reward = reward
        self.num_players = config.num_players
        self.num_actions = encoding.num_actions(config)
        self.observation_size = encoding.observation_size(config)
        self.observation_low = -1.0  # signed score gaps and effects
        self.action_names = encoding.action_names(config)
        self.game = GendeneiaGame(config)

    def reset(self, seed: int | None = None) -> None:
        self.game.reset(seed)

    @property
    def current_player(self) -> int | None:
        return self.game.current

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def action_mask(self) -> np.ndarray:
        return encoding.action_mask(self.game)

    def apply_id(self, action_id: int) -> None:
        self.game.apply(encoding.action_from_id(self.game, action_id))

    def observe(self, seat: int) -> GendeneiaView:
        return self.game.observe(seat)

    def encode(self, seat: int) -> np.ndarray:
        return encoding.encode(self.game.observe(seat), self.config)

    def returns(self) -> np.ndarray:
        game = self.game
        scores = np.array([game.scores()])
        return seat_returns(scores, np.array([game.is_over]), self.reward, self.reward_scale)[0]

    def is_out(self, seat: int) -> bool:
        """Never: no player leaves a game of Gendeneía before it ends."""
        return False

    def render_text(self, seat: int | None = None) -> str:
        """Every player's lots and scores as a table, the hand of ``seat`` shown."""
        game = self.game
        lines = [
            f"Gendeneia - round {game.round + 1}"
            + (f"/{self.config.max_rounds}" if self.config.max_rounds else "")
            + f" - reshuffles {game.reshuffles} - draw piles {len(game.piles['choice'].draw)}"
            f" Choices, {len(game.piles['force'].draw)} Forces"
        ]
        if game.is_over:
            lines[0] += f" - over ({game.end_reason})"
        width = max(
            [18]
            + [
                len(" ".join(pair_name(*p) for p in lot))
                for seat_lots in game.lots
                for lot in seat_lots
            ]
        )
        header = (
            f"{'seat':<10}"
            + "".join(f"{name:<{width + 2}}" for name in LOT_NAMES)
            + "values   score"
        )
        lines.append(header)
        scores = game.scores()
        for s in range(self.num_players):
            marks = (">" if s == game.current else " ") + ("L" if s == game.leader else " ")
            cells = "".join(
                f"{' '.join(pair_name(*p) for p in lot) or '-':<{width + 2}}"
                for lot in game.lots[s]
            )
            values = "/".join(str(v) for v in game.lot_values(s))
            lines.append(f"{marks} {s:<7}{cells}{values:<9}{scores[s]}")
        if game.temp_lots is not None:
            cells = "".join(
                f"{' '.join(pair_name(*p) for p in lot) or '-':<{width + 2}}"
                for lot in game.temp_lots
            )
            lines.append(f"{'  round':<10}{cells}")
        if seat is not None:
            choice, force = game.hands[seat]
            if choice is not None and force is not None:
                lines.append(f"seat {seat} holds {pair_name(choice, force)}")
        if game.pending is not None:
            twist, _, rule = game.pending
            lines.append(f"a Twist ({twist}T) {rule} remove a pair")
        return "\n".join(lines)
