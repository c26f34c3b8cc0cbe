"""Game rules as users give them: ``--rule key=value`` parsed, checked, and made into a config.

Every program that takes rules builds its game config through these functions (by game name
through :mod:`games`), so an unknown rule gets the same error everywhere: one that names it
and lists the rules the game has. A game's rules are the fields of its config dataclass
(``LithConfig``, ``GendeneiaConfig``) but the number of players.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tablegame.registry import parse_value

__all__ = [
    "check_env_rules",
    "check_rule_names",
    "env_config",
    "env_options",
    "make_config",
    "parse_rules",
    "rule_names",
]


def _name(config_class: type) -> str:
    return getattr(config_class, "game", config_class.__name__)


def rule_names(config_class: type) -> tuple[str, ...]:
    """The rules a game takes as ``--rule``: its config's fields but the number of players."""
    return tuple(f.name for f in dataclasses.fields(config_class) if f.name != "num_players")


def check_rule_names(config_class: type, names: Sequence[str]) -> None:
    """Raise ``ValueError`` naming the first unknown rule and listing the game's rules."""
    known = rule_names(config_class)
    for name in names:
        if name not in known:
            raise ValueError(
                f"--rule {name}: not a rule of {_name(config_class)}; its rules: {', '.join(known)}"
            )


def parse_rules(pairs: Sequence[str], config_class: type | None = None) -> dict[str, Any]:
    """``--rule key=value`` options (``betting=no-limit``, ``presum=subtract``) as a dict.
    ``none`` is ``None`` (``excuse=none``). With the game's ``config_class``, a key that is
    not one of its rules is a ``ValueError`` listing them, and one value for a list rule (a
    rule whose default is a tuple, or whose type is one: ``twist_any=Zelteta``, ``cards=The
    Author``) is a list of one. Commas separate the values of a list (``cards=The
    Author,The Desert,...``)."""
    rules: dict[str, Any] = {}
    for text in pairs:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--rule: expected key=value, got {text!r}")
        rules[key.strip()] = None if value.strip().lower() == "none" else parse_value(value)
    if config_class is not None:
        check_rule_names(config_class, list(rules))
        lists = {
            f.name
            for f in dataclasses.fields(config_class)
            if isinstance(f.default, tuple) or str(f.type).startswith("tuple[")
        }
        for key, value in rules.items():
            if key in lists and not isinstance(value, tuple | type(None)):
                rules[key] = (value,)
    return rules


def make_config(config_class: type, num_players: int, rules: Mapping[str, Any]) -> Any:
    """The game's config for these rules. An unknown rule, or a bad value, is a
    ``ValueError`` naming it."""
    check_rule_names(config_class, list(rules))
    return config_class(num_players=num_players, **rules)


# ------------------------------------------------------------------ the envs' rule keywords


def env_options(config_class: type, init: Callable[..., None]) -> tuple[str, ...]:
    """An env's options, for its messages: the rules (the fields of ``config_class``), then
    the keywords of its ``__init__`` (``init``) but ``self`` and ``rules``."""
    own = (p for p in inspect.signature(init).parameters if p not in ("self", "rules"))
    return (*(f.name for f in dataclasses.fields(config_class)), *own)


def check_env_rules(
    config_class: type, rules: Mapping[str, Any], env: str, options: Sequence[str]
) -> None:
    """A keyword that is not a field of ``config_class`` is a ``TypeError`` naming it and
    listing ``options`` (``env`` names the env)."""
    fields = {f.name for f in dataclasses.fields(config_class)}
    unknown = sorted(set(rules) - fields)
    if unknown:
        raise TypeError(
            f"{env}: unknown option(s) {', '.join(unknown)}; options: {', '.join(options)}"
        )


def env_config(
    config_class: type, config: Any, rules: Mapping[str, Any], env: str, options: Sequence[str]
) -> Any:
    """The rules an env plays: ``config`` (``None``: ``config_class()``) with the fields
    given in ``rules`` replaced, so every default lives in the config class. An unknown
    keyword is :func:`check_env_rules`' ``TypeError``; a bad value is the config's
    ``ValueError``, naming the field."""
    check_env_rules(config_class, rules, env, options)
    if config is None:
        return config_class(**rules)
    if not isinstance(config, config_class):
        raise ValueError(f"config: must be a {config_class.__name__} or None, got {config!r}")
    return dataclasses.replace(config, **rules) if rules else config
