"""``decktet best-response BOT``: a best response to a heads-up limit Lith bot on the game with
exchanges, the full game included, computed and then played.

The response is computed by regret minimisation for the responder alone against the frozen
bot (:mod:`lith_solver.responder`). The **computed** value is what its strategy (the average
or the current one, whichever computes higher) wins against the bot's table on sampled deals.
The response is saved (``response:OUT`` plays it) and **played** against the bot itself over
duplicate hands in both seats: that figure, a true lower bound on the bot's exploitability,
is the one to quote. Their gap shows how well the table and the sampling stand for the bot.

On the one-round game (``--rule rounds=1``) the best response is exact
(:func:`lith_solver.exploitability.best_response_to`, what ``decktet exploitability`` computes):
the computed value is the bot's exploitability, saved as ``solved:OUT`` and played the same way.

Bots: any heads-up Lith agent. The bot's table gives its action probabilities at every public
decision for each hand it may hold. An ``abstract:DIR`` bot with ``recall`` hand, swap or gift
(and the zoo's names for one, ``zoo:lith-hu``) has that table in its file. Any other agent is asked,
in batches through the agent protocol, at every public decision for every hand
(:func:`lith_solver.agent_strategy.public_tree_strategy`): about 7 CPU minutes on the full
game for a heuristic, kept in ``OUT/bot_table.npy`` for ``--resume``. A mixture that draws one
member a hand (``mixture:``) is each member read so (``OUT/bot_table-M.npy``), the responder
drawing a member by its weight at each deal: its response is to the mixture itself.
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
from lith_solver.abstract_exchanges import PublicTree
from lith_solver.agent_strategy import public_tree_strategy
from lith_solver.checkpoint import rules_json
from lith_solver.recall_layout import RecallLayout
from lith_solver.responder import (
    POLICIES,
    BotTable,
    ResponderSolver,
    by_hand_shape,
    hand_order_cells,
    mean_interval,
    save_response,
)
from lith_solver.solving import heads_up_config
from lith_solver.swap_abstraction import RECALLS as SWAP_RECALLS
from tablegame.cli import (
    duplicate_hands,
    non_negative_float,
    output_folder,
    positive_int,
    seed_value,
)
from tablegame.registry import make_agent
from tablegame.rules import parse_rules

__all__ = ["bot_table", "main", "played_gain", "respond_to_folder"]

STATE_FILE = "responder_state.npz"
TABLE_FILE = "bot_table.npy"  # an asked bot's table, kept for --resume
MEMBER_TABLE_FILE = "bot_table-{}.npy"  # a mixture's member's
KEPT_FOR = "bot_table.json"  # the bot and rules the kept tables are for
DEFAULT_BUCKETS = 128
SETTINGS = ("bot", "rule", "buckets", "traversals", "seed", "prune")  # a resumed run keeps these
# The iterative solver's options, and their defaults (the one-round game takes none of them).
SOLVER_DEFAULTS = {
    "iterations": 50_000,
    "traversals": 100,
    "check_every": 5_000,
    "samples": 4_000,
    "prune": 0.0,
}
SOLVER_OPTIONS = ("buckets", *SOLVER_DEFAULTS, "resume")


def bot_table(spec: str, config: LithConfig, out: Path | None = None) -> BotTable:
    """The table of the bot ``spec`` on ``config``'s rules: read from an ``abstract:`` bot's
    file, else asked of the agent (with a progress bar), or loaded from ``out`` where an
    earlier run kept it. A mixture (``mixture:``, one member drawn a hand) is its members'
    tables by hand, stacked, each read so. ``ValueError`` naming a bot that cannot be read
    (an agent that mixes without ``action_probabilities``)."""
    from agents.abstract import AbstractAgent
    from agents.mixture import MixtureAgent

    agent = make_agent(spec, "lith", config=config)
    if isinstance(agent, MixtureAgent):
        _keep_for(out, spec, config)
        return _mixture_table(agent, spec, config, out)
    abstraction = getattr(agent, "game", None)
    if isinstance(agent, AbstractAgent) and getattr(abstraction, "recall", None) == "hand":
        strategy = np.asarray(abstraction.strategy, dtype=np.float64)
        return BotTable.dense(strategy, abstraction.bucket)
    if isinstance(agent, AbstractAgent) and getattr(abstraction, "recall", None) in SWAP_RECALLS:
        return BotTable.of_layout(abstraction.layout, abstraction.strategy)
    _keep_for(out, spec, config)
    kept = None if out is None else out / TABLE_FILE
    return BotTable.by_hand(_kept_or_asked(agent, spec, config, kept), config)


def _keep_for(out: Path | None, spec: str, config: LithConfig) -> None:
    """Note in ``out`` which bot and rules the tables kept there are for."""
    if out is not None:
        (out / KEPT_FOR).write_text(json.dumps({"bot": spec, "rule": rules_json(config)}) + "\n")


def _mixture_table(agent: Any, spec: str, config: LithConfig, out: Path | None) -> BotTable:
    """A mixture's members' tables by hand, stacked, with its weights; each member's kept in
    ``out`` (``bot_table-M.npy``) as it is read, so that ``--resume`` asks no member twice."""
    from agents.abstract import AbstractAgent

    stacked = np.empty((len(agent.members), *by_hand_shape(config)), dtype=np.float32)
    cells = None
    for m, member in enumerate(agent.members):
        name = f"{spec} (member {m}, {type(member).__name__})"
        abstraction = getattr(member, "game", None)
        if isinstance(member, AbstractAgent) and getattr(abstraction, "recall", None) == "hand":
            cells = hand_order_cells(config) if cells is None else cells
            stacked[m] = abstraction.strategy[:, abstraction.bucket[cells]]
        elif isinstance(member, AbstractAgent):
            raise ValueError(
                f"{name}: an abstract member of recall {abstraction.recall!r} has no table by "
                "hand; a mixture's members must be read by hand (recall hand, or any other agent)"
            )
        else:
            kept = None if out is None else out / MEMBER_TABLE_FILE.format(m)
            stacked[m] = _kept_or_asked(member, name, config, kept)
    return BotTable.by_hand(stacked, config, np.asarray(agent.weights, dtype=np.float64))


def _kept_or_asked(agent: Any, name: str, config: LithConfig, kept: Path | None) -> np.ndarray:
    """The agent's table by hand (decisions, hands, 4): loaded from ``kept`` if an earlier
    run left it there, else asked (with a progress bar) and kept there."""
    if kept is not None and kept.is_file():
        strategy = np.load(kept)
        expected = by_hand_shape(config)
        if strategy.shape != expected:
            raise ValueError(
                f"--resume: {str(kept)!r} holds a table of shape {strategy.shape}, not "
                f"{expected} for these rules; remove it to ask the bot again"
            )
        return strategy
    strategy = _asked_table(agent, name, config)
    if kept is not None:
        partial = kept.with_suffix(".partial.npy")
        np.save(partial, strategy)
        partial.replace(kept)
    return strategy


def _asked_table(agent: Any, spec: str, config: LithConfig) -> np.ndarray:
    from rich.progress import Progress

    decisions = len(PublicTree(config).decisions)
    with Progress(transient=True) as bar:
        job = bar.add_task(f"asking {spec} at every decision", total=decisions)
        return public_tree_strategy(agent, config, spec, lambda n: bar.advance(job, n))


def played_gain(
    bot: str, response: Path, rules: dict[str, Any], hands: int, seed: int, agent: str = "response"
):
    """The response saved in ``response`` (played as ``agent:RESPONSE``) against ``bot`` over
    ``hands`` duplicate hands in both seats: chips/100 hands, mean and 95% interval (the exploit
    protocol's scoring)."""
    from training.exploiter import ExploiterSpec, evaluate_gain

    spec = ExploiterSpec(
        game="lith", players=2, target=bot, out=str(response), rules=rules, seed=seed
    )
    return evaluate_gain(spec, f"{agent}:{response}", hands)


def _check(args: argparse.Namespace) -> tuple[LithConfig, dict[str, Any]]:
    """The rules, checked with the options; the solver's defaults filled in."""
    rules = {"rounds": 3, **parse_rules(args.rule, LithConfig)}
    config = heads_up_config(rules)
    if config.betting != "limit":
        raise ValueError(f"--rule betting: must be limit, got {config.betting!r}")
    if config.rounds == 1:
        for name in SOLVER_OPTIONS:
            if getattr(args, name) not in (None, False):
                flag = "--" + name.replace("_", "-")
                raise ValueError(
                    f"{flag}: the one-round game's best response is exact, with nothing to "
                    "iterate or resume; leave it out"
                )
        return config, rules
    if args.check_every is None and args.iterations is not None:  # a short run checks once
        args.check_every = min(SOLVER_DEFAULTS["check_every"], args.iterations)
    for name, value in SOLVER_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
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
        "prune": args.prune,
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


def _saved_record(out: Path, settings: dict[str, Any]) -> dict[str, Any] | None:
    """The record of the state saved in ``out``; ``ValueError`` unless it was made with
    ``settings``. None where a run was stopped while it read the bot: the tables it kept
    are for this bot and rules (``bot_table.json`` says), and solving starts afresh."""
    path = out / STATE_FILE
    if not path.is_file():
        kept = out / KEPT_FOR
        if kept.is_file():
            record = json.loads(kept.read_text())
            if record == {name: settings[name] for name in ("bot", "rule")}:
                return None
        raise ValueError(f"--resume: no {STATE_FILE} in {str(out)!r} to go on from")
    with np.load(path) as arrays:
        record = json.loads(str(arrays["record"]))
    record.setdefault("prune", 0.0)  # a run from before --prune did not prune
    for name in SETTINGS:
        if record[name] != settings[name]:
            flag = "BOT" if name == "bot" else f"--{name}"
            raise ValueError(
                f"--resume: {flag} was {record[name]!r} in that run, not {settings[name]!r}"
            )
    return record


def _load_state(
    out: Path, solver: ResponderSolver, settings: dict
) -> tuple[list[dict[str, Any]], float | None]:
    """The saved regrets and sums into ``solver``; the curve so far and the bot's reading time
    (None where nothing was solved yet)."""
    record = _saved_record(out, settings)
    if record is None:  # stopped while reading the bot: nothing solved yet
        return [], None
    with np.load(out / STATE_FILE) as arrays:
        solver.regrets[:] = arrays["regrets"]
        solver.sums[:] = arrays["sums"]
    solver.iterations = int(record["iterations"])
    return list(record["curve"]), float(record.get("read_cpu_seconds", 0.0))


def run(
    args: argparse.Namespace,
    config: LithConfig,
    rules: dict[str, Any],
    table: BotTable,
    out: Path,
    read_seconds: float = 0.0,
) -> dict[str, Any]:
    """Solve (with a progress bar), save the response, play it; the figures (``read_seconds``:
    the CPU time the bot's table took to read, a resumed run's from its state)."""
    from rich.progress import Progress

    layout = RecallLayout(config, args.buckets)
    solver = ResponderSolver(
        layout, table, seed=args.seed, traversals=args.traversals, prune=args.prune
    )
    settings = _settings(args, config)
    if args.resume:
        curve, saved_read = _load_state(out, solver, settings)
        read_seconds = read_seconds if saved_read is None else saved_read
    else:
        curve = []
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
            _save_state(out, solver, {**settings, "read_cpu_seconds": read_seconds}, curve)
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
        "read_cpu_minutes": read_seconds / 60,
        "agent": "response",
    }
    # The arrays are saved already (the played response was read from them): the record only.
    record = json.loads((out / "response.json").read_text())
    (out / "response.json").write_text(json.dumps({**record, "figures": figures}, indent=2) + "\n")
    (out / "best_response.json").write_text(json.dumps(figures, indent=2) + "\n")
    return figures


def run_one_round(
    args: argparse.Namespace, config: LithConfig, rules: dict[str, Any], out: Path
) -> dict[str, Any]:
    """The one-round game's exact best response, saved as ``solved:OUT`` and played; the
    figures (``ValueError`` naming a bot that cannot be read)."""
    from lith_solver.exploitability import best_response_to
    from lith_solver.one_round import OneRoundGame

    agent = make_agent(args.bot, "lith", config=config)
    start = time.process_time()
    exact = best_response_to(agent, OneRoundGame(config), args.bot, out)
    seconds = time.process_time() - start
    played = played_gain(args.bot, out, rules, args.hands, args.seed, agent="solved")
    figures = {
        "bot": args.bot,
        "policy": "exact",
        "computed": 100 * exact["exploitability"],
        "computed_half_width": 0.0,
        "played": played["mean"],
        "played_low": played["low"],
        "played_high": played["high"],
        "hands": args.hands,
        "iterations": 0,
        "solve_cpu_minutes": seconds / 60,
        "read_cpu_minutes": 0.0,
        "agent": "solved",
    }
    (out / "best_response.json").write_text(json.dumps(figures, indent=2) + "\n")
    return figures


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="decktet best-response",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="the bot's spec, any heads-up Lith agent; several: each in a folder of --out "
        "named after it, and a table of them",
    )
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
        default=None,
        help="MCCFR iterations (default 50,000: about 60 CPU minutes on the full game)",
    )
    parser.add_argument(
        "--traversals",
        type=positive_int,
        default=None,
        help="sampled deals an iteration traverses in each seat (default 100)",
    )
    parser.add_argument(
        "--check-every",
        type=positive_int,
        default=None,
        help="iterations between a computed value and a saved state (default 5,000, or "
        "--iterations if fewer)",
    )
    parser.add_argument(
        "--samples",
        type=positive_int,
        default=None,
        help="sampled deals a seat for each computed value (default 4,000)",
    )
    parser.add_argument(
        "--hands",
        type=duplicate_hands,
        default=20_000,
        help="duplicate hands the response plays against the bot (default 20,000)",
    )
    parser.add_argument(
        "--prune",
        type=non_negative_float,
        default=None,
        metavar="CHIPS",
        help="past the first iterations, skip in 95%% of traversals the responder's actions "
        "that lag this many chips an iteration behind (default 0: walk every action)",
    )
    parser.add_argument(
        "--seed", type=seed_value, default=0, help="the sampling's seed (default 0)"
    )
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--overwrite", action="store_true", help="replace an earlier run in --out")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from the state saved in --out (same bot and settings)",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="respond to the bots at once as Ray tasks, a CPU each, on the cluster at ADDRESS "
        "(auto, HOST:PORT, ray://HOST:PORT), or on a local Ray without one; the same figures, "
        "without the state for --resume (default: one after another here)",
    )
    return parser


def respond_to_folder(
    bot: str, options: dict[str, Any], out: str | Path, keep_state: bool = True
) -> dict[str, Any]:
    """One bot's best response, in the folder ``out`` (made and checked): the bot read, the
    response solved (or, on one round, computed exactly), saved and played; the figures.
    ``options``: the command's options but the bots and ``--ray``; without ``keep_state``
    the solver's state and the bot's table (for ``--resume``) are removed at the end."""
    args = argparse.Namespace(**{**options, "bot": bot})
    config, rules = _check(args)
    out = Path(out)
    if config.rounds == 1:
        return run_one_round(args, config, rules, out)
    start = time.process_time()
    table = bot_table(bot, config, out)
    figures = run(args, config, rules, table, out, time.process_time() - start)
    if not keep_state:
        for path in (out / STATE_FILE, *_kept_tables(out)):
            path.unlink(missing_ok=True)
    return figures


def _kept_tables(folder: Path) -> list[Path]:
    """The bot's tables an earlier run kept in ``folder`` (a mixture's: one a member)."""
    return [folder / TABLE_FILE, folder / KEPT_FOR, *folder.glob(MEMBER_TABLE_FILE.format("*"))]


def _folders(args: argparse.Namespace, config: LithConfig) -> list[Path]:
    """Each bot's run folder, made and checked: ``--out`` itself for one bot, else a folder
    in it named after the bot, as ``decktet exploit`` names its targets' folders."""
    from training.exploiter import run_name

    resume = args.resume
    if len(args.bots) == 1:
        folders = [output_folder(args.out, overwrite=args.overwrite or resume, resume="--resume")]
    else:
        parent = output_folder(args.out, overwrite=args.overwrite or resume, resume="--resume")
        folders = [
            output_folder(str(parent / run_name(bot, None)), overwrite=True) for bot in args.bots
        ]
    for bot, folder in zip(args.bots, folders, strict=True):
        if resume and config.rounds > 1:
            _saved_record(
                folder, _settings(argparse.Namespace(**{**vars(args), "bot": bot}), config)
            )
        else:  # an overwritten run's bot is asked again
            for path in _kept_tables(folder):
                path.unlink(missing_ok=True)
    return folders


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet best-response``; the exit status (2: a bad option, named)."""
    from distributed.cluster import ClusterError, parse_address

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config, _ = _check(args)
        if len(set(args.bots)) < len(args.bots):
            raise ValueError("BOT: a bot is given twice")
        for bot in args.bots:  # a bad spec, before a folder is made
            make_agent(bot, "lith", config=config)
        if args.ray is not None and args.resume:
            raise ValueError(
                "--resume: not with --ray (a Ray task solves in a scratch folder of its worker "
                "and keeps no state; resume here instead)"
            )
        address = parse_address(args.ray) if args.ray is not None else None
        folders = _folders(args, config)
        options = {k: v for k, v in vars(args).items() if k not in ("bots", "ray")}
        if args.ray is not None:
            from training.on_ray import best_responses_on_ray

            jobs = list(zip(args.bots, map(str, folders), strict=True))
            results = best_responses_on_ray(jobs, respond_to_folder, options, address)
        else:
            results = [
                respond_to_folder(bot, options, folder)
                for bot, folder in zip(args.bots, folders, strict=True)
            ]
    except ClusterError as error:
        parser.error(f"--ray: {error}")
    except ValueError as error:
        parser.error(str(error))
    for figures, folder in zip(results, folders, strict=True):
        print(
            f"best response to {figures['bot']}: computed {figures['computed']:+.1f} "
            f"± {figures['computed_half_width']:.1f} chips/100 hands; played "
            f"{figures['played']:+.1f} [{figures['played_low']:+.1f}, "
            f"{figures['played_high']:+.1f}] over {figures['hands']:,} duplicate hands "
            f"({figures['read_cpu_minutes']:.1f} CPU minutes to read the bot, "
            f"{figures['solve_cpu_minutes']:.1f} to solve); saved to {folder}: play it as "
            f"{figures['agent']}:{folder}"
        )
    if len(results) > 1:
        (Path(args.out) / "best_responses.json").write_text(json.dumps(results, indent=2) + "\n")
        _print_table(results)
    return 0


def _print_table(results: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="best responses, chips/100 hands")
    for name in ("bot", "computed", "played", "CPU minutes (read + solve)"):
        table.add_column(name, justify="left" if name == "bot" else "right")
    for f in results:
        table.add_row(
            f["bot"],
            f"{f['computed']:+.1f} ± {f['computed_half_width']:.1f}",
            f"{f['played']:+.1f} [{f['played_low']:+.1f}, {f['played_high']:+.1f}]",
            f"{f['read_cpu_minutes']:.1f} + {f['solve_cpu_minutes']:.1f}",
        )
    Console().print(table)


if __name__ == "__main__":
    sys.exit(main())
