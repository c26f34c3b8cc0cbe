"""Agents for both games, behind one protocol: ``act(observation, action_mask) -> int`` and
``reset(seed=None)``. Agents see only their seat's observation, never the engine's state.

Built-in agents are made from spec strings with :func:`make_agent`, e.g. ``"random"`` or
``"caller"``.
"""

from agents.base import AGENTS, Agent, RandomAgent, act_batch, make_agent, register

__all__ = ["AGENTS", "Agent", "RandomAgent", "act_batch", "make_agent", "register"]
