"""The games the suite plays, by name: what ``--game lith`` or ``game = "gendeneia"`` means.

Each game has one description, a :class:`GameInfo` (in the spirit of OpenSpiel's
``GameType``/``GameInfo``): its config class, env id, seats, the unit a result is counted in
and its fair baseline, how results print, its heuristics and the defaults programs use.
Programs that serve both games (tournaments, training, experiments) read it and never ask a
game's name, so a third game is one more entry here. A program for one game uses its config
class directly. The rules themselves are parsed and checked by :mod:`tablegame.rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gendeneia_env.game import GendeneiaConfig
from lith_env.game import LithConfig
from tablegame import rules as table_rules

__all__ = [
    "CONFIGS",
    "GAMES",
    "INFO",
    "GameInfo",
    "config_class",
    "game_config",
    "game_info",
    "games_with",
    "parse_rules",
    "rule_names",
]


@dataclass(frozen=True)
class GameInfo:
    """What programs serving every game need to know of one."""

    name: str  # as --game and game = "..." take it
    title: str  # as a person reads it
    config_class: type
    env_id: str  # the Gymnasium id
    min_players: int
    max_players: int
    unit: str  # what a table plays, one at a time: "hand" or "game"
    measure: str  # what a result is counted in
    measure_short: str  # the same as a table's column head
    gain_measure: str  # what a gain over another agent is counted in
    result_key: str  # an agent's result in a tournament's results.json
    scale: float  # a seat's mean payoff times this is the result
    pays_chips: bool  # a result is chips won (centred on 0), else a share of the wins
    result_extras: tuple[tuple[str, str, str], ...]  # more columns: (head, key, format)
    heuristics: tuple[str, ...]  # the built-in agents every table is measured against
    web_bots: str  # the browser game's default bots
    tournament_units: int  # --hands or --games by default
    exploiter_eval_units: int  # units of an exploiter's evaluations on the way
    exploiter_final_units: int  # units of its final measure
    exploiter_n_envs: int  # envs it trains on
    exploiter_n_steps: int  # PPO's rollout length an env
    exploiter_batch_size: int  # PPO's minibatch
    batched_engine: bool  # has a batched engine (make_vec, --batched, vec_env = batched)
    betting_analytics: bool  # tournaments record how each agent bets, bluffs and exchanges
    shaped_rewards: bool  # env takes reward= beyond the final result
    exactly_solvable: bool  # lith_solver solves its heads-up games exactly
    # A seat's figures in one finished hand's or game's JSON record (its history module's):
    # the result (result_key) and the extras, each to be averaged over records.
    seat_figures: Callable[[Mapping[str, Any], int], dict[str, float]]
    # A seat's result from a finished table's ranking scores (lower is better, as ratings
    # read them): chips won, or its share of the win.
    place_result: Callable[[Sequence[float], int], float]

    @property
    def units(self) -> str:
        """The unit in the plural: "hands", "games"."""
        return f"{self.unit}s"

    @property
    def units_flag(self) -> str:
        """The tournament flag that counts them: ``--hands``, ``--games``."""
        return f"--{self.units}"

    @property
    def number(self) -> str:
        """How a result prints: chips signed to one decimal, a share to three."""
        return "+.1f" if self.pays_chips else ".3f"

    @property
    def signed(self) -> str:
        """How a difference of results prints (a gain, a payoff against the baseline)."""
        return "+.1f" if self.pays_chips else "+.3f"

    def interval(self, figure: Mapping[str, float]) -> str:
        """A figure with its interval, ``+12.5 [-3.1, +28.0]`` or ``0.412 [0.398, 0.426]``."""
        f = self.number
        return f"{figure['mean']:{f}} [{figure['low']:{f}}, {figure['high']:{f}}]"

    def baseline(self, players: int) -> float:
        """A result with no edge: 0 chips, or the fair share of the wins."""
        return 0.0 if self.pays_chips else 1.0 / players


def _lith_seat(record: Mapping[str, Any], seat: int) -> dict[str, float]:
    return {"chips_per_100": 100.0 * record["net"][seat]}


def _gendeneia_seat(record: Mapping[str, Any], seat: int) -> dict[str, float]:
    winners = record["winners"]  # a win is shared among the game's winners
    share = 1.0 / len(winners) if seat in winners else 0.0
    return {"win_rate": share, "mean_score": float(record["scores"][seat])}


def _chips_won(scores: Sequence[float], seat: int) -> float:
    return -scores[seat]  # a Lith table ranks by chips lost


def _win_share(scores: Sequence[float], seat: int) -> float:
    winners = [s for s, score in enumerate(scores) if score == min(scores)]
    return 1 / len(winners) if seat in winners else 0.0


INFO: dict[str, GameInfo] = {
    "lith": GameInfo(
        name="lith",
        title="Lith",
        config_class=LithConfig,
        env_id="Lith-v0",
        min_players=2,
        max_players=10,
        unit="hand",
        measure="chips/100 hands",
        measure_short="chips/100",
        gain_measure="chips/100 hands",
        result_key="chips_per_100",
        scale=100.0,
        pays_chips=True,
        result_extras=(),
        heuristics=("tag", "bluffer", "rock", "caller", "random"),
        web_bots="tag,bluffer,rock",
        tournament_units=2000,
        exploiter_eval_units=1_000,
        exploiter_final_units=20_000,
        exploiter_n_envs=64,
        exploiter_n_steps=64,
        exploiter_batch_size=512,
        batched_engine=True,
        betting_analytics=True,
        shaped_rewards=False,
        exactly_solvable=True,
        seat_figures=_lith_seat,
        place_result=_chips_won,
    ),
    "gendeneia": GameInfo(
        name="gendeneia",
        title="Gendeneía",
        config_class=GendeneiaConfig,
        env_id="Gendeneia-v0",
        min_players=2,
        max_players=6,
        unit="game",
        measure="win rate",
        measure_short="win rate",
        gain_measure="win share",
        result_key="win_rate",
        scale=1.0,
        pays_chips=False,
        result_extras=(("mean score", "mean_score", ".2f"),),
        heuristics=("greedy", "spoiler", "random"),
        web_bots="greedy,spoiler",
        tournament_units=200,
        exploiter_eval_units=300,
        exploiter_final_units=1_500,
        exploiter_n_envs=8,
        exploiter_n_steps=256,
        exploiter_batch_size=256,
        batched_engine=True,
        betting_analytics=False,
        shaped_rewards=True,
        exactly_solvable=False,
        seat_figures=_gendeneia_seat,
        place_result=_win_share,
    ),
}
CONFIGS: dict[str, type] = {name: info.config_class for name, info in INFO.items()}
GAMES = tuple(INFO)


def games_with(feature: str, titles: bool = False) -> str:
    """The games whose ``feature`` (a boolean of :class:`GameInfo`) holds, for messages:
    ``"lith"``, ``"lith or gendeneia"`` (``titles``: ``"Lith"``)."""
    found = [info for info in INFO.values() if getattr(info, feature)]
    return " or ".join(info.title if titles else info.name for info in found)


def game_info(game: str, flag: str = "game") -> GameInfo:
    """``game``'s description; ``ValueError`` naming ``flag`` if there is no such game."""
    if game not in INFO:
        raise ValueError(f"{flag}: must be one of {', '.join(GAMES)}, got {game!r}")
    return INFO[game]


def config_class(game: str) -> type:
    """The config dataclass of ``game``; ``ValueError`` naming it if there is no such game."""
    return game_info(game).config_class


def rule_names(game: str) -> tuple[str, ...]:
    """The rules ``game`` takes as ``--rule``."""
    return table_rules.rule_names(config_class(game))


def parse_rules(pairs: Sequence[str], game: str | None = None) -> dict[str, Any]:
    """``--rule key=value`` options as a dict, checked against ``game``'s rules if given."""
    return table_rules.parse_rules(pairs, None if game is None else config_class(game))


def game_config(game: str, num_players: int, rules: Mapping[str, Any]) -> Any:
    """``game``'s config (``LithConfig`` or ``GendeneiaConfig``) for these rules; an unknown
    rule, or a bad value, is a ``ValueError`` naming it."""
    return table_rules.make_config(config_class(game), num_players, rules)
