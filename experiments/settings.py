"""What an experiment file asks for beyond training: its ``[experiment]`` table, checked.

The TOML file holds train.py options (``decktet train --help``) and an ``[experiment]``
table:

- ``against``: the agents of the final tournament, one pairing each: the bot against copies of
  an agent, or a list of agents, one per other seat, for a mixed table (default: every
  heuristic of the game);
- ``units``: hands or games per pairing, a multiple of players: each duplicate block is one
  deal played in every seating (default: 1,000 blocks); ``seed``: the tournament's seed
  (default 1); ``record`` (Lith): the hands of each pairing kept for the analysis, ``"all"``
  (the default) or a sample of that many;
- ``exploiter_timesteps`` (and optionally ``exploiter_units``, ``exploiter_policies``): end
  with an exploiter trained that long against the bot (``training.exploiter``), its gain a
  lower bound on the bot's exploitability;
- ``bot``: ``"model"`` (the default) or ``"mixture"``, the population's equilibrium
  (``agents.mixture``), with ``mixture_margin`` its margin over the heuristics;
  ``psro_iterations`` (and optionally ``psro_exploiter_steps``, default 200,000): with bot =
  mixture, PSRO iterations after training (``training.psro``);
- ``exact_exploitability``: on the one-round game, the exact exploitability of the model at
  every checkpoint.

Everything is checked before training starts; a bad key or value is a ``ValueError`` naming
it (``experiment.KEY: ...``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games import game_info, games_with
from tablegame.registry import make_agent
from training.config import TrainConfig

__all__ = [
    "BOTS",
    "DEFAULT_BLOCKS",
    "DEFAULT_PSRO_STEPS",
    "EXPLOITER_FOLDERS",
    "bot_spec",
    "check_count",
    "experiment_table",
    "is_bot",
    "opponents_label",
]

DEFAULT_BLOCKS = 1000  # duplicate blocks per pairing when [experiment] sets no units
# The bot's policy an exploiter targets, and the run's folder for it.
EXPLOITER_FOLDERS = {"argmax": "exploiter", "sampling": "exploiter-sampling"}
# What a run's bot is ([experiment] bot): its final model, or (population training) the
# equilibrium mixture of its population, PSRO's answer (agents.mixture).
BOTS = ("model", "mixture")
DEFAULT_PSRO_STEPS = 200_000  # each PSRO exploiter's training ([experiment] psro_iterations)
KEYS = (
    "against",
    "units",
    "seed",
    "record",
    "exploiter_timesteps",
    "exploiter_units",
    "exploiter_policies",
    "exact_exploitability",
    "bot",
    "mixture_margin",
    "psro_iterations",
    "psro_exploiter_steps",
)


def is_bot(spec: str) -> bool:
    """Whether a tournament's agent spec is the run's bot (``ppo:...`` or ``mixture:...``)."""
    return spec.startswith(("ppo:", "mixture:"))


def bot_spec(run: Path, bot: str, policy: str = "argmax", margin: float | None = None) -> str:
    """The agent spec of a run's bot: its model (``ppo:RUN/model.zip``) or its population's
    mixture (``mixture:RUN``, with a ``margin`` over the heuristics if given), by its most
    likely action (``argmax``; a mixture's members' most likely actions) or its sampling
    policy (``sampling``)."""
    if bot == "mixture":
        return (
            f"mixture:{run}"
            + (f":margin={margin}" if margin is not None else "")
            + (":deterministic=true" if policy == "argmax" else "")
        )
    return f"ppo:{run / 'model.zip'}" + (":deterministic=false" if policy == "sampling" else "")


def check_count(name: str, value: Any, multiple_of: int = 1) -> None:
    """Raise ValueError naming ``name`` unless ``value`` is a positive multiple."""
    if type(value) is not int or value < 1 or value % multiple_of:
        what = "a positive integer"
        if multiple_of > 1:
            what = (
                f"a positive multiple of players ({multiple_of}): each duplicate block plays "
                "one deal in every seating"
            )
        raise ValueError(f"{name}: must be {what}, got {value!r}")


def opponents_label(agents: Sequence[str]) -> str:
    """How reports name the bot's opponents: one agent (copies of it in every other seat), or
    a mixed table's agents in seat order joined by `` + ``."""
    return " + ".join(agents)


def _against(table: dict[str, Any], config: TrainConfig) -> list:
    """The tournament's opponents: agents, or mixed tables of one agent a seat."""
    against = table.get("against", list(game_info(config.game).heuristics))
    if not isinstance(against, list) or not against:
        raise ValueError(f"experiment.against: must be a non-empty list of agents, got {against!r}")
    for entry in against:
        table_of = entry if isinstance(entry, list) else [entry]
        if not all(isinstance(a, str) and a.strip() for a in table_of):
            raise ValueError(
                "experiment.against: each entry is an agent, or a list of agents for a mixed "
                f"table, got {entry!r}"
            )
        if isinstance(entry, list):
            if len(entry) != config.players - 1:
                raise ValueError(
                    f"experiment.against: a mixed table lists one agent for each of the "
                    f"{config.players - 1} other seats, got {entry!r}"
                )
            if len(set(entry)) < len(entry):
                raise ValueError(
                    f"experiment.against: an agent is seated twice at the mixed table {entry!r}"
                )
        for spec in table_of:
            make_agent(spec, config.game)  # raises ValueError naming an unknown agent
    labels = [opponents_label(e if isinstance(e, list) else [e]) for e in against]
    if len(set(labels)) < len(labels):
        what = "a mixed table" if any(isinstance(e, list) for e in against) else "an agent"
        raise ValueError(f"experiment.against: {what} is listed twice in {against!r}")
    return against


def _tournament(table: dict[str, Any], config: TrainConfig) -> tuple[int, int, int | str]:
    """The tournament's units a pairing, its seed, and the hands recorded for the analysis."""
    units = table.get("units", DEFAULT_BLOCKS * config.players)
    check_count("experiment.units", units, config.players)
    seed = table.get("seed", 1)
    if type(seed) is not int or seed < 0:
        raise ValueError(f"experiment.seed: must be a non-negative integer, got {seed!r}")
    record = table.get("record", "all")
    if not game_info(config.game).betting_analytics and "record" in table:
        raise ValueError(
            f"experiment.record: {games_with('betting_analytics')} only ({config.game} "
            "tournaments keep no decisions)"
        )
    if record != "all" and not (type(record) is int and 1 <= record <= units):
        raise ValueError(
            f"experiment.record: 'all' or a number of hands from 1 to units ({units}), "
            f"got {record!r}"
        )
    return units, seed, record


def _exploiter(table: dict[str, Any], config: TrainConfig) -> dict[str, Any]:
    """The final exploiter's timesteps, units and the bot's policies it targets (empty: none)."""
    exploiter: dict[str, Any] = {}
    if "exploiter_timesteps" in table:
        check_count("experiment.exploiter_timesteps", table["exploiter_timesteps"])
        exploiter["timesteps"] = table["exploiter_timesteps"]
    if "exploiter_units" in table:
        if not exploiter:
            raise ValueError("experiment.exploiter_units: set exploiter_timesteps too")
        check_count("experiment.exploiter_units", table["exploiter_units"], config.players)
        exploiter["units"] = table["exploiter_units"]
    if "exploiter_policies" in table:
        policies = table["exploiter_policies"]
        if not exploiter:
            raise ValueError("experiment.exploiter_policies: set exploiter_timesteps too")
        if (
            not isinstance(policies, list)
            or not policies
            or not set(policies) <= set(EXPLOITER_FOLDERS)
            or len(set(policies)) < len(policies)
        ):
            raise ValueError(
                "experiment.exploiter_policies: a list of argmax and/or sampling (the bot's "
                f"most likely action, or its sampling policy), got {policies!r}"
            )
    if exploiter:
        exploiter["policies"] = table.get("exploiter_policies", ["argmax"])
    return exploiter


def _bot(table: dict[str, Any], config: TrainConfig) -> tuple[str, float | None]:
    """What the run's bot is, and the margin a mixture must beat the heuristics by."""
    bot = table.get("bot", "model")
    if bot not in BOTS:
        raise ValueError(f"experiment.bot: model or mixture, got {bot!r}")
    if bot == "mixture" and config.mixture != "nash":
        raise ValueError(
            "experiment.bot: mixture is the population's equilibrium, so it needs "
            f"mixture = nash, got mixture = {config.mixture!r}"
        )
    margin = table.get("mixture_margin")
    if margin is not None:
        zero_sum = config.players == 2 and game_info(config.game).pays_chips
        if bot != "mixture" or not zero_sum:
            raise ValueError(
                "experiment.mixture_margin: for bot = mixture in heads-up Lith (the margin by "
                "which the mixture beats the heuristics in a zero-sum payoff table)"
            )
        if type(margin) not in (int, float) or margin < 0:
            raise ValueError(
                f"experiment.mixture_margin: a number of at least 0 (chips a hand), got {margin!r}"
            )
    return bot, margin


def _psro(table: dict[str, Any], bot: str) -> dict[str, int]:
    """PSRO's iterations after training and each exploiter's steps (empty: none)."""
    psro: dict[str, int] = {}
    if "psro_iterations" in table:
        if bot != "mixture":
            raise ValueError(
                "experiment.psro_iterations: PSRO's exploiters join the population and change "
                "its equilibrium, so they need bot = mixture"
            )
        check_count("experiment.psro_iterations", table["psro_iterations"])
        psro = {"iterations": table["psro_iterations"], "steps": DEFAULT_PSRO_STEPS}
    if "psro_exploiter_steps" in table:
        if not psro:
            raise ValueError("experiment.psro_exploiter_steps: set psro_iterations too")
        check_count("experiment.psro_exploiter_steps", table["psro_exploiter_steps"])
        psro["steps"] = table["psro_exploiter_steps"]
    return psro


def _exact(table: dict[str, Any], config: TrainConfig, bot: str) -> bool:
    """Whether to measure the model's exact exploitability (the one-round game only)."""
    exact = table.get("exact_exploitability", False)
    if not isinstance(exact, bool):
        raise ValueError(f"experiment.exact_exploitability: true or false, got {exact!r}")
    if exact and bot == "mixture":
        raise ValueError(
            "experiment.exact_exploitability: measures the final model, not a mixture of "
            "strategies (bot = mixture); set one of the two"
        )
    if exact:
        from lith_solver.one_round import check_one_round  # numba's import, only when asked

        try:
            if not game_info(config.game).exactly_solvable:
                raise ValueError(f"the exact solver plays {games_with('exactly_solvable')}")
            check_one_round(config.game_config())
        except ValueError as error:
            raise ValueError(
                f"experiment.exact_exploitability: only for the one-round heads-up limit "
                f"game (rules rounds = 1): {error}"
            ) from None
    return exact


def experiment_table(path: Path, config: TrainConfig) -> dict[str, Any]:
    """The ``[experiment]`` table of ``path``, checked, with its defaults filled in."""
    table = tomllib.loads(path.read_text()).get("experiment", {})
    if not isinstance(table, dict):
        raise ValueError(f"experiment: must be a table ([experiment]) in {path}")
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise ValueError(f"experiment: unknown key(s) {', '.join(unknown)} in {path}")
    against = _against(table, config)
    units, seed, record = _tournament(table, config)
    exploiter = _exploiter(table, config)
    bot, margin = _bot(table, config)
    psro = _psro(table, bot)
    exact = _exact(table, config, bot)
    return {
        "against": against,
        "units": units,
        "seed": seed,
        "record": record,
        "exploiter": exploiter,
        "exact": exact,
        "bot": bot,
        "margin": margin,
        "psro": psro,
    }
