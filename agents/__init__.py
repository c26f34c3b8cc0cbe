"""The suite's players, each behind the agent protocol (:mod:`tablegame.agent`):
``act(observation, action_mask) -> int`` and ``reset(seed=None)``. Agents see only their
seat's observation, never the engine's state.

- ``random`` (:mod:`agents.random_agent`), every game;
- Lith heuristics ``caller``, ``rock``, ``tag``, ``bluffer`` (:mod:`agents.lith_heuristics`);
- Gendeneía heuristics ``greedy``, ``spoiler`` (:mod:`agents.gendeneia_heuristics`);
- ``ppo:PATH``, a trained network (:mod:`agents.ppo`);
- ``solved:DIR``, an exact solver's strategy (:mod:`agents.solved`);
- ``mixture:DIR``, a population's equilibrium mixture (:mod:`agents.mixture`).

Programs build agents from spec strings (``"tag"``, ``"bluffer:freq=0.3"``) with
:func:`make_agent`, which finds these modules through the ``decktet_rl.agents`` entry points
(:mod:`tablegame.registry`).
"""

from agents.random_agent import RandomAgent
from tablegame.registry import make_agent

__all__ = ["RandomAgent", "make_agent"]
