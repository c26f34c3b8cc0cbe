"""Agents by name: the registry every program resolves agent specs through.

A spec is ``name``, ``name:key=value:key=value``, or for agents that load a file or folder,
``name:PATH[:key=value...]`` (``tag``, ``bluffer:freq=0.3``, ``ppo:runs/x/model.zip``).
An agent of one's own is named by where it is imported from, ``module:Name[:key=value...]``
(``mybots.simple:AlwaysCall``): a class or factory taking ``key=value`` parameters as keyword
arguments, and ``seed`` and ``config`` if it accepts them; what it builds must keep the agent
protocol (:class:`tablegame.agent.Agent`).

Agents register themselves with :func:`register` when their module is imported. The modules
are found through the entry-point group ``decktet_rl.agents`` (the suite's own agents are
declared in ``pyproject.toml`` there, and another installed package may add its own), so the
layers below the agents (the envs, tournaments, the solver's commands) name agents without
importing them. ``DECKTET_RL_AGENT_MODULES`` (comma-separated modules) adds modules to load:
``distributed`` sets it on Ray workers to the modules the driver loaded.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
from collections.abc import Callable
from importlib import metadata
from typing import Any

from tablegame.agent import Agent

__all__ = [
    "AGENTS",
    "AGENT_MODULES_VARIABLE",
    "ENTRY_POINT_GROUP",
    "agent_catalogue",
    "agent_modules",
    "agent_names",
    "expand_spec",
    "imported_modules",
    "load_agents",
    "make_agent",
    "parameter_files",
    "parse_value",
    "register",
    "split_spec",
]

ENTRY_POINT_GROUP = "decktet_rl.agents"
AGENT_MODULES_VARIABLE = "DECKTET_RL_AGENT_MODULES"

# game -> name -> factory(seed=..., **params)
AGENTS: dict[str, dict[str, Callable[..., Agent]]] = {"lith": {}, "gendeneia": {}}

_loaded: list[str] = []  # the agent modules imported so far, in order
_imported: list[str] = []  # the modules of module:Name specs built so far, in order


def register(game: str, name: str) -> Callable:
    """Class decorator: make an agent available by name for a game (``"*"``: every game)."""

    def decorate(factory: Callable[..., Agent]) -> Callable[..., Agent]:
        for g in AGENTS if game == "*" else (game,):
            AGENTS[g][name] = factory
        return factory

    return decorate


def agent_modules() -> list[str]:
    """The modules that register agents: the entry points of ``decktet_rl.agents``, then
    those named in ``DECKTET_RL_AGENT_MODULES``, each once."""
    found = [entry.value for entry in metadata.entry_points(group=ENTRY_POINT_GROUP)]
    found += [m.strip() for m in os.environ.get(AGENT_MODULES_VARIABLE, "").split(",")]
    return list(dict.fromkeys(m for m in found if m))


def load_agents() -> list[str]:
    """Import every module of :func:`agent_modules` not imported yet, so that each registers
    its agents; the modules loaded so far. None at all is an error saying why."""
    if not _loaded:
        modules = agent_modules()
        if not modules:
            raise ValueError(
                f"no agents registered: no entry points in {ENTRY_POINT_GROUP!r} (install the "
                'suite with `pip install -e ".[dev]"`, or `make test`)'
            )
        for module in modules:
            importlib.import_module(module)
        _loaded.extend(modules)
    return list(_loaded)


def agent_names(game: str) -> list[str]:
    """The names of a game's agents, sorted (``ValueError`` for an unknown game)."""
    load_agents()
    if game not in AGENTS:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(AGENTS)}")
    return sorted(AGENTS[game])


def agent_catalogue(game: str, parameters: bool = True) -> str:
    """A game's agents for help texts: ``name:PATH`` for agents that load a path, and with
    ``parameters`` the parameters each other agent takes (``bluffer (freq, bet, ...)``)."""
    entries = []
    for name in agent_names(game):
        factory = AGENTS[game][name]
        argument = getattr(factory, "spec_argument", None)
        if argument:
            entries.append(f"{name}:{argument.upper()}")
            continue
        taken = [
            p.rstrip("_")
            for p in inspect.signature(factory).parameters
            if p not in ("seed", "config")
        ]
        entries.append(name + (f" ({', '.join(taken)})" if taken and parameters else ""))
    return ", ".join(entries)


def parse_value(text: str) -> Any:
    """A parameter value: a number, a comma-separated list of numbers, a boolean, or text."""
    if "," in text:
        return tuple(parse_value(part) for part in text.split(","))
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def make_agent(spec: str, game: str, seed: int | None = None, config: Any = None) -> Agent:
    """Build an agent from a spec (see the module's docstring), e.g. ``ppo:runs/x/model.zip``
    or ``ppo:runs/x/model.zip:deterministic=false``. ``config`` (the game's rules) goes to
    agents that use it.

    Unknown games, names or parameters raise ``ValueError`` listing what exists.
    """
    load_agents()
    if game not in AGENTS:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(AGENTS)}")
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec is a non-empty string, got {spec!r}")
    spec = expand_spec(spec, game)
    name = spec.strip().partition(":")[0]
    if name not in AGENTS[game]:
        if _IMPORT_SPEC.match(spec.strip()):
            return _make_imported(spec.strip(), seed, config)
        raise ValueError(
            f"unknown agent {name!r} for {game}; built-in agents: "
            f"{', '.join(sorted(AGENTS[game]))}; an agent of your own: module:ClassName"
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


def expand_spec(spec: str, game: str) -> str:
    """The spec an alias stands for: an agent whose factory has ``expands(argument, game)``
    (``zoo:NAME``) is replaced by the spec that gives, with the alias's own trailing
    ``key=value`` parameters appended; any other spec as it is."""
    load_agents()
    name, _, rest = spec.strip().partition(":")
    expands = getattr(AGENTS.get(game, {}).get(name), "expands", None)
    if expands is None:
        return spec
    argument, *parameters = rest.split(":")
    return ":".join([expands(argument, game), *parameters])


_PARAMETER = re.compile(r"^[A-Za-z_]\w*=")
# module:Name, where module is dotted and Name may be dotted too (a class's attribute)
_IMPORT_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*(:|$)")


def imported_modules() -> list[str]:
    """The modules of the ``module:Name`` specs built so far in this process, in order (Ray
    ships them to its workers with the suite)."""
    return list(_imported)


def _make_imported(spec: str, seed: int | None, config: Any) -> Agent:
    """Build an agent from a ``module:Name[:key=value...]`` spec; ``ValueError`` naming what
    is wrong: the module, the name, a parameter, or what the agent lacks of the protocol."""
    module_name, _, rest = spec.partition(":")
    attribute, *segments = rest.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(
            f"agent {spec!r}: cannot import module {module_name!r} ({error})"
        ) from None
    factory: Any = module
    for part in attribute.split("."):
        if not hasattr(factory, part):
            raise ValueError(f"agent {spec!r}: module {module_name!r} has no {attribute!r}")
        factory = getattr(factory, part)
    if not callable(factory):
        raise ValueError(f"agent {spec!r}: {attribute!r} is not a class or factory")
    if module_name not in _imported:
        _imported.append(module_name)
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        parameters = {}
    open_ended = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    kwargs: dict[str, Any] = {}
    for key, wanted in (("seed", seed), ("config", config)):
        if key in parameters or open_ended:
            kwargs[key] = wanted
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    accepted = {
        name.rstrip("_"): name
        for name, p in parameters.items()
        if name not in ("seed", "config", "self") and p.kind not in variadic
    }
    for text in segments:
        key = text.partition("=")[0]
        if open_ended and _PARAMETER.match(text) and key not in accepted:
            accepted[key] = key
        _set_parameter(spec, text, accepted, kwargs)
    try:
        agent = factory(**kwargs)
    except TypeError as error:
        raise ValueError(f"agent {spec!r}: {error}") from None
    missing = [
        f"{method}()" for method in ("act", "reset") if not callable(getattr(agent, method, None))
    ]
    if not missing and not _takes(agent.act, None, None):
        missing.append("act() taking (observation, action_mask)")
    if not missing and not _takes(agent.reset, seed=None):
        missing.append("a seed=None keyword in reset()")
    if missing:
        raise ValueError(
            f"agent {spec!r} does not keep the agent protocol (act(observation, action_mask) "
            f"-> int, reset(seed=None)): it lacks {' and '.join(missing)}"
        )
    return agent


def _takes(method: Callable, *args: Any, **kwargs: Any) -> bool:
    """Whether ``method`` can be called with these arguments (by its signature)."""
    try:
        inspect.signature(method).bind(*args, **kwargs)
    except TypeError:
        return False
    except ValueError:
        return True  # a builtin without a signature: take it at its word
    return True


def split_spec(spec: str, game: str) -> tuple[str, str | None, list[str]]:
    """An agent spec's name, the path it loads (for agents that take one, such as
    ``ppo:PATH`` or ``solved:DIR``; else None) and its ``key=value`` segments. A value that
    is itself such an agent keeps its path: ``ismcts:policy=ppo:runs/x/model.zip``. An alias
    (``zoo:NAME``) is split as the spec it stands for (:func:`expand_spec`)."""
    name, _, rest = expand_spec(spec, game).strip().partition(":")
    segments = rest.split(":") if rest else []
    factory = AGENTS.get(game, {}).get(name)
    if factory is None or not getattr(factory, "spec_argument", None):
        joined: list[str] = []
        for segment in segments:
            value = joined[-1].partition("=")[2] if joined else ""
            inner = AGENTS.get(game, {}).get(value.split(":")[0])
            takes_path = inner is not None and getattr(inner, "spec_argument", None)
            if takes_path and ":" not in value and not _PARAMETER.match(segment):
                joined[-1] += ":" + segment
                continue
            joined.append(segment)
        return name, None, joined
    # name:PATH[:key=value...]: the trailing key=value segments are parameters
    cut = len(segments)
    while cut > 1 and _PARAMETER.match(segments[cut - 1]):
        cut -= 1
    return name, ":".join(segments[:cut]), segments[cut:]


def parameter_files(spec: str, game: str) -> dict[int, tuple[str, str]]:
    """The files a spec's ``key=value`` segments load, by segment (as :func:`split_spec`
    gives them): ``{index: (what precedes the path in the segment, the path)}``. A value
    naming an agent that loads a file (``policy=ppo:PATH``) loads it, and so does a parameter
    the agent lists in its ``path_parameters`` (``prior=PATH``)."""
    name, _, segments = split_spec(spec, game)
    factory = AGENTS.get(game, {}).get(name)
    listed = getattr(factory, "path_parameters", ())
    out = {}
    for i, segment in enumerate(segments):
        key, sep, value = segment.partition("=")
        if not sep or not value:
            continue
        inner, colon, path = value.partition(":")
        loads = AGENTS.get(game, {}).get(inner)
        if colon and path and getattr(loads, "spec_argument", None):
            out[i] = (f"{key}={inner}:", path)
        elif key in listed:
            out[i] = (f"{key}=", value)
    return out


def _set_parameter(name: str, text: str, accepted: dict[str, str], kwargs: dict) -> None:
    """Read one ``key=value`` segment of an agent spec into ``kwargs``."""
    key, sep, value = text.partition("=")
    if not sep or key not in accepted:
        raise ValueError(
            f"agent {name!r}: bad parameter {text!r}; parameters: "
            + (", ".join(f"{p}=..." for p in accepted) or "none")
        )
    kwargs[accepted[key]] = parse_value(value)
