"""Gendeneía: the Lilitai deck, scoring, the game engine, and its Gymnasium and PettingZoo envs.

``import gendeneia_env`` registers ``Gendeneia-v0``; ``gendeneia_env.aec_env(...)`` builds the
PettingZoo AEC environment; ``gendeneia_env.score_player(lots, presum=None)`` scores written lots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gymnasium.envs.registration import register as _register

from gendeneia_env.game import GAction, GendeneiaConfig, GendeneiaGame, IllegalActionError
from gendeneia_env.scoring import score_player

if TYPE_CHECKING:
    from gendeneia_env.aec import GendeneiaAECEnv

__all__ = [
    "GAction",
    "GendeneiaConfig",
    "GendeneiaGame",
    "IllegalActionError",
    "aec_env",
    "score_player",
]

# nondeterministic: opponents are arbitrary agents whose randomness the env may not own; see
# docs/gendeneia_env.md. With seeded agents, seeds reproduce games.
_register(
    id="Gendeneia-v0",
    entry_point="gendeneia_env.env:GendeneiaEnv",
    vector_entry_point="gendeneia_env.vector:GendeneiaVectorEnv",
    nondeterministic=True,
)


def aec_env(config: GendeneiaConfig | None = None, **options: Any) -> GendeneiaAECEnv:
    """The PettingZoo AEC environment (see :class:`gendeneia_env.aec.GendeneiaAECEnv`)."""
    from gendeneia_env.aec import GendeneiaAECEnv

    return GendeneiaAECEnv(config, **options)
