"""An experiment at one seed: train, play a duplicate tournament of the bot against its
opponents, analyze how it bets and bluffs (Lith), optionally measure it (an exploiter, PSRO
iterations, the exact exploitability), and write ``report.md`` with tables and plots.

The experiment file's ``[experiment]`` table is described in :mod:`experiments.settings`.
Tournaments are played on the game's batched engine (every table of a pairing at once, the
same deals and seatings as one table at a time); a game without one in ``workers`` processes.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

from experiments.settings import (
    EXPLOITER_FOLDERS,
    bot_spec,
    check_count,
    experiment_table,
    is_bot,
    opponents_label,
)
from games import game_info
from tablegame.cli import check_unused
from tournaments.analytics import RATES, format_rate
from training.config import TrainConfig, load_config, saved_options
from training.trainer import steps_of, train

__all__ = ["run_experiment"]


def run_experiment(
    path: Path,
    timesteps: int | None = None,
    units: int | None = None,
    workers: int = 2,
    report_only: bool = False,
    seed: int | None = None,
    out: str | None = None,
    overwrite: bool = False,
) -> Path:
    """Train, play the tournaments and write ``report.md`` (with ``report_only``, the report
    again from a finished run). ``timesteps``, ``units``, the training ``seed`` and the run
    folder ``out`` override the file's. A run folder that already holds files is refused
    (``ValueError`` naming ``out``) unless ``overwrite``."""
    path = Path(path)
    values = load_config(path)
    if timesteps is not None:
        check_count("--timesteps", timesteps)
        values["timesteps"] = timesteps
    if seed is not None:
        values["seed"] = seed
    if out is not None:
        values["out"] = out
    check_count("--workers", workers)
    config = TrainConfig(**values)
    config.validate()
    info = game_info(config.game)
    experiment = experiment_table(path, config)
    if units is not None:
        check_count("--units", units, config.players)
        experiment["units"] = units
    run = Path(config.out)
    if report_only:
        for flag, given in (("--timesteps", timesteps), ("--units", units)):
            if given is not None:
                raise ValueError(f"{flag}: --report-only trains and plays nothing")
        return _rebuild_report(path, config, run)
    if not overwrite:
        check_unused(run, "out", resume="--report-only")
    started = time.perf_counter()
    train(config, overwrite=True)
    train_seconds = time.perf_counter() - started
    steps = steps_of(run / "model.zip")
    timing = {"train_seconds": train_seconds, "steps": steps}
    if experiment["psro"]:
        timing["psro_seconds"] = _psro(config, run, experiment)
    (run / "wall_time.json").write_text(json.dumps(timing))

    from tournaments.batched_tables import run_batched_tournament
    from tournaments.per_table import run_tournament
    from tournaments.results import write_outputs
    from tournaments.spec import TournamentSpec

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
            analytics=info.betting_analytics,
            # five copies of one opponent, or a mixed table with one agent a seat
            lineup=(0, *range(1, config.players))
            if len(others) > 1
            else (0,) + (1,) * (config.players - 1),
        )
        if info.batched_engine:  # every table of a pairing at once; same hands, same deals
            # the hands Lith's analysis reads; other games record nothing, as one table at a
            # time without histories
            record = experiment["record"] if info.betting_analytics else None
            result = run_batched_tournament(spec, progress=True, record=record)
        else:
            result = run_tournament(spec, workers=workers, progress=True)
        folder = run / f"vs_{opponent.replace(':', '_').replace(' + ', '+')}"
        write_outputs(result, folder)
        sections.append((opponent, folder, json.loads((folder / "results.json").read_text())))
    if experiment["exploiter"]:
        _exploit(config, run, experiment)
    if experiment["exact"]:
        _exact_curve(config, run)
    analytics = _analyze(run, sections) if info.betting_analytics else None
    report = _report(path, config, train_seconds, steps, sections, analytics)
    (run / "report.md").write_text(report)
    return run


def _psro(config: TrainConfig, run: Path, experiment: dict[str, Any]) -> float:
    """PSRO iterations after training (``training.psro``): exploiters of the population's
    equilibrium (with the experiment's margin) join it in turn; returns the seconds taken."""
    from training.psro import psro_iterations

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
        "Each exploiter trained against the equilibrium as it stood (`training.psro`), then "
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
    (``training.exploiter``), for each policy asked (its most likely action, its sampling
    policy); its gain in ``RUN/exploiter/exploiter.json`` (``exploiter-sampling/``)."""
    from training.exploiter import ExploiterSpec, train_exploiter

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
    """The exact exploitability (``lith_solver.exploitability``) of every checkpoint and of the
    final model, sampling policy and most likely action, against the steps trained: in
    ``RUN/exact_exploitability.json`` and ``.png``."""
    from lith_solver.exploitability import exploitability
    from lith_solver.one_round import OneRoundGame
    from tablegame.registry import make_agent

    game = OneRoundGame(config.game_config())
    models = sorted([*run.glob("checkpoints/model_*_steps.zip"), run / "model.zip"], key=steps_of)
    curve = []
    for path in models:
        entry: dict[str, Any] = {"step": steps_of(path), "model": str(path)}
        for policy, suffix in (("sampling", ":deterministic=false"), ("argmax", "")):
            agent = make_agent(f"ppo:{path}{suffix}", config.game, config=config.game_config())
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
        "(`lith_solver.exploitability`; chips a hand; the equilibrium: 0):",
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
        info = game_info(found["spec"]["game"])
        unit, digits, per = info.units, info.signed, info.gain_measure
        what = "its most likely action" if policy == "argmax" else "its sampling policy"
        lines += [
            f"An exploiter (`training.exploiter`, MaskablePPO) trained for {found['steps']:,} "
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
    analytics = _analyze(run, sections) if game_info(config.game).betting_analytics else None
    (run / "report.md").write_text(_report(path, config, seconds, steps, sections, analytics))
    return run


def _analyze(run: Path, sections) -> dict[str, Any]:
    from lith_env.game import LithConfig
    from tournaments.analytics import agent_report
    from tournaments.plots import plot_analytics

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
        f"`decktet experiment {path}`: trained {trained} steps (timesteps "
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
    info = game_info(config.game)
    extras = info.result_extras
    lines += [
        f"| opponent | {info.units} | {info.measure_short} | 95% interval |"
        + "".join(f" {head} |" for head, _, _ in extras),
        "| --- | ---: | ---: | ---: |" + " ---: |" * len(extras),
    ]
    for opponent, _, result in sections:
        me = next(v for k, v in result["agents_results"].items() if is_bot(k))
        figure, f = me[info.result_key], info.number
        row = f"| {opponent} | {me[info.units]:,} | {figure['mean']:{f}} | {_interval(figure, f)} |"
        lines.append(row + "".join(f" {me[key]['mean']:{g}} |" for _, key, g in extras))
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
