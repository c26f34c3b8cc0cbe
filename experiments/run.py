"""Run an experiment: train, play a duplicate tournament of the result against the heuristics,
analyze how it bets and bluffs (Lith), and write ``report.md`` with tables and plots.

    python -m experiments.run experiments/lith_hu_tag.toml [--timesteps N] [--units N]

The TOML file holds train.py options (python train.py --help) and an [experiment] table:
against (the agents of the final tournament, one pairing each: the bot against copies of an
agent, or a list of agents, one per other seat, for a mixed table; default: every heuristic of
the game), units (hands or games per pairing, a multiple of players: each duplicate block is
one deal played in every seating; default: 1,000 blocks), seed (the tournament's seed,
default 1), for Lith record (the hands of each pairing kept for the analysis: "all", the
default, or a sample of that many), and exploiter_timesteps (and optionally exploiter_units):
end with an exploiter trained that long against the bot (``agents.exploiter``), its gain, a
lower bound on the bot's exploitability, in the report; bot ("model", the default, or
"mixture": the population's equilibrium, ``agents.mixture``, with mixture_margin its margin
over the heuristics), and psro_iterations (and optionally psro_exploiter_steps, default
200,000): with bot = mixture, PSRO iterations after training (``agents.psro``), so that the
bot's equilibrium holds against exploiters of itself. Lith tournaments are played on the
batched engine (every table of a pairing at once, the same deals and seatings as one table at
a time); Gendeneía's in ``--workers`` processes. Everything is checked before training starts.
"""

from __future__ import annotations

import argparse
import json
import math
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.analytics import RATES, format_rate
from train import (
    GAMES,
    HEURISTICS,
    TrainConfig,
    agent_list,
    load_config,
    saved_options,
    steps_of,
    train,
)

__all__ = ["main", "opponents_label", "run_experiment"]

DEFAULT_BLOCKS = 1000  # duplicate blocks per pairing when [experiment] sets no units
# The bot's policy an exploiter targets, and the run's folder for it.
EXPLOITER_FOLDERS = {"argmax": "exploiter", "sampling": "exploiter-sampling"}
# What a run's bot is ([experiment] bot): its final model, or (population training) the
# equilibrium mixture of its population, PSRO's answer (agents.mixture).
BOTS = ("model", "mixture")
DEFAULT_PSRO_STEPS = 200_000  # each PSRO exploiter's training ([experiment] psro_iterations)


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


def _check_count(name: str, value: Any, multiple_of: int = 1) -> None:
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


def experiment_table(path: Path, config: TrainConfig) -> dict[str, Any]:
    """The ``[experiment]`` table of ``path``, checked, with its defaults filled in."""
    table = tomllib.loads(path.read_text()).get("experiment", {})
    if not isinstance(table, dict):
        raise ValueError(f"experiment: must be a table ([experiment]) in {path}")
    unknown = sorted(
        set(table)
        - {
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
        }
    )
    if unknown:
        raise ValueError(f"experiment: unknown key(s) {', '.join(unknown)} in {path}")
    against = table.get("against", list(HEURISTICS[config.game]))
    if not isinstance(against, list) or not against:
        raise ValueError(f"experiment.against: must be a non-empty list of agents, got {against!r}")
    from agents import make_agent

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
    units = table.get("units", DEFAULT_BLOCKS * config.players)
    _check_count("experiment.units", units, config.players)
    seed = table.get("seed", 1)
    if type(seed) is not int or seed < 0:
        raise ValueError(f"experiment.seed: must be a non-negative integer, got {seed!r}")
    record = table.get("record", "all")
    if config.game != "lith" and "record" in table:
        raise ValueError("experiment.record: Lith only (Gendeneía tournaments keep no decisions)")
    if record != "all" and not (type(record) is int and 1 <= record <= units):
        raise ValueError(
            f"experiment.record: 'all' or a number of hands from 1 to units ({units}), "
            f"got {record!r}"
        )
    exploiter = {}
    if "exploiter_timesteps" in table:
        _check_count("experiment.exploiter_timesteps", table["exploiter_timesteps"])
        exploiter["timesteps"] = table["exploiter_timesteps"]
    if "exploiter_units" in table:
        if not exploiter:
            raise ValueError("experiment.exploiter_units: set exploiter_timesteps too")
        _check_count("experiment.exploiter_units", table["exploiter_units"], config.players)
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
        if bot != "mixture" or config.players != 2 or config.game != "lith":
            raise ValueError(
                "experiment.mixture_margin: for bot = mixture in heads-up Lith (the margin by "
                "which the mixture beats the heuristics in a zero-sum payoff table)"
            )
        if type(margin) not in (int, float) or margin < 0:
            raise ValueError(
                f"experiment.mixture_margin: a number of at least 0 (chips a hand), got {margin!r}"
            )
    psro = {}
    if "psro_iterations" in table:
        if bot != "mixture":
            raise ValueError(
                "experiment.psro_iterations: PSRO's exploiters join the population and change "
                "its equilibrium, so they need bot = mixture"
            )
        _check_count("experiment.psro_iterations", table["psro_iterations"])
        psro = {"iterations": table["psro_iterations"], "steps": DEFAULT_PSRO_STEPS}
    if "psro_exploiter_steps" in table:
        if not psro:
            raise ValueError("experiment.psro_exploiter_steps: set psro_iterations too")
        _check_count("experiment.psro_exploiter_steps", table["psro_exploiter_steps"])
        psro["steps"] = table["psro_exploiter_steps"]
    exact = table.get("exact_exploitability", False)
    if not isinstance(exact, bool):
        raise ValueError(f"experiment.exact_exploitability: true or false, got {exact!r}")
    if exact and bot == "mixture":
        raise ValueError(
            "experiment.exact_exploitability: measures the final model, not a mixture of "
            "strategies (bot = mixture); set one of the two"
        )
    if exact:
        from lith_env.solve import check_one_round

        try:
            if config.game != "lith":
                raise ValueError("the exact solver plays Lith")
            check_one_round(config.game_config())
        except ValueError as error:
            raise ValueError(
                f"experiment.exact_exploitability: only for the one-round heads-up limit "
                f"game (rules rounds = 1): {error}"
            ) from None
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


def run_experiment(
    path: Path,
    timesteps: int | None = None,
    units: int | None = None,
    workers: int = 2,
    report_only: bool = False,
    seed: int | None = None,
    out: str | None = None,
) -> Path:
    """Train, play the tournaments and write ``report.md`` (with ``report_only``, the report
    again from a finished run). ``timesteps``, ``units``, the training ``seed`` and the run
    folder ``out`` override the file's."""
    path = Path(path)
    values = load_config(path)
    if timesteps is not None:
        _check_count("--timesteps", timesteps)
        values["timesteps"] = timesteps
    if seed is not None:
        values["seed"] = seed
    if out is not None:
        values["out"] = out
    _check_count("--workers", workers)
    config = TrainConfig(**values)
    config.validate()
    experiment = experiment_table(path, config)
    if units is not None:
        _check_count("--units", units, config.players)
        experiment["units"] = units
    run = Path(config.out)
    if report_only:
        for flag, given in (("--timesteps", timesteps), ("--units", units)):
            if given is not None:
                raise ValueError(f"{flag}: --report-only trains and plays nothing")
        return _rebuild_report(path, config, run)
    started = time.perf_counter()
    train(config)
    train_seconds = time.perf_counter() - started
    steps = steps_of(run / "model.zip")
    timing = {"train_seconds": train_seconds, "steps": steps}
    if experiment["psro"]:
        timing["psro_seconds"] = _psro(config, run, experiment)
    (run / "wall_time.json").write_text(json.dumps(timing))

    from agents.batched_tournament import run_batched_tournament
    from agents.tournament import TournamentSpec, run_tournament, write_outputs

    # The tournaments play the bot's most likely action (a mixture: its members'), the
    # exploiters each policy asked for: the same for every recipe.
    model = bot_spec(run, experiment["bot"], "argmax", experiment["margin"])
    sections = []
    for entry in experiment["against"]:
        others = tuple(entry) if isinstance(entry, list) else (entry,)
        opponent = opponents_label(others)
        spec = TournamentSpec(
            game=config.game,
            agents=(model, *others),
            players=config.players,
            units=experiment["units"],
            seed=experiment["seed"],
            rules=config.rules,
            analytics=config.game == "lith",
            # five copies of one opponent, or a mixed table with one agent a seat
            lineup=(0, *range(1, config.players))
            if len(others) > 1
            else (0,) + (1,) * (config.players - 1),
        )
        if config.game == "lith":  # every table of a pairing at once; same hands, same deals
            result = run_batched_tournament(spec, progress=True, record=experiment["record"])
        else:
            result = run_tournament(spec, workers=workers, progress=True)
        folder = run / f"vs_{opponent.replace(':', '_').replace(' + ', '+')}"
        write_outputs(result, folder)
        sections.append((opponent, folder, json.loads((folder / "results.json").read_text())))
    if experiment["exploiter"]:
        _exploit(config, run, experiment)
    if experiment["exact"]:
        _exact_curve(config, run)
    analytics = None
    if config.game == "lith":
        analytics = _analyze(run, sections)
    report = _report(path, config, train_seconds, steps, sections, analytics)
    (run / "report.md").write_text(report)
    return run


def _psro(config: TrainConfig, run: Path, experiment: dict[str, Any]) -> float:
    """PSRO iterations after training (``agents.psro``): exploiters of the population's
    equilibrium (with the experiment's margin) join it in turn; returns the seconds taken."""
    from agents.psro import psro_iterations

    options = experiment["psro"]
    started = time.perf_counter()
    print(
        f"PSRO: {options['iterations']} exploiters of {options['steps']:,} steps against "
        "the population's equilibrium"
    )
    psro_iterations(
        run, options["iterations"], options["steps"], experiment["margin"], seed=config.seed
    )
    return time.perf_counter() - started


def _psro_lines(run: Path) -> list[str]:
    """The report's section on the PSRO iterations after training, if the run had any."""
    path = run / "pool" / "psro.json"
    if not path.is_file():
        return []
    lines = [
        "## PSRO iterations",
        "",
        "Each exploiter trained against the equilibrium as it stood (`agents.psro`), then "
        "joined the population, whose equilibrium was solved again (chips/100 hands):",
        "",
        "| iteration | steps | exploiter's gain | 95% interval | equilibrium after it |",
        "| ---: | ---: | ---: | ---: | --- |",
    ]
    for entry in json.loads(path.read_text()):
        gain = entry["gain"]
        weights = sorted(entry["mixture"].items(), key=lambda item: -item[1])
        shown = ", ".join(f"{member} {weight:.2f}" for member, weight in weights)
        lines.append(
            f"| {entry['iteration']} | {entry['exploiter_steps']:,} | {gain['mean']:+.1f} | "
            f"{_interval(gain, '+.1f')} | {shown} |"
        )
    return [*lines, ""]


def _exploit(config: TrainConfig, run: Path, experiment: dict[str, Any]) -> None:
    """The experiment's last step: an exploiter trained against the bot in every other seat
    (``agents.exploiter``), for each policy asked (its most likely action, its sampling
    policy); its gain in ``RUN/exploiter/exploiter.json`` (``exploiter-sampling/``)."""
    from agents.exploiter import ExploiterSpec, train_exploiter

    options = experiment["exploiter"]
    for policy in options["policies"]:
        spec = ExploiterSpec(
            game=config.game,
            players=config.players,
            target=bot_spec(run, experiment["bot"], policy, experiment["margin"]),
            out=str(run / EXPLOITER_FOLDERS[policy]),
            timesteps=options["timesteps"],
            rules=config.rules,
            seed=config.seed,
            eval_every=max(options["timesteps"] // 7, 1),
            final_units=options.get("units"),
        )
        print(f"Exploiter: {spec.timesteps:,} steps against {spec.target}")
        train_exploiter(spec)


def _exact_curve(config: TrainConfig, run: Path) -> None:
    """The exact exploitability (``agents.exploitability``) of every checkpoint and of the
    final model, sampling policy and most likely action, against the steps trained: in
    ``RUN/exact_exploitability.json`` and ``.png``."""
    from agents.base import make_agent
    from agents.exploitability import exploitability
    from lith_env.solve import OneRoundGame

    game = OneRoundGame(config.game_config())
    models = sorted([*run.glob("checkpoints/model_*_steps.zip"), run / "model.zip"], key=steps_of)
    curve = []
    for path in models:
        entry: dict[str, Any] = {"step": steps_of(path), "model": str(path)}
        for policy, suffix in (("sampling", ":deterministic=false"), ("argmax", "")):
            agent = make_agent(f"ppo:{path}{suffix}", "lith", config=config.game_config())
            figures, _ = exploitability(agent, game, name=str(path))
            entry[policy] = figures["exploitability"]
        curve.append(entry)
        print(
            f"exact exploitability at {entry['step']:,} steps: sampling {entry['sampling']:.4f}, "
            f"argmax {entry['argmax']:.4f} chips a hand"
        )
    (run / "exact_exploitability.json").write_text(json.dumps(curve, indent=2))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5))
    steps = [e["step"] for e in curve]
    for policy in ("sampling", "argmax"):
        axes.plot(steps, [e[policy] for e in curve], marker="o", label=policy)
    axes.set_xlabel("training steps")
    axes.set_ylabel("exact exploitability (chips a hand)")
    axes.set_ylim(bottom=0)
    axes.legend()
    axes.set_title("the bot's exact exploitability, one-round heads-up Lith", fontsize=9)
    figure.tight_layout()
    figure.savefig(run / "exact_exploitability.png", dpi=100)
    plt.close(figure)


def _exact_lines(run: Path) -> list[str]:
    """The report's section on the exact exploitability curve, if the experiment made one."""
    path = run / "exact_exploitability.json"
    if not path.is_file():
        return []
    curve = json.loads(path.read_text())
    lines = [
        "## Exact exploitability",
        "",
        "What a best response wins from the bot on the one-round game, exactly "
        "(`agents.exploitability`; chips a hand; the equilibrium: 0):",
        "",
        "| steps | sampling policy | most likely action |",
        "| ---: | ---: | ---: |",
    ]
    lines += [f"| {e['step']:,} | {e['sampling']:.4f} | {e['argmax']:.4f} |" for e in curve]
    return [*lines, "", "![exact exploitability](exact_exploitability.png)", ""]


def _exploit_lines(run: Path) -> list[str]:
    """The report's section on the exploiters, if the experiment ran any."""
    lines: list[str] = []
    for policy, folder in EXPLOITER_FOLDERS.items():
        path = run / folder / "exploiter.json"
        if not path.is_file():
            continue
        found = json.loads(path.read_text())
        gain = found["gain"]
        unit = "hands" if found["spec"]["game"] == "lith" else "games"
        digits = "+.1f" if unit == "hands" else "+.3f"
        per = "chips/100 hands" if unit == "hands" else "win share"
        what = "its most likely action" if policy == "argmax" else "its sampling policy"
        lines += [
            f"An exploiter (`agents.exploiter`, MaskablePPO) trained for {found['steps']:,} "
            f"steps against the bot ({what}) in {found['train_seconds'] / 60:.1f} min "
            f"wins **{gain['mean']:{digits}}** {per} [{gain['low']:{digits}}, "
            f"{gain['high']:{digits}}] over {gain['units']:,} duplicate {unit}: "
            f"{found['measures']}.",
            "",
            f"![exploiter gain]({folder}/gain.png)",
            "",
        ]
    return ["## Approximate exploitability", "", *lines] if lines else []


def _rebuild_report(path: Path, config: TrainConfig, run: Path) -> Path:
    """report.md again from a finished run's tournament folders (no training, no play), with
    the options the run was trained with (its config.json) where it has them."""
    sections = []
    for folder in sorted(run.glob("vs_*")):
        result = json.loads((folder / "results.json").read_text())
        opponent = opponents_label([a for a in result["agents"] if not is_bot(a)])
        sections.append((opponent, folder, result))
    if not sections:
        raise ValueError(f"report: no tournament folders (vs_*) in {str(run)!r}")
    if (run / "config.json").is_file():
        config = TrainConfig(**saved_options(run))
    timing_path = run / "wall_time.json"
    timing = json.loads(timing_path.read_text()) if timing_path.is_file() else {}
    seconds = timing.get("train_seconds", math.nan)
    steps = timing.get("steps")
    if steps is None and (run / "model.zip").is_file():
        steps = steps_of(run / "model.zip")
    analytics = _analyze(run, sections) if config.game == "lith" else None
    (run / "report.md").write_text(_report(path, config, seconds, steps, sections, analytics))
    return run


def _analyze(run: Path, sections) -> dict[str, Any]:
    from agents.analytics import agent_report
    from agents.plots import plot_analytics
    from lith_env.game import LithConfig

    decisions = []
    for _, folder, _ in sections:
        path = folder / "decisions.jsonl"
        if path.is_file():
            for line in path.read_text().splitlines():
                d = json.loads(line)
                if is_bot(d["agent"]):  # "ppo" or "mixture", as the bot is labelled
                    d["agent"] = d["agent"].partition(":")[0]
                d["hand"] = f"{folder.name}/{d['hand']}"  # hand ids restart in every tournament
                decisions.append(d)
    config = LithConfig(num_players=sections[0][2]["players"], **sections[0][2]["rules"])
    report = agent_report(decisions, config)
    plot_analytics(decisions, report, run)
    (run / "analytics.json").write_text(json.dumps(report, indent=2))
    return report


def _interval(c: dict[str, Any], number: str) -> str:
    """``[low, high]``, or n/a when a single block gives no interval (None or infinite)."""
    low, high = c.get("low"), c.get("high")
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return "n/a"
    return f"[{low:{number}}, {high:{number}}]"


def _report(
    path: Path, config: TrainConfig, seconds: float, steps: int | None, sections, analytics
) -> str:
    trained = f"{steps:,}" if steps is not None else f"{config.timesteps:,}"
    lines = [
        f"# Experiment {path.stem}",
        "",
        f"`python -m experiments.run {path}`: trained {trained} steps (timesteps "
        f"{config.timesteps:,}, in whole rollouts of {config.rollout_steps:,}) in "
        f"{seconds / 60:.1f} min (seed {config.seed}, opponents {', '.join(config.opponents)}).",
        "",
    ]
    bots = {k for _, _, result in sections for k in result["agents"] if is_bot(k)}
    if any(b.startswith("mixture:") for b in bots):
        lines += [
            "The bot is the equilibrium mixture of the run's population (`mixture:RUN`, "
            "`agents.mixture`): a member drawn by its weight plays each hand.",
            "",
        ]
    lith = config.game == "lith"
    lines += [
        "| opponent | "
        + (
            "hands | chips/100 | 95% interval |"
            if lith
            else "games | win rate | 95% interval | mean score |"
        ),
        "| --- | ---: | ---: | ---: |" + ("" if lith else " ---: |"),
    ]
    for opponent, _, result in sections:
        me = next(v for k, v in result["agents_results"].items() if is_bot(k))
        if lith:
            c = me["chips_per_100"]
            row = f"| {opponent} | {me['hands']:,} | {c['mean']:+.1f} | {_interval(c, '+.1f')} |"
        else:
            w, s = me["win_rate"], me["mean_score"]
            interval = _interval(w, ".3f")
            row = (
                f"| {opponent} | {me['games']:,} | {w['mean']:.3f} | {interval} | {s['mean']:.2f} |"
            )
        lines.append(row)
    lines += ["", f"Intervals: {sections[0][2]['method']}.", ""]
    if analytics:
        agents = sorted(analytics)
        lines += [
            "## How it bets and bluffs",
            "",
            "| rate | " + " | ".join(agents) + " |",
            "| --- |" + " ---: |" * len(agents),
        ]
        for name in RATES:
            cells = [format_rate(analytics[agent]["rates"].get(name)) for agent in agents]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines += [
            "",
            "![bet frequency](bet_frequency.png)",
            "",
            "![exchanges](exchange_by_category.png)",
            "",
        ]
    lines += _psro_lines(Path(config.out))
    lines += _exploit_lines(Path(config.out))
    lines += _exact_lines(Path(config.out))
    for opponent, folder, _ in sections:
        lines.append(f"![cumulative vs {opponent}]({folder.name}/cumulative.png)")
    return "\n".join(lines) + "\n"


def positive_int(text: str) -> int:
    """An argparse type: a positive integer, or an error naming the value."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def parser() -> argparse.ArgumentParser:
    """The command line (every option's help shows its default)."""
    p = argparse.ArgumentParser(
        prog="python -m experiments.run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="agents for [experiment] against: "
        + "; ".join(f"{game}: {agent_list(game)}" for game in GAMES)
        + ". See docs/training.md.",
    )
    p.add_argument("config", help="an experiments/*.toml file")
    p.add_argument(
        "--timesteps",
        type=positive_int,
        help="train this many steps instead (default: the file's timesteps)",
    )
    p.add_argument(
        "--units",
        type=positive_int,
        help="hands or games per tournament pairing instead, a multiple of the players "
        f"(default: the file's [experiment] units, else {DEFAULT_BLOCKS:,} blocks)",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=2,
        help="Gendeneía tournament processes (Lith plays on the batched engine); the results are "
        "the same for any number (default: 2)",
    )
    p.add_argument(
        "--seeds",
        metavar="LIST",
        help="train and evaluate once per training seed, e.g. 1-8 or 1,3,5, each in "
        "OUT/seed-N, then summarize the spread in OUT/sweep.md (default: one run, the file's "
        "seed)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="with --seeds: run the seeds in parallel as Ray tasks (a CPU each) on the cluster "
        "at ADDRESS (auto, HOST:PORT, ray://HOST:PORT), or on a local Ray without one; the "
        "same figures (docs/scale.md) (default: one seed after another here)",
    )
    p.add_argument(
        "--report-only",
        action="store_true",
        help="rebuild report.md from the finished run's tournament folders: no training, "
        "no play (default: off)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m experiments.run``; a bad option exits with status 2, naming it."""
    p = parser()
    args = p.parse_args(argv)
    try:
        if args.seeds is None:
            if args.ray is not None:
                raise ValueError("--ray: only with --seeds (a sweep's seeds are its tasks)")
            run = run_experiment(
                Path(args.config), args.timesteps, args.units, args.workers, args.report_only
            )
            print((run / "report.md").read_text())
            return 0
        from distributed.cluster import ClusterError, parse_address
        from experiments.sweep import parse_seeds, run_sweep

        seeds = parse_seeds(args.seeds)
        try:
            address = parse_address(args.ray) if args.ray is not None else None
            base = run_sweep(
                Path(args.config),
                seeds,
                args.timesteps,
                args.units,
                args.workers,
                args.report_only,
                on_ray=args.ray is not None,
                address=address,
            )
        except ClusterError as error:
            raise ValueError(f"--ray: {error}") from None
    except ValueError as error:
        p.error(str(error))
    print((base / "sweep.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
