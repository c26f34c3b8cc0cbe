"""One experiment over several training seeds, and a summary of their spread.

    decktet experiment experiments/lith_hu_selfplay.toml --seeds 1-8 [--ray [ADDRESS]]

Each seed trains and is evaluated exactly as a single run (``experiments.recipe``), in
``OUT/seed-N`` (OUT: the config's ``out``); only the training seed differs, the tournaments'
deals are the same for every seed. Without Ray the seeds run one after another; with Ray each
is a task with one CPU (``experiments.on_ray``), and its run folder comes back to this machine:
the same figures either way. The summary (``OUT/sweep.md``, ``sweep.json``, ``sweep.png``)
gives every seed's result against each opponent, their mean with a Student-t 95% interval
over the seeds and their spread (standard deviation), and copies the best seed's model (the
highest mean over the opponents) to ``OUT/best_model.zip``. A sweep of one seed
(``--seed N``) runs into ``OUT/seed-N`` alike and writes no summary.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from experiments.on_ray import run_seeds_on_ray
from experiments.recipe import run_experiment
from experiments.settings import experiment_table, is_bot, opponents_label
from games import game_info
from tablegame.cli import check_unused
from tournaments.stats import mean_interval
from training.config import TrainConfig, load_config

__all__ = ["run_sweep", "seed_figures", "summarize_sweep"]

# Rows a run has only if its experiment measured them: learned exploiters' gains, and the
# final model's exact exploitability (``exact_exploitability = true``), in chips/100 hands.
MEASURES = ("exploiter", "exploiter-sampling", "exact-sampling", "exact-argmax")


def seed_figures(run: Path) -> dict[str, Any]:
    """A finished run's results: per opponent the bot's mean and interval (Lith: chips/100
    hands; Gendeneía: win rate), the exploiter's gain if the experiment trained one, and the
    final model's exact exploitability (chips/100 hands) if the experiment measured it."""
    figures: dict[str, Any] = {"against": {}}
    for folder in sorted(run.glob("vs_*")):
        result = json.loads((folder / "results.json").read_text())
        bot = next(k for k in result["agents"] if is_bot(k))
        figures["bot"] = bot.partition(":")[0]  # ppo (the final model) or mixture
        opponent = opponents_label([k for k in result["agents"] if k != bot])
        mine = result["agents_results"][bot]
        figure = mine[game_info(result["game"]).result_key]
        figures["against"][opponent] = {k: figure[k] for k in ("mean", "low", "high")}
        figures["game"] = result["game"]
    for name in ("exploiter", "exploiter-sampling"):
        exploiter = run / name / "exploiter.json"
        if exploiter.is_file():
            gain = json.loads(exploiter.read_text())["gain"]
            figures[name] = {k: gain[k] for k in ("mean", "low", "high")}
    exact = run / "exact_exploitability.json"
    if exact.is_file():
        final = json.loads(exact.read_text())[-1]  # model.zip, the run's last model
        for policy in ("sampling", "argmax"):
            figures[f"exact-{policy}"] = {"mean": 100 * final[policy]}
    return figures


def summarize_sweep(per_seed: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Across seeds, per opponent (and for the exploiter's gain): the mean with its Student-t
    95% interval over the seeds, the standard deviation, the lowest and the highest; and the
    best seed, the one with the highest mean over the opponents."""
    seeds = sorted(per_seed)
    opponents = list(per_seed[seeds[0]]["against"])
    rows: dict[str, Any] = {}
    for name in [*opponents, *MEASURES]:
        if name in MEASURES:
            values = [per_seed[s].get(name, {}).get("mean") for s in seeds]
            if any(v is None for v in values):
                continue
        else:
            values = [per_seed[s]["against"][name]["mean"] for s in seeds]
        interval = mean_interval(values)
        rows[name] = {
            "seeds": dict(zip(seeds, values, strict=True)),
            "mean": interval.mean,
            "low": interval.low,
            "high": interval.high,
            "std": float(np.std(values, ddof=1)),
            "min": float(min(values)),
            "max": float(max(values)),
        }
    score = {
        s: float(np.mean([per_seed[s]["against"][o]["mean"] for o in opponents])) for s in seeds
    }
    best = max(seeds, key=lambda s: (score[s], -s))
    return {
        "game": per_seed[seeds[0]]["game"],
        "bot": per_seed[seeds[0]].get("bot", "ppo"),
        "seeds": seeds,
        "per_seed": {str(s): per_seed[s] for s in seeds},
        "across_seeds": rows,
        "best_seed": best,
        "best_score": score[best],
    }


def run_sweep(
    path: Path,
    seeds: Sequence[int],
    timesteps: int | None = None,
    units: int | None = None,
    workers: int = 2,
    report_only: bool = False,
    on_ray: bool = False,
    address: str | None = None,
    overwrite: bool = False,
) -> Path:
    """Run the experiment at ``path`` once per seed (``on_ray``: as tasks on the Ray cluster
    at ``address``, None for a local Ray), then write the summary; with ``report_only``,
    rebuild every seed's report and the summary from finished runs. Returns the sweep's
    folder, or with one seed that seed's run folder (no summary). A seed's folder that already
    holds files is refused before any seed trains, unless ``overwrite``."""
    path = Path(path)
    values = load_config(path)
    config = TrainConfig(**values)
    config.validate()
    experiment_table(path, config)  # checked before any seed trains
    base = Path(config.out)
    runs = {seed: base / f"seed-{seed}" for seed in seeds}
    if on_ray and report_only:
        raise ValueError("--ray: --report-only trains nothing")
    if not (report_only or overwrite):
        for run in runs.values():
            check_unused(run, "out", resume="--report-only")
    if on_ray:
        run_seeds_on_ray(path, runs, address, timesteps=timesteps, units=units)
    else:
        for seed, run in runs.items():
            print(f"Seed {seed}: {run}")
            run_experiment(
                path, timesteps, units, workers, report_only, seed=seed, out=str(run),
                overwrite=True,  # checked above, before the first seed
            )  # fmt: skip
    if len(runs) == 1:
        return next(iter(runs.values()))
    summary = summarize_sweep({seed: seed_figures(run) for seed, run in runs.items()})
    summary["config"] = str(path)
    shutil.copyfile(runs[summary["best_seed"]] / "model.zip", base / "best_model.zip")
    (base / "sweep.json").write_text(json.dumps(summary, indent=2))
    (base / "sweep.md").write_text(sweep_report(summary, path))
    _plot(summary, base / "sweep.png")
    return base


def sweep_report(summary: dict[str, Any], path: Path) -> str:
    """The summary as Markdown: a row per opponent, a column per seed."""
    seeds, rows = summary["seeds"], summary["across_seeds"]
    info = game_info(summary["game"])
    f = info.number
    notes = [info.measure]
    if any(name.startswith("exploiter") for name in rows):
        notes.append(
            "the exploiter rows: an exploiter's gain against the bot's most likely action, "
            "and against its sampling policy"
        )
    if any(name.startswith("exact") for name in rows):
        notes.append(
            "the exact rows: the final model's exact exploitability, "
            "`lith_solver.exploitability`, in chips/100 hands"
        )
    mixture = summary.get("bot") == "mixture"
    lines = [
        f"# Seed sweep of {path.stem}",
        "",
        f"`decktet experiment {path} --seeds {','.join(map(str, seeds))}`: "
        f"{len(seeds)} training seeds, each evaluated alike ({'; '.join(notes)}). "
        + (
            "The bot is each run's population equilibrium mixture (`mixture:RUN`). "
            if mixture
            else ""
        )
        + "Across seeds: the mean with a Student-t 95% interval over the seeds, and the "
        "standard deviation.",
        "",
        "| against | " + " | ".join(f"seed {s}" for s in seeds) + " | mean | 95% interval | sd |",
        "| --- |" + " ---: |" * (len(seeds) + 3),
    ]
    for name, row in rows.items():
        cells = [f"{row['seeds'][s]:{f}}" for s in seeds]
        lines.append(
            f"| {name} | " + " | ".join(cells) + f" | **{row['mean']:{f}}** | "
            f"[{row['low']:{f}}, {row['high']:{f}}] | {row['std']:.3g} |"
        )
    lines += [
        "",
        f"Best seed: **{summary['best_seed']}** (mean over the opponents "
        f"{summary['best_score']:{f}}); "
        + (
            f"its bot is `mixture:seed-{summary['best_seed']}`, its final network `best_model.zip`."
            if mixture
            else f"its model is `best_model.zip`, its run `seed-{summary['best_seed']}/`."
        ),
        "",
        "![results by seed](sweep.png)",
        "",
    ]
    return "\n".join(lines)


def _plot(summary: dict[str, Any], path: Path) -> None:
    """Each seed's result against each opponent, with the mean and its interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = summary["across_seeds"]
    names = list(rows)
    figure, axes = plt.subplots(figsize=(1.6 * len(names) + 2, 4))
    for x, name in enumerate(names):
        row = rows[name]
        values = list(row["seeds"].values())
        axes.scatter([x] * len(values), values, color="tab:blue", alpha=0.6, zorder=2)
        axes.errorbar(
            x + 0.15,
            row["mean"],
            yerr=[[row["mean"] - row["low"]], [row["high"] - row["mean"]]],
            fmt="D",
            color="black",
            capsize=4,
            zorder=3,
        )
    info = game_info(summary["game"])
    if info.pays_chips:
        axes.axhline(0, color="grey", lw=0.8)
    axes.set_xticks(range(len(names)), names)
    axes.set_ylabel(info.measure)
    axes.set_title(f"{len(summary['seeds'])} seeds: each seed (dots), mean and 95% interval")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
