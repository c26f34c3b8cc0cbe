"""``Gendeneia-v0``: the Gymnasium environment, one learner against built-in or given opponents."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gendeneia_env.game import GendeneiaConfig
from gendeneia_env.table import GendeneiaTable
from tablegame import rules as rules_module
from tablegame.agent import Agent
from tablegame.gym_env import SingleSeatEnv, resolve_opponents

__all__ = ["GendeneiaEnv", "check_rules", "env_config", "env_options"]

# The envs have always taken any iterable of Twists (a tuple of it is what the config checks).
_TWISTS = ("twist_any", "twist_suit")


def env_options(init: Callable[..., None]) -> tuple[str, ...]:
    """A Gendeneía env's options, for its messages (:func:`tablegame.rules.env_options`)."""
    return rules_module.env_options(GendeneiaConfig, init)


def check_rules(rules: Mapping[str, Any], env: str, options: Sequence[str]) -> None:
    """A keyword that is no field of :class:`GendeneiaConfig` is a ``TypeError`` naming it."""
    rules_module.check_env_rules(GendeneiaConfig, rules, env, options)


def env_config(
    config: GendeneiaConfig | None, rules: Mapping[str, Any], env: str, options: Sequence[str]
) -> GendeneiaConfig:
    """``config`` (``None``: ``GendeneiaConfig()``) with the fields in ``rules`` replaced
    (:func:`tablegame.rules.env_config`); the Twists may be any iterable."""
    rules = {k: tuple(v) if k in _TWISTS else v for k, v in rules.items()}
    return rules_module.env_config(GendeneiaConfig, config, rules, env, options)


class GendeneiaEnv(SingleSeatEnv):
    """Gendeneía for one learner (``docs/gendeneia_env.md``).

    The rules are a :class:`~gendeneia_env.game.GendeneiaConfig` (``config``, default
    ``GendeneiaConfig()``) and/or its fields by keyword (``rules``), which replace those of
    ``config``: ``num_players`` (2-6), ``max_rounds``, ``max_reshuffles``,
    ``discard_ends_turn``, ``presum``, ``twist_any``, ``twist_any_rule``, ``twist_suit``,
    ``twist_suit_rule``, ``round_lots``. The env's own options: ``opponents`` (an agent spec
    such as ``"random"``, an object with ``act(observation, action_mask)``, or one per other
    seat), ``reward`` (``"final"``, ``"shaped"`` or ``"shaped_win"``), ``reward_scale``
    (default 0.1), ``learner_seat`` (None: drawn each episode) and ``render_mode``
    (``"ansi"``, ``"human"``).
    """

    def __init__(
        self,
        config: GendeneiaConfig | None = None,
        *,
        opponents: str | Agent | Sequence[str | Agent] = "random",
        reward: str = "final",
        reward_scale: float = 0.1,
        learner_seat: int | None = None,
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        config = env_config(config, rules, "Gendeneia-v0", OPTIONS)
        table = GendeneiaTable(config, reward=reward, reward_scale=reward_scale)
        super().__init__(
            table,
            resolve_opponents(opponents, config.num_players - 1, game="gendeneia", config=config),
            learner_seat=learner_seat,
            reward_scale=1.0,  # the table already scales its returns
            render_mode=render_mode,
        )
        self.config = config


OPTIONS = env_options(GendeneiaEnv.__init__)
