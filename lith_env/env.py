"""``Lith-v0``: the Gymnasium environment, one learner against built-in or given opponents."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lith_env.game import LithConfig
from lith_env.table import LithTable, check_first_decision
from tablegame import rules as rules_module
from tablegame.agent import Agent
from tablegame.gym_env import SingleSeatEnv, resolve_opponents

__all__ = ["LithEnv", "check_rules", "env_config", "env_options"]


def env_options(init: Callable[..., None]) -> tuple[str, ...]:
    """A Lith env's options, for its messages (:func:`tablegame.rules.env_options`)."""
    return rules_module.env_options(LithConfig, init)


def check_rules(rules: Mapping[str, Any], env: str, options: Sequence[str]) -> None:
    """A keyword that is no field of :class:`LithConfig` is a ``TypeError`` naming it."""
    rules_module.check_env_rules(LithConfig, rules, env, options)


def env_config(
    config: LithConfig | None, rules: Mapping[str, Any], env: str, options: Sequence[str]
) -> LithConfig:
    """``config`` (``None``: ``LithConfig()``) with the fields in ``rules`` replaced
    (:func:`tablegame.rules.env_config`)."""
    return rules_module.env_config(LithConfig, config, rules, env, options)


class LithEnv(SingleSeatEnv):
    """Lith for one learner (``docs/lith_env.md``).

    The rules are a :class:`~lith_env.game.LithConfig` (``config``, default ``LithConfig()``)
    and/or its fields by keyword (``rules``), which replace those of ``config``:
    ``num_players`` (2-10), ``betting`` (``"limit"``, ``"pot-limit"``, ``"no-limit"``),
    ``bet_sizes``, ``max_raises``, ``pawns_and_courts``, ``excuse`` (None, ``"beggar"``,
    ``"imposter"``, ``"demon"``), ``starting_chips``, ``ante``, ``max_hands`` (match only),
    ``rounds`` (betting rounds, 1-3), ``cards`` (a subset of the deck to deal from: names or
    ids). The env's own options: ``opponents`` (an agent spec such as ``"random"`` or
    ``"caller"``, an object with ``act(observation, action_mask)``, or a list of one per other
    seat), ``episode`` (``"hand"`` or ``"match"``), ``learner_seat`` (None: drawn each
    episode), ``reward_scale`` (reward = chips won x this, default 1) and ``render_mode``
    (``"ansi"``, ``"human"``).
    """

    def __init__(
        self,
        config: LithConfig | None = None,
        *,
        opponents: str | Agent | Sequence[str | Agent] = "random",
        episode: str = "hand",
        learner_seat: int | None = None,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        config = env_config(config, rules, "Lith-v0", OPTIONS)
        table = LithTable(config, episode=episode)
        super().__init__(
            table,
            resolve_opponents(opponents, config.num_players - 1, game="lith", config=table.config),
            learner_seat=learner_seat,
            reward_scale=reward_scale,
            render_mode=render_mode,
        )
        self.config = table.config
        check_first_decision(self.config, learner_seat)  # the seat is checked by now


OPTIONS = env_options(LithEnv.__init__)
