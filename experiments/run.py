"""Run an experiment: train, play a duplicate tournament of the result against the heuristics,
analyze how it bets and bluffs (Lith), and write ``report.md`` with tables and plots.

    python -m experiments.run experiments/lith_hu_tag.toml [--timesteps N] [--units N]

The TOML file holds ``train.py`` options and an ``[experiment]`` table: ``against`` (the
heuristics of the final tournament), ``units`` (hands or games per pairing), ``seed``.
"""

from __future__ import annotations

import argparse
import json
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.analytics import RATES, format_rate
from train import HEURISTICS, TrainConfig, load_config, train

__all__ = ["main", "run_experiment"]


def run_experiment(
    path: Path,
    timesteps: int | None = None,
    units: int | None = None,
    workers: int = 2,
    report_only: bool = False,
) -> Path:
    values = load_config(path)
    experiment = tomllib.loads(path.read_text()).get("experiment", {})
    if timesteps:
        values["timesteps"] = timesteps
    config = TrainConfig(**values)
    config.validate()
    run = Path(config.out)
    if report_only:
        return _rebuild_report(path, config, run)
    started = time.perf_counter()
    train(config)
    train_seconds = time.perf_counter() - started
    (run / "wall_time.json").write_text(json.dumps({"train_seconds": train_seconds}))

    from agents.tournament import TournamentSpec, run_tournament, write_outputs

    against = experiment.get("against", list(HEURISTICS[config.game]))
    count = units or experiment.get("units", 2000)
    rules = {k: v for k, v in config.env_kwargs().items() if k not in ("num_players", "reward")}
    model = f"ppo:{run / 'model.zip'}"
    sections = []
    for opponent in against:
        spec = TournamentSpec(
            game=config.game,
            agents=(model, opponent),
            players=config.players,
            units=count,
            seed=experiment.get("seed", 1),
            rules=rules,
            analytics=config.game == "lith",
            lineup=(0,) + (1,) * (config.players - 1),
        )
        result = run_tournament(spec, workers=workers, progress=True)
        folder = run / f"vs_{opponent.replace(':', '_')}"
        write_outputs(result, folder)
        sections.append((opponent, folder, json.loads((folder / "results.json").read_text())))
    analytics = None
    if config.game == "lith":
        analytics = _analyze(run, sections)
    report = _report(path, config, train_seconds, sections, analytics)
    (run / "report.md").write_text(report)
    return run


def _rebuild_report(path: Path, config: TrainConfig, run: Path) -> Path:
    """report.md again from a finished run's tournament folders (no training, no play)."""
    sections = []
    for folder in sorted(run.glob("vs_*")):
        result = json.loads((folder / "results.json").read_text())
        opponent = next(a for a in result["agents"] if not a.startswith("ppo:"))
        sections.append((opponent, folder, result))
    if not sections:
        raise ValueError(f"report: no tournament folders (vs_*) in {str(run)!r}")
    timing = run / "wall_time.json"
    seconds = json.loads(timing.read_text())["train_seconds"] if timing.is_file() else float("nan")
    analytics = _analyze(run, sections) if config.game == "lith" else None
    (run / "report.md").write_text(_report(path, config, seconds, sections, analytics))
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
                d["agent"] = "ppo" if d["agent"].startswith("ppo:") else d["agent"]
                d["hand"] = f"{folder.name}/{d['hand']}"  # hand ids restart in every tournament
                decisions.append(d)
    config = LithConfig(num_players=sections[0][2]["players"], **sections[0][2]["rules"])
    report = agent_report(decisions, config)
    plot_analytics(decisions, report, run)
    (run / "analytics.json").write_text(json.dumps(report, indent=2))
    return report


def _report(path: Path, config: TrainConfig, seconds: float, sections, analytics) -> str:
    lines = [
        f"# Experiment {path.stem}",
        "",
        f"`python -m experiments.run {path}`: trained {config.timesteps:,} steps in "
        f"{seconds / 60:.1f} min (seed {config.seed}, opponents {', '.join(config.opponents)}).",
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
        me = next(v for k, v in result["agents_results"].items() if k.startswith("ppo:"))
        if lith:
            c = me["chips_per_100"]
            interval = f"[{c['low']:+.1f}, {c['high']:+.1f}]"
            lines.append(f"| {opponent} | {me['hands']:,} | {c['mean']:+.1f} | {interval} |")
        else:
            w, s = me["win_rate"], me["mean_score"]
            interval = f"[{w['low']:.3f}, {w['high']:.3f}]"
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
    for opponent, folder, _ in sections:
        lines.append(f"![cumulative vs {opponent}]({folder.name}/cumulative.png)")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("config", help="an experiments/*.toml file")
    parser.add_argument("--timesteps", type=int, help="override the training length")
    parser.add_argument("--units", type=int, help="override hands/games per tournament pairing")
    parser.add_argument("--workers", type=int, default=2, help="tournament processes")
    parser.add_argument(
        "--report-only", action="store_true", help="rebuild report.md from a finished run"
    )
    args = parser.parse_args(argv)
    try:
        run = run_experiment(
            Path(args.config), args.timesteps, args.units, args.workers, args.report_only
        )
    except ValueError as error:
        parser.error(str(error))
    print((run / "report.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
