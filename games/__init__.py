"""The games the suite plays, by name: what ``--game lith`` or ``game = "gendeneia"`` means.

Programs that serve both games (tournaments, training, experiments) look a game up here; a
program for one game uses its config class directly. The rules themselves are parsed and
checked by :mod:`tablegame.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gendeneia_env.game import GendeneiaConfig
from lith_env.game import LithConfig
from tablegame import rules as table_rules

__all__ = ["CONFIGS", "GAMES", "config_class", "game_config", "parse_rules", "rule_names"]

CONFIGS: dict[str, type] = {"lith": LithConfig, "gendeneia": GendeneiaConfig}
GAMES = tuple(CONFIGS)


def config_class(game: str) -> type:
    """The config dataclass of ``game``; ``ValueError`` naming it if there is no such game."""
    if game not in CONFIGS:
        raise ValueError(f"game: must be one of {', '.join(GAMES)}, got {game!r}")
    return CONFIGS[game]


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
