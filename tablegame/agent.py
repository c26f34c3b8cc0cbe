"""The agent protocol, and how one agent plays many tables at once.

Agents see only their seat's observation and legal-action mask, never the engine's state.
:func:`act_batch` asks any agent for a batch of actions (its own ``act_batch`` if it has one);
per-table agents (``per_table = True``, a mixture drawing one member a table) keep a member per
table with :func:`assign_tables` and :func:`act_by_table`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "Agent",
    "act_batch",
    "act_by_table",
    "assign_tables",
    "legal_ids",
    "uniform_legal",
]


@runtime_checkable
class Agent(Protocol):
    """A player: picks an action id from its seat's observation and legal-action mask.

    ``reset(seed=None)`` starts an episode (a seed reseeds the agent's randomness). An agent
    may set ``needs_observation = False`` to say it reads only the mask; it then gets ``None``
    for the observation and the env skips encoding it.

    Optional: ``act_batch(observations, masks)`` (many tables in one call) and
    ``action_probabilities(observations, masks) -> (k, actions)``, the probability of each
    action id as the agent plays; exact measures of a strategy
    (``lith_solver.exploitability``) need it from an agent that draws its actions at random.
    An agent whose each answer is a fresh random search (Gendeneía's ``ismcts``) may instead
    keep ``last_probabilities``, the probabilities its last ``act`` drew from.
    """

    def act(self, observation: Any, action_mask: np.ndarray) -> int: ...

    def reset(self, seed: int | None = None) -> None: ...


_LEGAL_IDS: dict[tuple[str, bytes], tuple[int, ...]] = {}


def legal_ids(action_mask: np.ndarray) -> tuple[int, ...]:
    """The legal action ids of a mask, ascending (``np.flatnonzero`` as a tuple of ints),
    remembered per mask pattern: masks repeat, and numpy is slow on a handful of entries."""
    key = (action_mask.dtype.char, action_mask.tobytes())
    legal = _LEGAL_IDS.get(key)
    if legal is None:
        if len(_LEGAL_IDS) >= 1 << 16:  # wide masks (Gendeneia) have many patterns
            _LEGAL_IDS.clear()
        legal = _LEGAL_IDS[key] = tuple(np.flatnonzero(action_mask).tolist())
    return legal


@functools.cache
def _legal_lists(width: int) -> tuple[np.ndarray, np.ndarray]:
    """For every mask of ``width`` bits: how many actions it allows, and their ids in order."""
    patterns = np.arange(2**width)
    bits = (patterns[:, None] >> np.arange(width)) & 1
    order = np.argsort(1 - bits, axis=1, kind="stable")  # legal ids first, ascending
    return bits.sum(axis=1), order


def uniform_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal action id per row of ``masks`` (k, actions), each row with
    at least one legal action. Narrow masks use a table of every mask pattern (a few gathers
    instead of an argmax over random keys, which numpy does slowly along short rows)."""
    k, width = masks.shape
    if width > 12:
        return np.argmax(rng.random(masks.shape, dtype=np.float32) * masks, axis=1)
    counts, order = _legal_lists(width)
    pattern = np.zeros(k, dtype=np.int64)
    for a in range(width):
        pattern |= masks[:, a].astype(np.int64) << a
    pick = (rng.random(k) * counts[pattern]).astype(np.int64)
    return order.reshape(-1)[pattern * width + pick]


def act_batch(agent: Agent, observations: Any, action_masks: np.ndarray) -> np.ndarray:
    """An agent's actions for a batch of tables: its own ``act_batch`` when it has one (the
    built-in agents do), else ``act`` row by row."""
    batch = getattr(agent, "act_batch", None)
    if batch is not None:
        return np.asarray(batch(observations, action_masks), dtype=np.int64)
    if observations is None:
        observations = [None] * len(action_masks)
    return np.array(
        [agent.act(o, m) for o, m in zip(observations, action_masks, strict=True)], dtype=np.int64
    )


# Per-table agents (``per_table = True``): one member plays each table's episode in a batched
# env or tournament; ``table_member[t]`` is the index of table t's member.


def assign_tables(table_member: np.ndarray, tables: np.ndarray, drawn: Any) -> np.ndarray:
    """``table_member`` with ``tables`` given the members ``drawn`` (grown, as a new array,
    when a table is past its end: the env or tournament decides how many tables there are)."""
    tables = np.asarray(tables, dtype=np.int64)
    if len(table_member) <= int(np.max(tables, initial=-1)):
        grown = np.zeros(int(np.max(tables)) + 1, dtype=np.int64)
        grown[: len(table_member)] = table_member
        table_member = grown
    table_member[tables] = drawn
    return table_member


def act_by_table(
    table_member: np.ndarray,
    tables: np.ndarray,
    agent_of: Callable[[int], Agent],
    observations: Any,
    action_masks: np.ndarray,
) -> np.ndarray:
    """Each row's action by the member of its table (row i is at ``tables[i]``): one
    ``act_batch`` call per member present, ``agent_of(m)`` giving member m as an agent."""
    out = np.zeros(len(action_masks), dtype=np.int64)
    members = table_member[np.asarray(tables, dtype=np.int64)]
    for m in np.unique(members).tolist():
        rows = members == m
        picked = None if observations is None else observations[rows]
        out[rows] = act_batch(agent_of(m), picked, action_masks[rows])
    return out
