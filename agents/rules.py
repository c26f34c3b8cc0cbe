"""Game rules as users give them: ``--rule key=value`` parsed, checked, and made into a config.

Every program that takes rules (tournaments, ``train.py``, ``experiments.run``, the play
programs) builds its game config here, so an unknown rule gets the same error everywhere: one
that names it and lists the rules the game has.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["GAMES", "game_config", "parse_rules", "rule_names"]

GAMES = ("lith", "gendeneia")


def _config_class(game: str) -> type:
    if game == "lith":
        from lith_env.game import LithConfig

        return LithConfig
    if game == "gendeneia":
        from gendeneia_env.game import GendeneiaConfig

        return GendeneiaConfig
    raise ValueError(f"game: must be one of {', '.join(GAMES)}, got {game!r}")


def rule_names(game: str) -> tuple[str, ...]:
    """The rules a game takes as ``--rule`` (its config's fields but the number of players)."""
    return tuple(f.name for f in dataclasses.fields(_config_class(game)) if f.name != "num_players")


def check_rule_names(game: str, names: Sequence[str]) -> None:
    """Raise ``ValueError`` naming the first unknown rule and listing the game's rules."""
    known = rule_names(game)
    for name in names:
        if name not in known:
            raise ValueError(f"--rule {name}: not a rule of {game}; its rules: {', '.join(known)}")


def parse_rules(pairs: Sequence[str], game: str | None = None) -> dict[str, Any]:
    """``--rule key=value`` options (``betting=no-limit``, ``presum=subtract``) as a dict.
    ``none`` is ``None`` (``excuse=none``). With ``game``, a key that is not one of its rules
    is a ``ValueError`` listing them, and one value for a list rule (a rule whose default is
    a tuple, or whose type is one: ``twist_any=Zelteta``, ``cards=The Author``) is a list of
    one. Commas separate the values of a list (``cards=The Author,The Desert,...``)."""
    from agents.base import _parse_value

    rules: dict[str, Any] = {}
    for text in pairs:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--rule: expected key=value, got {text!r}")
        rules[key.strip()] = None if value.strip().lower() == "none" else _parse_value(value)
    if game is not None:
        check_rule_names(game, list(rules))
        lists = {
            f.name
            for f in dataclasses.fields(_config_class(game))
            if isinstance(f.default, tuple) or str(f.type).startswith("tuple[")
        }
        for key, value in rules.items():
            if key in lists and not isinstance(value, tuple | type(None)):
                rules[key] = (value,)
    return rules


def game_config(game: str, num_players: int, rules: Mapping[str, Any]) -> Any:
    """The game's config (``LithConfig`` or ``GendeneiaConfig``) for these rules. An unknown
    rule, or a bad value, is a ``ValueError`` naming it."""
    check_rule_names(game, list(rules))
    return _config_class(game)(num_players=num_players, **rules)
