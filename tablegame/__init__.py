"""What both games share: the engine contract, its errors, and the generic wrappers over it.

``tablegame.engine`` has no RL imports; ``tablegame.gym_env`` and ``tablegame.aec_env`` turn any
engine that keeps the contract into a Gymnasium single-seat env and a PettingZoo AEC env.
"""

from tablegame.engine import IllegalActionError

__all__ = ["IllegalActionError"]
