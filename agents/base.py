"""The agent protocol, the registry of built-in agents, and spec strings (``name:key=value``)."""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from tablegame.engine import Agent

__all__ = [
    "AGENTS",
    "Agent",
    "RandomAgent",
    "act_batch",
    "act_by_table",
    "assign_tables",
    "legal_ids",
    "load_agents",
    "make_agent",
    "register",
    "split_spec",
    "uniform_legal",
]

# game -> name -> factory(seed=..., **params)
AGENTS: dict[str, dict[str, Callable[..., Agent]]] = {"lith": {}, "gendeneia": {}}


def register(game: str, name: str) -> Callable:
    """Class decorator: make an agent available by name for a game (``"*"``: every game)."""

    def decorate(factory: Callable[..., Agent]) -> Callable[..., Agent]:
        for g in AGENTS if game == "*" else (game,):
            AGENTS[g][name] = factory
        return factory

    return decorate


@register("*", "random")
class RandomAgent:
    """Picks uniformly among the legal actions."""

    needs_observation = False  # it only reads the mask

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        legal = legal_ids(action_mask)
        return legal[self.rng.integers(len(legal))]

    def act_batch(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """Uniform legal actions for a batch of masks (k, actions)."""
        return uniform_legal(np.asarray(action_masks), self.rng)

    def action_probabilities(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """(k, actions): uniform over each row's legal actions."""
        masks = np.asarray(action_masks, dtype=np.float64)
        return masks / masks.sum(axis=1, keepdims=True)


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


def _parse_value(text: str) -> Any:
    """A parameter value: a number, a comma-separated list of numbers, a boolean, or text."""
    if "," in text:
        return tuple(_parse_value(part) for part in text.split(","))
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def load_agents() -> None:
    """Import every module of built-in agents, so that each registers its agents."""
    import agents.gendeneia
    import agents.lith
    import agents.mixture
    import agents.ppo
    import agents.solved  # noqa: F401


def make_agent(spec: str, game: str, seed: int | None = None, config: Any = None) -> Agent:
    """Build a built-in agent from a spec: ``name``, ``name:key=value:key=value``, or for
    agents that take a path, ``name:PATH[:key=value...]`` (``ppo:runs/x/model.zip``,
    ``ppo:runs/x/model.zip:deterministic=false``). ``config`` (the game's rules) goes to
    agents that use it.

    Unknown games, names or parameters raise ``ValueError`` listing what exists.
    """
    load_agents()
    if game not in AGENTS:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(AGENTS)}")
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec is a non-empty string, got {spec!r}")
    name = spec.strip().partition(":")[0]
    if name not in AGENTS[game]:
        raise ValueError(
            f"unknown agent {name!r} for {game}; built-in agents: {', '.join(sorted(AGENTS[game]))}"
        )
    factory = AGENTS[game][name]
    parameters = inspect.signature(factory).parameters
    kwargs: dict[str, Any] = {}
    if "config" in parameters and config is not None:
        kwargs["config"] = config
    path_argument = getattr(factory, "spec_argument", None)
    accepted = {p.rstrip("_"): p for p in parameters if p not in ("seed", "config", path_argument)}
    _, path, segments = split_spec(spec, game)
    if path_argument:
        for text in segments:
            _set_parameter(name, text, accepted, kwargs)
        if not path:
            raise ValueError(
                f"agent {name!r} needs {path_argument}: {name}:{path_argument.upper()}"
                + "".join(f"[:{p}=...]" for p in accepted)
            )
        return factory(path, seed=seed, **kwargs)
    for text in segments:
        _set_parameter(name, text, accepted, kwargs)
    return factory(seed=seed, **kwargs)


_PARAMETER = re.compile(r"^[A-Za-z_]\w*=")


def split_spec(spec: str, game: str) -> tuple[str, str | None, list[str]]:
    """An agent spec's name, the path it loads (for agents that take one, such as
    ``ppo:PATH`` or ``solved:DIR``; else None) and its ``key=value`` segments."""
    load_agents()
    name, _, rest = spec.strip().partition(":")
    segments = rest.split(":") if rest else []
    factory = AGENTS.get(game, {}).get(name)
    if factory is None or not getattr(factory, "spec_argument", None):
        return name, None, segments
    # name:PATH[:key=value...]: the trailing key=value segments are parameters
    cut = len(segments)
    while cut > 1 and _PARAMETER.match(segments[cut - 1]):
        cut -= 1
    return name, ":".join(segments[:cut]), segments[cut:]


def _set_parameter(name: str, text: str, accepted: dict[str, str], kwargs: dict) -> None:
    """Read one ``key=value`` segment of an agent spec into ``kwargs``."""
    key, sep, value = text.partition("=")
    if not sep or key not in accepted:
        raise ValueError(
            f"agent {name!r}: bad parameter {text!r}; parameters: "
            + (", ".join(f"{p}=..." for p in accepted) or "none")
        )
    kwargs[accepted[key]] = _parse_value(value)
