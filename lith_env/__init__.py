"""Lith: the Decktet, hand evaluation, the game engine, and its Gymnasium and PettingZoo envs.

``import lith_env`` registers ``Lith-v0`` with Gymnasium; ``lith_env.aec_env(...)`` builds the
PettingZoo AEC environment.
"""

from gymnasium.envs.registration import register as _register

from lith_env.cards import CARDS, Card, card_id, deck
from lith_env.game import Action, IllegalActionError, LithConfig, LithGame, LithHand
from lith_env.hands import classify, distribution, percentile, strength

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


def aec_env(**kwargs):
    """The PettingZoo AEC environment (see :class:`lith_env.aec.LithAECEnv`)."""
    from lith_env.aec import LithAECEnv

    return LithAECEnv(**kwargs)
