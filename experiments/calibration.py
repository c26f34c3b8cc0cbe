"""The learned best response calibrated against exact ones, on a game the exact solver holds.

    decktet calibrate experiments/calibration_1round.toml [--ray [ADDRESS]]

For every target of the TOML and every seed, one exploiter (``training.exploiter``) trains for
the largest budget and is measured on the way at the smaller ones (``--measure-at``: the
network a run of that budget ends with). Each target's exact exploitability comes from the
exact best response (``lith_solver.exploitability``). ``OUT/calibration.md`` tables the learned
gain as a share of the exact figure, target by budget, with the spread over the exploiter
seeds; ``OUT/calibration.png`` draws the shares. A run already in ``OUT`` (its
``exploiter.json``) is kept, so a calibration stopped on the way goes on where it was.
"""

from __future__ import annotations

import argparse
import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tablegame.cli import parse_seeds

__all__ = ["calibration_specs", "exact_figures", "load_calibration", "main", "summarize"]


def load_calibration(path: Path) -> dict[str, Any]:
    """The calibration's TOML, checked: ``ValueError`` naming the first bad entry."""
    if not path.is_file():
        raise ValueError(f"config: no file at {str(path)!r}")
    try:
        table = tomllib.loads(path.read_text()).get("calibration")
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"config: {path} is not valid TOML ({error})") from None
    if not isinstance(table, dict):
        raise ValueError("calibration: the TOML needs a [calibration] table")
    known = {"out", "rules", "targets", "budgets", "seeds", "final_hands"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ValueError(
            f"calibration.{unknown[0]}: not a key; the keys: {', '.join(sorted(known))}"
        )
    targets = table.get("targets")
    if not isinstance(targets, list) or not targets or not all(isinstance(t, str) for t in targets):
        raise ValueError("calibration.targets: a list of agent specs")
    budgets = table.get("budgets")
    if (
        not isinstance(budgets, list)
        or not budgets
        or not all(isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in budgets)
        or budgets != sorted(set(budgets))
    ):
        raise ValueError(f"calibration.budgets: increasing positive step counts, got {budgets!r}")
    if not isinstance(table.get("rules", {}), dict):
        raise ValueError("calibration.rules: a table of Lith rules")
    for spec in calibration_specs(table, table.get("seeds", [1, 2, 3])):
        spec.check(make_folder=False)  # every target, rule and budget, before any training
    return table


def calibration_specs(table: dict[str, Any], seeds: Sequence[int]) -> list[Any]:
    """One exploiter a target and seed: the largest budget, the others measured on the way."""
    from training.exploiter import ExploiterSpec, run_name

    out = Path(table.get("out", "runs/calibration"))
    *smaller, largest = table["budgets"]
    return [
        ExploiterSpec(
            game="lith",
            players=2,
            target=target,
            out=str(out / run_name(target, seed)),
            timesteps=largest,
            rules=dict(table.get("rules", {})),
            seed=seed,
            eval_every=0,
            final_units=table.get("final_hands", 20_000),
            measure_at=tuple(smaller),
        )
        for target in table["targets"]
        for seed in seeds
    ]


def exact_figures(table: dict[str, Any]) -> dict[str, float]:
    """Each target's exact exploitability in chips/100 hands (its exact best response)."""
    from games import game_config
    from lith_solver.exploitability import best_response_to, solvable_game
    from lith_solver.solving import heads_up_config
    from tablegame.registry import make_agent

    config = heads_up_config(dict(table.get("rules", {})))
    game = solvable_game(config)
    lith_config = game_config("lith", 2, dict(table.get("rules", {})))
    figures = {}
    for target in table["targets"]:
        agent = make_agent(target, "lith", seed=0, config=lith_config)
        figures[target] = 100 * best_response_to(agent, game, target)["exploitability"]
    return figures


def summarize(table: dict[str, Any], specs: Sequence[Any], exact: dict[str, float]) -> Path:
    """``OUT/calibration.md`` (the table), ``calibration.json`` and ``calibration.png``."""
    import matplotlib
    import numpy as np

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(table.get("out", "runs/calibration"))
    budgets = table["budgets"]
    rows: list[dict[str, Any]] = []
    for target in table["targets"]:
        runs = [s for s in specs if s.target == target]
        results = [json.loads((Path(s.out) / "exploiter.json").read_text()) for s in runs]
        for i, budget in enumerate(budgets):
            gains = [r["budgets"][i] if i < len(budgets) - 1 else r["gain"] for r in results]
            means = [g["mean"] for g in gains]
            rows.append(
                {
                    "target": target,
                    "budget": budget,
                    "exact": exact[target],
                    "seeds": [s.seed for s in runs],
                    "gains": means,
                    "half_widths": [(g["high"] - g["low"]) / 2 for g in gains],
                    "shares": [m / exact[target] for m in means],
                    "minutes": [r["train_seconds"] / 60 * (budget / budgets[-1]) for r in results],
                }
            )
    hands = table.get("final_hands", 20_000)
    lines = [
        "# The learned best response against the exact one",
        "",
        f"Rules {table.get('rules', {})}; exploiters of seeds {rows[0]['seeds']}, each "
        f"measured on {hands:,} duplicate hands; chips/100 hands. Best: the largest gain of the "
        "seeds, as a share of the exact exploitability (what a protocol taking the best of "
        "these seeds reports). Spread: the largest gain less the smallest.",
        "",
        "| target | exact | budget (steps) | learned gain, by seed | best (share) | "
        "median share | spread | 95% half-width (median) |",
        "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        best = max(row["gains"])
        lines.append(
            f"| `{row['target']}` | {row['exact']:.2f} | {row['budget']:,} | "
            + ", ".join(f"{g:+.2f}" for g in row["gains"])
            + f" | {best:+.2f} ({100 * best / row['exact']:.0f}%) | "
            f"{100 * float(np.median(row['shares'])):.0f}% | "
            f"{max(row['gains']) - min(row['gains']):.2f} | "
            f"{float(np.median(row['half_widths'])):.2f} |"
        )
    out.mkdir(parents=True, exist_ok=True)
    (out / "calibration.md").write_text("\n".join(lines) + "\n")
    (out / "calibration.json").write_text(json.dumps({"exact": exact, "rows": rows}, indent=2))
    figure, axes = plt.subplots(figsize=(7, 4))
    for t, target in enumerate(table["targets"]):
        mine = [r for r in rows if r["target"] == target]
        for s in range(len(mine[0]["gains"])):
            axes.plot(
                [r["budget"] for r in mine],
                [r["gains"][s] for r in mine],
                marker="o",
                color=f"C{t}",
                alpha=0.7,
                label=f"{target} (exact {exact[target]:.1f})" if s == 0 else None,
            )
        axes.axhline(exact[target], color=f"C{t}", linestyle="--", linewidth=0.8)
    axes.axhline(0, color="grey", linewidth=0.6)
    axes.set_xscale("log")
    axes.set_xlabel("exploiter budget (training steps, log scale)")
    axes.set_ylabel("gain (chips/100 hands); dashed: exact")
    axes.set_title("learned best responses against exact ones, one line a seed", fontsize=9)
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(out / "calibration.png", dpi=100)
    plt.close(figure)
    return out / "calibration.md"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="decktet calibrate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("config", help="the calibration's TOML")
    parser.add_argument("--seeds", default=None, help="seeds, e.g. 1-3 (default: the TOML's)")
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="train the exploiters as Ray tasks, a CPU each (default: one after another)",
    )
    args = parser.parse_args(argv)
    from distributed.cluster import ClusterError, parse_address
    from training.exploiter_cli import run_exploiters

    try:
        table = load_calibration(Path(args.config))
        seeds = parse_seeds(args.seeds) if args.seeds else table.get("seeds", [1, 2, 3])
        specs = calibration_specs(table, seeds)
        address = parse_address(args.ray) if args.ray is not None else None
        exact = exact_figures(table)
        todo = [s for s in specs if not (Path(s.out) / "exploiter.json").is_file()]
        print(f"calibration: {len(todo)} of {len(specs)} exploiters to train", flush=True)
        if todo:
            run_exploiters(todo, on_ray=args.ray is not None, address=address)
    except ClusterError as error:
        parser.error(f"--ray: {error}")
    except ValueError as error:
        parser.error(str(error))
    print(f"table: {summarize(table, specs, exact)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
