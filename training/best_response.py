"""``decktet best-response BOT``: a best response to a heads-up limit Lith bot on the game with
exchanges, the full game included, computed and then played.

The response is computed by regret minimisation for the responder alone against the frozen
bot (:mod:`lith_solver.responder`). The **computed** value is what its strategy (the average
or the current one, whichever computes higher) wins against the bot's table on sampled deals.
The response is saved (``response:OUT`` plays it) and **played** against the bot itself over
duplicate hands in both seats: that figure, a true lower bound on the bot's exploitability,
is the one to quote. Their gap shows how well the table and the sampling stand for the bot.

Bots: those whose strategy is a table over the public tree and the hand held now, read
straight from their files: ``abstract:DIR`` (``recall`` hand) and the zoo's names for them
(``zoo:lith-hu``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lith_env.game import LithConfig
from lith_solver.checkpoint import rules_json
from lith_solver.responder import (
    POLICIES,
    BotTable,
    ResponderLayout,
    ResponderSolver,
    mean_interval,
    save_response,
)
from lith_solver.solving import heads_up_config
from tablegame.cli import duplicate_hands, output_folder, positive_int, seed_value
from tablegame.registry import make_agent
from tablegame.rules import parse_rules

__all__ = ["bot_table", "main", "played_gain"]

STATE_FILE = "responder_state.npz"
DEFAULT_BUCKETS = 128
SETTINGS = ("bot", "rule", "buckets", "traversals", "seed")  # a resumed run keeps these


def bot_table(spec: str, config: LithConfig) -> BotTable:
    """The table of the bot ``spec`` on ``config``'s rules; ``ValueError`` naming it when it
    has none or plays other rules."""
    from agents.abstract import AbstractAgent

    agent = make_agent(spec, "lith", config=config)
    abstraction = getattr(agent, "game", None)
    if not isinstance(agent, AbstractAgent) or getattr(abstraction, "recall", None) != "hand":
        raise ValueError(
            f"BOT: {spec!r} has no strategy table over the hand held now; this command reads "
            "abstract:DIR bots with recall hand (and zoo names for them)"
        )
    return BotTable(np.asarray(abstraction.strategy, dtype=np.float64), abstraction.bucket)


def played_gain(bot: str, response: Path, rules: dict[str, Any], hands: int, seed: int):
    """The response's gain against ``bot`` over ``hands`` duplicate hands in both seats:
    chips/100 hands, mean and 95% interval (the exploit protocol's scoring)."""
    from training.exploiter import ExploiterSpec, evaluate_gain

    spec = ExploiterSpec(
        game="lith", players=2, target=bot, out=str(response), rules=rules, seed=seed
    )
    return evaluate_gain(spec, f"response:{response}", hands)


def _check(args: argparse.Namespace) -> tuple[LithConfig, dict[str, Any]]:
    rules = {"rounds": 3, **parse_rules(args.rule, LithConfig)}
    config = heads_up_config(rules)
    if config.rounds not in (2, 3):
        raise ValueError(
            "--rule rounds: this command is for games with exchanges (2 or 3); the one-round "
            "game's exact best response is decktet exploitability"
        )
    if config.betting != "limit":
        raise ValueError(f"--rule betting: must be limit, got {config.betting!r}")
    if args.check_every > args.iterations:
        raise ValueError(
            f"--check-every: at most --iterations ({args.iterations}), got {args.check_every}"
        )
    hands = math.comb(len(config.deck), 3)
    if args.buckets is None:
        args.buckets = min(DEFAULT_BUCKETS, hands)
    if args.buckets > hands:
        raise ValueError(f"--buckets: at most the deck's {hands} hands, got {args.buckets}")
    return config, rules


def _settings(args: argparse.Namespace, config: LithConfig) -> dict[str, Any]:
    return {
        "bot": args.bot,
        "rule": rules_json(config),
        "buckets": args.buckets,
        "traversals": args.traversals,
        "seed": args.seed,
    }


def _save_state(out: Path, solver: ResponderSolver, settings: dict, curve: list) -> None:
    path = out / STATE_FILE
    partial = path.with_suffix(".partial.npz")
    np.savez(
        partial,
        regrets=solver.regrets,
        sums=solver.sums,
        record=json.dumps({**settings, "iterations": solver.iterations, "curve": curve}),
    )
    partial.replace(path)


def _saved_record(out: Path, settings: dict[str, Any]) -> dict[str, Any]:
    """The record of the state saved in ``out``; ``ValueError`` unless it was made with
    ``settings``."""
    path = out / STATE_FILE
    if not path.is_file():
        raise ValueError(f"--resume: no {STATE_FILE} in {str(out)!r} to go on from")
    with np.load(path) as arrays:
        record = json.loads(str(arrays["record"]))
    for name in SETTINGS:
        if record[name] != settings[name]:
            flag = "BOT" if name == "bot" else f"--{name}"
            raise ValueError(
                f"--resume: {flag} was {record[name]!r} in that run, not {settings[name]!r}"
            )
    return record


def _load_state(out: Path, solver: ResponderSolver, settings: dict) -> list[dict[str, Any]]:
    record = _saved_record(out, settings)
    with np.load(out / STATE_FILE) as arrays:
        solver.regrets[:] = arrays["regrets"]
        solver.sums[:] = arrays["sums"]
    solver.iterations = int(record["iterations"])
    return list(record["curve"])


def run(
    args: argparse.Namespace, config: LithConfig, rules: dict[str, Any], table: BotTable, out: Path
) -> dict[str, Any]:
    """Solve (with a progress bar), save the response, play it; the figures."""
    from rich.progress import Progress

    layout = ResponderLayout(config, args.buckets)
    solver = ResponderSolver(layout, table, seed=args.seed, traversals=args.traversals)
    settings = _settings(args, config)
    curve = _load_state(out, solver, settings) if args.resume else []
    spent = curve[-1]["cpu_seconds"] if curve else 0.0
    with Progress(transient=True) as bar:
        job = bar.add_task("responder MCCFR", total=args.iterations, completed=solver.iterations)
        while solver.iterations < args.iterations:
            start = time.process_time()
            solver.iterate(min(args.check_every, args.iterations - solver.iterations))
            spent += time.process_time() - start
            entry: dict[str, Any] = {"iteration": solver.iterations, "cpu_seconds": round(spent, 2)}
            for policy in POLICIES:
                seed = args.seed + solver.iterations  # the same deals for both
                first, second = solver.sampled_values(args.samples, seed, solver.strategy(policy))
                value, half = mean_interval((first + second) / 2)
                entry[policy] = {"computed": value, "half_width": half}
            curve.append(entry)
            _save_state(out, solver, settings, curve)
            best = max(entry["average"]["computed"], entry["current"]["computed"])
            bar.update(
                job,
                completed=solver.iterations,
                description=f"responder MCCFR, computed {100 * best:+.1f} chips/100",
            )
            figures = ", ".join(
                f"{name} {100 * value['computed']:+.1f} ± {100 * value['half_width']:.1f}"
                for name, value in ((name, entry[name]) for name in POLICIES)
            )
            bar.console.print(
                f"iteration {solver.iterations:,} ({spent / 60:.1f} CPU min): computed {figures} "
                "chips/100 hands"
            )
    last = curve[-1]
    policy = max(POLICIES, key=lambda name: last[name]["computed"])
    info: dict[str, Any] = {"bot": args.bot, "curve": curve, "cpu_seconds": spent,
                            "policy": policy}  # fmt: skip
    save_response(out, solver, info)
    played = played_gain(args.bot, out, rules, args.hands, args.seed)
    figures = {
        "bot": args.bot,
        "policy": policy,
        "computed": 100 * last[policy]["computed"],
        "computed_half_width": 100 * last[policy]["half_width"],
        "played": played["mean"],
        "played_low": played["low"],
        "played_high": played["high"],
        "hands": args.hands,
        "iterations": solver.iterations,
        "solve_cpu_minutes": spent / 60,
    }
    # The arrays are saved already (the played response was read from them): the record only.
    record = json.loads((out / "response.json").read_text())
    (out / "response.json").write_text(json.dumps({**record, "figures": figures}, indent=2) + "\n")
    (out / "best_response.json").write_text(json.dumps(figures, indent=2) + "\n")
    return figures


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="decktet best-response",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bot", metavar="BOT", help="the bot's spec: abstract:DIR or zoo:NAME")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a heads-up rule the bot plays (default: the full game, rounds=3)",
    )
    parser.add_argument(
        "--buckets",
        type=positive_int,
        default=None,
        help="the responder's equity buckets at a betting decision (default: 128, or every "
        "hand on a deck of fewer)",
    )
    parser.add_argument(
        "--iterations",
        type=positive_int,
        default=50_000,
        help="MCCFR iterations (default 50,000: about 50 CPU minutes on the full game)",
    )
    parser.add_argument(
        "--traversals",
        type=positive_int,
        default=100,
        help="sampled deals an iteration traverses in each seat",
    )
    parser.add_argument(
        "--check-every",
        type=positive_int,
        default=5_000,
        help="iterations between a computed value and a saved state",
    )
    parser.add_argument(
        "--samples",
        type=positive_int,
        default=4_000,
        help="sampled deals a seat for each computed value",
    )
    parser.add_argument(
        "--hands",
        type=duplicate_hands,
        default=20_000,
        help="duplicate hands the response plays against the bot",
    )
    parser.add_argument("--seed", type=seed_value, default=0, help="the sampling's seed")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--overwrite", action="store_true", help="replace an earlier run in --out")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from the state saved in --out (same bot and settings)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet best-response``; the exit status (2: a bad option, named)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config, rules = _check(args)
        table = bot_table(args.bot, config)
        out = output_folder(args.out, overwrite=args.overwrite or args.resume, resume="--resume")
        if args.resume:
            _saved_record(out, _settings(args, config))
    except ValueError as error:
        parser.error(str(error))
    figures = run(args, config, rules, table, out)
    print(
        f"best response to {args.bot}: computed {figures['computed']:+.1f} "
        f"± {figures['computed_half_width']:.1f} chips/100 hands; played "
        f"{figures['played']:+.1f} [{figures['played_low']:+.1f}, {figures['played_high']:+.1f}] "
        f"over {args.hands:,} duplicate hands ({figures['solve_cpu_minutes']:.1f} CPU minutes "
        f"to solve); saved to {out}: play it as response:{out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
