"""Lith: the Decktet, hand evaluation, the game engine, and its Gymnasium and PettingZoo envs.

``import lith_env`` registers ``Lith-v0`` with Gymnasium; ``lith_env.aec_env(...)`` builds the
PettingZoo AEC environment.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gymnasium.envs.registration import register as _register

if TYPE_CHECKING:
    from lith_env.aec import LithAECEnv
    from lith_env.cards import CARDS, Card, card_id, deck
    from lith_env.game import Action, IllegalActionError, LithConfig, LithGame, LithHand
    from lith_env.hands import classify, distribution, percentile, strength

# The names above are loaded on first use, so that ``python -m lith_env.hands`` runs the
# module without it being imported first (which Python warns about).
_LAZY = {
    **dict.fromkeys(("CARDS", "Card", "card_id", "deck"), "lith_env.cards"),
    **dict.fromkeys(
        ("Action", "IllegalActionError", "LithConfig", "LithGame", "LithHand"), "lith_env.game"
    ),
    **dict.fromkeys(("classify", "distribution", "percentile", "strength"), "lith_env.hands"),
}

__all__ = [
    "CARDS",
    "Action",
    "Card",
    "IllegalActionError",
    "LithConfig",
    "LithGame",
    "LithHand",
    "aec_env",
    "card_id",
    "classify",
    "deck",
    "distribution",
    "percentile",
    "strength",
]

# nondeterministic: opponents are arbitrary agents whose randomness the env may not own (a
# stochastic policy, a person); see docs/lith_env.md. With seeded agents, seeds reproduce games.
_register(
    id="Lith-v0",
    entry_point="lith_env.env:LithEnv",
    vector_entry_point="lith_env.vector:LithVectorEnv",
    nondeterministic=True,
)


def aec_env(config: LithConfig | None = None, **options: Any) -> LithAECEnv:
    """The PettingZoo AEC environment (see :class:`lith_env.aec.LithAECEnv`)."""
    from lith_env.aec import LithAECEnv

    return LithAECEnv(config, **options)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'lith_env' has no attribute {name!r}")
    value = globals()[name] = getattr(importlib.import_module(module), name)
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
