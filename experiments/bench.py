"""The equilibrium bench: every method on every game with an exact answer, measured exactly.

    decktet methods experiments/bench_equilibrium.toml [--seeds 1-3] [--ray [ADDRESS]]

The TOML names the games (heads-up limit Lith rules the exact solver holds), the methods and
the seeds. A method is either sampling CFR on a card abstraction (``kind = "mccfr"``:
``lith_solver.abstraction`` / ``abstract_exchanges``, its average and its current strategy)
or a training run (``kind = "train"``: ``train.py`` with a config file, its checkpoints played
by their sampling policy, the last iterate). Every point of a curve is the exact
exploitability (``lith_solver.exploitability``, chips a hand) against the core-minutes spent
so far: the solver's own CPU time, or the training process's CPU time shared out over its
checkpoints by their steps (a rollout costs the same all run long). Each (game, method, seed)
writes ``OUT/GAME/METHOD/seed-N/curve.json``; one already there is kept, so a bench stopped
on the way goes on where it was. At the end ``OUT/bench.md`` tables the last point of every
seed (its worst seed first) and ``OUT/GAME.png`` draws the curves (log scale), with the
references the TOML gives for scale.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tablegame.cli import parse_seeds

__all__ = ["load_bench", "main", "run_bench", "run_piece", "summarize"]

KINDS = ("mccfr", "train")


# A method's options of the games with exchanges, and their values.
EXCHANGE_CHOICES = {
    "recall": ("hand", "swap", "gift", "perfect"),
    "bucketing": ("equity", "exchange"),
}


def _bad(name: str, why: str) -> ValueError:
    return ValueError(f"{name}: {why}")


def load_bench(path: Path) -> dict[str, Any]:
    """The bench's TOML, checked: ``ValueError`` naming the first bad entry."""
    if not path.is_file():
        raise ValueError(f"config: no file at {str(path)!r}")
    try:
        bench = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"config: {path} is not valid TOML ({error})") from None
    from lith_solver.solving import check_solvable, heads_up_config

    games = bench.get("games")
    if not isinstance(games, dict) or not games:
        raise _bad("games", "a table of games, each with its rules")
    for name, game in games.items():
        if not isinstance(game, dict) or not isinstance(game.get("rules"), dict):
            raise _bad(f"games.{name}", "needs a rules table")
        check_solvable(heads_up_config(game["rules"]))
    methods = bench.get("methods")
    if not isinstance(methods, list) or not methods:
        raise _bad("methods", "a list of [[methods]] tables")
    for method in methods:
        name = method.get("name")
        if not isinstance(name, str) or not name:
            raise _bad("methods", "every method needs a name")
        if method.get("kind") not in KINDS:
            raise _bad(
                f"methods.{name}.kind", f"must be mccfr or train, got {method.get('kind')!r}"
            )
        unknown = [g for g in method.get("games", []) if g not in games]
        if not method.get("games") or unknown:
            raise _bad(f"methods.{name}.games", f"must name games of the bench, got {unknown}")
        one_round = any(games[g]["rules"].get("rounds", 3) == 1 for g in method["games"])
        for key, choices in EXCHANGE_CHOICES.items():
            if key not in method:
                continue
            if method[key] not in choices:
                allowed = f"{', '.join(choices[:-1])} or {choices[-1]}"
                raise _bad(f"methods.{name}.{key}", f"must be {allowed}, got {method[key]!r}")
            if one_round:
                raise _bad(f"methods.{name}.{key}", "only for games with exchanges (rounds 2 or 3)")
        if "average_power" in method:
            from lith_solver.mccfr import check_average_power

            try:
                check_average_power(method["average_power"])
            except ValueError as error:
                raise _bad(f"methods.{name}.average_power", str(error).partition(": ")[2]) from None
        if method["kind"] == "train" and not Path(method.get("config", "")).is_file():
            raise _bad(f"methods.{name}.config", f"no file at {method.get('config')!r}")
    bench.setdefault("bench", {})
    return bench


def _rules(bench: dict[str, Any], game: str) -> dict[str, Any]:
    return dict(bench["games"][game]["rules"])


def run_piece(
    bench: dict[str, Any], game: str, method: dict[str, Any], seed: int, out: str
) -> None:
    """One (game, method, seed): its curve in ``out/curve.json``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    if method["kind"] == "mccfr":
        curve = _mccfr(_rules(bench, game), method, seed)
    else:
        curve = _train(_rules(bench, game), method, seed, folder)
    (folder / "curve.json").write_text(json.dumps(curve, indent=2) + "\n")


def _mccfr(rules: dict[str, Any], method: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    from lith_solver.abstract_exchanges import ExchangeAbstractSolver
    from lith_solver.abstraction import AbstractSolver
    from lith_solver.one_round import OneRoundGame
    from lith_solver.solving import heads_up_config
    from lith_solver.swap_abstraction import RECALLS as SWAP_RECALLS
    from lith_solver.swap_abstraction import SwapAbstractSolver

    config = heads_up_config(rules)
    traversals = int(method.get("traversals", 1000))
    power = method.get("average_power", 1.0)
    bucketing = method.get("bucketing", "equity")
    if config.rounds == 1:
        solver: Any = AbstractSolver(
            OneRoundGame(config), int(method["buckets"]), seed, traversals, power
        )
    elif method.get("recall") in SWAP_RECALLS:
        solver = SwapAbstractSolver(
            config, int(method["buckets"]), seed, traversals, power, method["recall"], bucketing
        )
    else:
        solver = ExchangeAbstractSolver(
            config,
            int(method["buckets"]),
            seed,
            traversals,
            method.get("recall", "hand"),
            power,
            bucketing,
        )
    points = solver.solve(int(method["iterations"]), int(method["check_every"]))
    return [
        {
            "core_minutes": p["cpu_seconds"] / 60,
            "iteration": p["iteration"],
            "average": p["real_average"],
            "current": p["real_current"],
        }
        for p in points
    ]


def _train(
    rules: dict[str, Any], method: dict[str, Any], seed: int, folder: Path
) -> list[dict[str, Any]]:
    from lith_solver.exploitability import best_response_to, solvable_game
    from lith_solver.solving import heads_up_config
    from tablegame.registry import make_agent
    from training.trainer import steps_of

    run = folder / "run"
    # The config travels as text, so that a Ray worker's scratch folder needs no checkout.
    config_file = folder / "config.toml"
    config_file.write_text(method.get("config_text") or Path(method["config"]).read_text())
    command = "from training.cli import main; raise SystemExit(main())"
    flags = [sys.executable, "-c", command, "--config", str(config_file), "--seed", str(seed),
             "--out", str(run), "--no-progress-bar", "--eval-every", "0"]  # fmt: skip
    for key in ("timesteps", "checkpoint_every"):
        if key in method:
            flags += [f"--{key.replace('_', '-')}", str(method[key])]
    for key, value in rules.items():
        text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        flags += ["--rule", f"{key}={text}"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(flags, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"train.py failed for {method['name']}: {done.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    config = heads_up_config(rules)
    game = solvable_game(config)
    models = sorted([*run.glob("checkpoints/model_*_steps.zip"), run / "model.zip"], key=steps_of)
    total = steps_of(models[-1])
    curve, seen = [], set()
    for path in models:
        steps = steps_of(path)
        if steps in seen:
            continue
        seen.add(steps)
        spec = f"ppo:{path}:deterministic=false"
        agent = make_agent(spec, "lith", config=config)
        figure = best_response_to(agent, game, spec)["exploitability"]
        curve.append({"core_minutes": cpu / 60 * steps / total, "steps": steps, "current": figure})
    return curve


def run_bench(
    path: Path, seeds: Sequence[int] | None = None, address: str | None = None, ray: bool = False
) -> Path:
    """Run every missing (game, method, seed) of the bench at ``path``, then summarize."""
    bench = load_bench(path)
    for method in bench["methods"]:
        if method["kind"] == "train":
            method["config_text"] = Path(method["config"]).read_text()
    seeds = list(seeds or bench["bench"].get("seeds", [1, 2, 3]))
    out = Path(bench["bench"].get("out", "runs/bench"))
    pieces = [
        (game, method, seed, str(out / game / method["name"] / f"seed-{seed}"))
        for method in bench["methods"]
        for game in method["games"]
        for seed in seeds
        if not (out / game / method["name"] / f"seed-{seed}" / "curve.json").is_file()
    ]
    print(f"bench {path}: {len(pieces)} runs to do, results in {out}", flush=True)
    if ray:
        from distributed.cluster import connect
        from distributed.files import unpack_into
        from distributed.tasks import in_scratch, map_tasks, relative_out

        connect(address)
        tasks = [(relative_out(p[3]), run_piece, bench, *p[:3], relative_out(p[3])) for p in pieces]

        def arrived(i: int, answer: tuple[bytes, None]) -> None:
            unpack_into(answer[0], Path(pieces[i][3]).parent)

        map_tasks(in_scratch, tasks, num_cpus=1, description="bench (ray)", on_result=arrived)
    else:
        for game, method, seed, folder in pieces:
            start = time.time()
            run_piece(bench, game, method, seed, folder)
            last = json.loads((Path(folder) / "curve.json").read_text())[-1]
            print(
                f"{game} {method['name']} seed {seed}: "
                + ", ".join(f"{k} {last[k]:.4f}" for k in ("average", "current") if k in last)
                + f" chips/hand after {last['core_minutes']:.1f} core-minutes "
                f"({time.time() - start:.0f} s)",
                flush=True,
            )
    summarize(bench, seeds, out)
    return out


def summarize(bench: dict[str, Any], seeds: Sequence[int], out: Path) -> None:
    """``OUT/bench.md`` and one plot a game."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    lines = ["# The equilibrium bench", "",
             "Exact exploitability (chips a hand) at each seed's last point, worst seed first.",
             ""]  # fmt: skip
    for game, spec in bench["games"].items():
        goal = spec.get("goal")
        lines += [f"## {game}: rules {spec['rules']}" + (f", goal <= {goal}" if goal else ""), ""]
        lines += ["| method | policy | worst seed | median | best | core-minutes (median) |",
                  "| --- | --- | ---: | ---: | ---: | ---: |"]  # fmt: skip
        figure, axes = plt.subplots(figsize=(7, 4))
        for method in bench["methods"]:
            if game not in method["games"]:
                continue
            curves = []
            for seed in seeds:
                path = out / game / method["name"] / f"seed-{seed}" / "curve.json"
                if path.is_file():
                    curves.append(json.loads(path.read_text()))
            if not curves:
                continue
            for policy in ("average", "current"):
                if policy not in curves[0][0]:
                    continue
                finals = sorted(c[-1][policy] for c in curves)
                minutes = float(np.median([c[-1]["core_minutes"] for c in curves]))
                lines.append(
                    f"| {method['name']} | {policy} | {finals[-1]:.4f} | "
                    f"{float(np.median(finals)):.4f} | {finals[0]:.4f} | {minutes:.1f} |"
                )
                label = f"{method['name']} ({policy}, {len(curves)} seeds)"
                for i, c in enumerate(curves):
                    axes.plot(
                        [p["core_minutes"] for p in c], [max(p[policy], 1e-5) for p in c],
                        "-" if policy == "average" else ":", marker="o", markersize=3,
                        color=f"C{bench['methods'].index(method)}", alpha=0.8,
                        label=label if i == 0 else None,
                    )  # fmt: skip
        for name, value in spec.get("references", {}).items():
            axes.axhline(value, color="grey", linestyle="--", linewidth=0.8)
            axes.annotate(name, (0.01, value), xycoords=("axes fraction", "data"), fontsize=7,
                          color="grey", va="bottom")  # fmt: skip
        if goal:
            axes.axhline(goal, color="black", linewidth=0.8)
            axes.annotate(f"goal {goal}", (0.01, goal), xycoords=("axes fraction", "data"),
                          fontsize=7, va="bottom")  # fmt: skip
        axes.set_yscale("log")
        axes.set_xscale("log")  # sampling CFR's seconds and training's minutes on one axis
        axes.set_xlabel("core-minutes (log scale)")
        axes.set_ylabel("exact exploitability (chips a hand)")
        axes.set_title(f"{game}: exploitability against compute", fontsize=9)
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=7)
        figure.tight_layout()
        figure.savefig(out / f"{game}.png", dpi=100)
        plt.close(figure)
        lines += ["", f"![{game}]({game}.png)", ""]
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench.md").write_text("\n".join(lines) + "\n")
    print(f"summary: {out / 'bench.md'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="decktet methods",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("config", help="the bench's TOML (experiments/bench_equilibrium.toml)")
    parser.add_argument("--seeds", default=None, help="seeds, e.g. 1-3 or 1,4")
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="run the pieces as Ray tasks (a CPU each) on the cluster at ADDRESS, or a local Ray",
    )
    parser.add_argument(
        "--summary-only", action="store_true", help="only redraw bench.md and the plots"
    )
    args = parser.parse_args(argv)
    try:
        path = Path(args.config)
        args.seeds = None if args.seeds is None else parse_seeds(args.seeds)
        if args.summary_only:
            bench = load_bench(path)
            seeds = list(args.seeds or bench["bench"].get("seeds", [1, 2, 3]))
            summarize(bench, seeds, Path(bench["bench"].get("out", "runs/bench")))
            return 0
        address = None if args.ray in (None, "local") else args.ray
        run_bench(path, args.seeds, address, ray=args.ray is not None)
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
