"""``decktet solve|exploitability|abstract`` (``python -m lith_solver``): solve heads-up limit
Lith exactly, or measure an agent exactly.

    decktet solve --rule rounds=1 --iterations 3000 --out runs/solved-1round
    decktet exploitability tag --rule rounds=1 --out runs/br-tag
    decktet abstract --rule rounds=1 --buckets 100 --iterations 2000 --out runs/abs

``solve`` runs discounted CFR (``lith_solver.solving``) on the one-round game (any deck) or a
game with exchanges (``rounds=2``/``3`` on a small deck) and saves the strategy, which plays
as the agent ``solved:OUT``. ``exploitability`` reads any agent's strategy and computes an
exact best response in each position (``lith_solver.exploitability``). ``abstract`` buckets
the hands by equity and solves the abstract game by external-sampling MCCFR
(``lith_solver.abstraction``); the strategy plays as the agent ``abstract:OUT``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lith_env.game import LithConfig
from lith_solver.agent_strategy import agent_profile
from lith_solver.checkpoint import CHECKPOINT_FILE, check_resumable, read_checkpoint_record
from lith_solver.exploitability import (
    STRENGTH_COLUMNS,
    best_response_to,
    by_strength,
    exploitability_of,
    save_best_response,
    solvable_game,
)
from lith_solver.one_round import OneRoundGame
from lith_solver.solving import check_solvable, heads_up_config, solve_to_folder
from tablegame.cli import int_at_least, output_folder, positive_float, positive_int, seed_value
from tablegame.registry import make_agent
from tablegame.rules import parse_rules

__all__ = ["build_parser", "main"]

ONE_ROUND = "one-round heads-up limit Lith"


def _add_rule_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a Lith rule (repeatable); the game must be heads-up limit: rounds=1 (the "
        "default here when --rule rounds is not given), or rounds=2/3 with a small deck "
        "(--rule cards=0,1,2,...)",
    )


# ---------------------------------------------------------------------------------------------
# solve


def _add_solve_options(parser: argparse.ArgumentParser) -> None:
    _add_rule_option(parser)
    parser.add_argument("--iterations", type=positive_int, default=2000, help="most iterations")
    parser.add_argument(
        "--target",
        type=positive_float,
        default=None,
        help="stop once the exploitability is below this many chips a hand",
    )
    parser.add_argument(
        "--check-every", type=positive_int, default=50, help="iterations between measurements"
    )
    parser.add_argument(
        "--vary",
        action="append",
        metavar="KEY=VALUE",
        help="solve once per --vary (repeatable), each the --rule set plus this rule, in "
        "OUT/KEY=VALUE, and compare them in a table and OUT/solves.json, e.g. --vary "
        "excuse=none --vary excuse=imposter",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="with --vary: solve the configurations at once as Ray tasks, a CPU each, on the "
        "cluster at ADDRESS (auto, HOST:PORT, ray://HOST:PORT) or a local Ray without one "
        "(docs/scale.md); default: one after another here",
    )
    parser.add_argument(
        "--checkpoint",
        action="store_true",
        help="keep the solver's state in OUT/checkpoint.npz, rewritten at every measurement, so "
        "that a solve stopped on the way can go on with --resume (16 bytes a strategy entry: "
        "3.7 GB for three rounds on nine cards)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from OUT/checkpoint.npz, with the same rules (--iterations counts from the "
        "start of the solve); keeps checkpointing",
    )
    parser.add_argument("--out", required=True, default=argparse.SUPPRESS, help="output folder")
    _add_overwrite_option(parser)


def _add_overwrite_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="write into an --out folder that holds an earlier result, replacing it (without "
        "it, such a folder is refused before any work)",
    )


def _solve_jobs(args: argparse.Namespace) -> list[tuple[str | None, dict[str, Any], str]]:
    """One ``(vary, rules, folder)`` per configuration to solve; ``ValueError`` naming the
    option that is wrong."""
    given = parse_rules(args.rule, LithConfig)
    jobs = []
    for text in args.vary or [None]:
        rules = {"rounds": 1, **given}
        folder = Path(args.out)
        if text is not None:
            try:
                varied = parse_rules([text], LithConfig)
            except ValueError as error:  # its message names --rule: this is --vary
                raise ValueError(str(error).replace("--rule", "--vary", 1)) from None
            if set(varied) & set(given):
                raise ValueError(f"--vary {text}: that rule is also set by --rule")
            rules.update(varied)
            folder = folder / re.sub(r"[^A-Za-z0-9_.=,-]+", "_", text.strip())
        check_solvable(heads_up_config(rules))
        jobs.append((text, rules, str(folder)))
    if args.vary and len({job[2] for job in jobs}) < len(jobs):
        raise ValueError("--vary: a configuration is given twice")
    if args.ray is not None and not args.vary:
        raise ValueError("--ray: only with --vary (its configurations are the tasks)")
    if args.ray is not None and (args.checkpoint or args.resume):
        flag = "--resume" if args.resume else "--checkpoint"
        raise ValueError(
            f"{flag}: not with --ray (a Ray task solves in a scratch folder of its worker; "
            "checkpoint the configurations here instead)"
        )
    return jobs


def _check_resumable(args: argparse.Namespace, jobs: list) -> None:
    """With ``--resume``: every configuration's checkpoint fits; say where each goes on from."""
    resumed = []
    for _, rules, folder in jobs:
        try:
            record = read_checkpoint_record(Path(folder) / CHECKPOINT_FILE)
            check_resumable(record, heads_up_config(rules), args.iterations)
        except ValueError as error:
            raise ValueError(f"--resume: {error}") from None
        resumed.append((folder, record))
    for folder, record in resumed:
        curve = record["curve"]
        last = f", exploitability {curve[-1]['exploitability']:.6f}" if curve else ""
        print(
            f"going on from {folder}/{CHECKPOINT_FILE}: {record['iterations']:,} "
            f"iterations, {record['seconds']:.1f} s{last}"
        )


def _run_solves(args: argparse.Namespace, jobs: list) -> list[dict[str, Any]]:
    """Solve every configuration, here one after another or as Ray tasks; each one's record."""
    from distributed.cluster import ClusterError, parse_address

    settings = (args.iterations, args.target, args.check_every)
    try:
        address = parse_address(args.ray) if args.ray is not None else None
    except ClusterError as error:
        raise ValueError(f"--ray: {error}") from None
    for _, _, folder in jobs:
        output_folder(folder, overwrite=args.overwrite or args.resume, resume="--resume")
    if args.ray is not None:
        from lith_solver.on_ray import solve_on_ray

        try:
            return solve_on_ray([(rules, folder) for _, rules, folder in jobs], settings, address)
        except ClusterError as error:
            raise ValueError(f"--ray: {error}") from None
    return [
        solve_to_folder(
            rules,
            *settings,
            folder,
            progress=sys.stderr.isatty(),
            checkpoint=args.checkpoint,
            resume=args.resume,
        )
        for _, rules, folder in jobs
    ]


def _print_exchanges(rows: list[dict[str, Any]]) -> None:
    """The equilibrium's exchanges (``discard_report``) as a terminal table."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="How the equilibrium exchanges (when it plays itself)")
    columns = ["exchange", "stage", "decision", "reached", "discards", "weak third"]
    columns += ["middle third", "strong third", "gives lowest", "gives middle", "gives highest"]
    for column in columns:
        table.add_column(column, justify="left" if column in ("stage", "decision") else "right")
    for row in rows:
        table.add_row(
            *(f"{row[c]:.2f}" if isinstance(row[c], float) else str(row[c]) for c in columns)
        )
    Console().print(table)


def _print_solve(info: dict[str, Any], out: str) -> None:
    if "exchanges" in info:
        _print_exchanges(info["exchanges"])
    print(
        f"{info['hands']:,} hands a player, {info['iterations']:,} iterations in "
        f"{info['seconds']:.1f} s; first player's value {info['game_value']:+.4f} chips a hand"
    )
    print(f"saved to {out}/ (play it as solved:{out})")
    print(f"exploitability: {info['exploitability']:.6f} chips/hand")


def _print_solves(jobs: list, infos: list[dict[str, Any]], out: Path) -> None:
    """The table comparing the configurations of --vary, also saved as OUT/solves.json."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="solved configurations")
    for column in ("vary", "hands", "iterations", "seconds", "first player", "exploitability"):
        table.add_column(column, justify="left" if column == "vary" else "right")
    rows = []
    figures = ("hands", "iterations", "seconds", "game_value", "exploitability")
    for (text, rules, folder), info in zip(jobs, infos, strict=True):
        table.add_row(
            text,
            f"{info['hands']:,}",
            f"{info['iterations']:,}",
            f"{info['seconds']:.1f}",
            f"{info['game_value']:+.4f}",
            f"{info['exploitability']:.6f}",
        )
        rows.append({"vary": text, "rules": rules, "out": folder, **{k: info[k] for k in figures}})
    Console().print(table)
    (out / "solves.json").write_text(json.dumps(rows, indent=2))
    print(f"saved to {out}/KEY=VALUE/ (play each as solved:DIR); the table in {out}/solves.json")


def solve_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``solve``: check every option, solve each configuration, print what it found."""
    try:
        jobs = _solve_jobs(args)
        if args.resume:
            _check_resumable(args, jobs)
        infos = _run_solves(args, jobs)
    except ValueError as error:
        parser.error(str(error))
    if args.vary:
        _print_solves(jobs, infos, Path(args.out))
    else:
        _print_solve(infos[0], jobs[0][2])
    return 0


# ---------------------------------------------------------------------------------------------
# exploitability


def _add_exploitability_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agent", help="an agent spec: tag, bluffer, random, ppo:PATH, solved:DIR, ..."
    )
    _add_rule_option(parser)
    parser.add_argument("--seed", type=int_at_least(0), default=0, help="the agent's seed")
    parser.add_argument(
        "--out", default=None, help="save the best response here, as the agent solved:OUT"
    )
    _add_overwrite_option(parser)
    parser.add_argument(
        "--by-strength",
        action="store_true",
        help="also print how often the agent bets, folds and raises, by hand-strength decile",
    )


def print_by_strength(rows: list[dict[str, Any]], title: str) -> None:
    """``by_strength`` rows as a terminal table."""
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=title,
        caption="share of the hands of each strength band taking the action at that point "
        "(first: the player acting first; dealer: the other)",
    )
    table.add_column("hand strength")
    for label, _, _ in STRENGTH_COLUMNS:
        table.add_column(label, justify="right")
    for row in rows:
        table.add_row(row["band"], *(f"{row[label]:.2f}" for label, _, _ in STRENGTH_COLUMNS))
    Console().print(table)


def _print_exploitability(
    name: str, figures: dict[str, Any], out: str | None, game: str = ONE_ROUND
) -> None:
    print(f"agent {name} on {game}, chips a hand:")
    print(f"  its value against itself, acting first: {figures['self_play_value_0']:+.4f}")
    print(f"  best response acting first (position 0): {figures['best_response_0']:+.4f}")
    print(f"  best response as the dealer (position 1): {figures['best_response_1']:+.4f}")
    if out is not None:
        print(f"best response saved: play it as solved:{out}")
    sys.stdout.flush()
    exploitability = figures["exploitability"]
    print(
        f"exploitability: {exploitability:.6f} chips/hand "
        f"({100 * exploitability:.2f} chips/100 hands, the unit of decktet lbr and exploit)"
    )


def exploitability_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``exploitability``: the agent's exact best responses and exploitability."""
    try:
        config = heads_up_config({"rounds": 1, **parse_rules(args.rule, LithConfig)})
        check_solvable(config)
        if args.by_strength and config.rounds > 1:
            raise ValueError("--by-strength: only for the one-round game (rounds=1)")
        agent = make_agent(args.agent, "lith", seed=args.seed, config=config)
        if args.overwrite and args.out is None:
            raise ValueError("--overwrite: only with --out (a folder to replace)")
        if args.out is not None:
            output_folder(args.out, overwrite=args.overwrite)
        if config.rounds > 1:
            figures = best_response_to(agent, solvable_game(config), args.agent, args.out)
            rounds = f"heads-up limit Lith, {config.rounds} rounds"
            _print_exploitability(args.agent, figures, args.out, rounds)
            return 0
        game = OneRoundGame(config)
        profile = agent_profile(agent, game, args.agent)
    except ValueError as error:
        parser.error(str(error))
    figures, response = exploitability_of(game, profile)
    if args.by_strength:
        print_by_strength(by_strength(game, profile), f"{args.agent}: action frequencies")
    if args.out is not None:
        save_best_response(args.out, game, response, args.agent, figures)
    _print_exploitability(args.agent, figures, args.out)
    return 0


# ---------------------------------------------------------------------------------------------
# abstract


def _add_abstract_options(parser: argparse.ArgumentParser) -> None:
    _add_rule_option(parser)
    parser.add_argument(
        "--buckets",
        type=positive_int,
        default=100,
        help="hand buckets by equity: the abstraction's size (as many as hands: no abstraction)",
    )
    parser.add_argument("--iterations", type=positive_int, default=2000, help="MCCFR iterations")
    parser.add_argument(
        "--traversals",
        type=positive_int,
        default=1000,
        help="sampled deals a player traverses in each iteration",
    )
    parser.add_argument(
        "--check-every", type=positive_int, default=200, help="iterations between measurements"
    )
    parser.add_argument("--seed", type=seed_value, default=0, help="the sampling's seed")
    parser.add_argument(
        "--average-power",
        type=average_power_value,
        default=1.0,
        help="iteration t weighs t**POWER in the average strategy (regrets: t): 1 is linear "
        "CFR's average, 2 discounted CFR's (gamma); 0-4",
    )
    parser.add_argument(
        "--recall",
        choices=("hand", "swap", "gift", "perfect"),
        default=argparse.SUPPRESS,  # unset, not "hand": the one-round game refuses any recall
        help="games with exchanges: what a player remembers, the bucket of the hand it holds "
        "now (hand); that, the rank of the card it gave in the latest swap, and its exact hand "
        "at an exchange (swap); as swap at betting and its hand's bucket at an exchange "
        "(gift); or its dealt hand's bucket and every exchange's action and "
        "card got (perfect; a strategy (4 x (cards + 1))^exchanges times larger) "
        "(default: hand)",
    )
    parser.add_argument(
        "--bucketing",
        choices=("equity", "exchange"),
        default=argparse.SUPPRESS,  # unset: the one-round game has only its equity buckets
        help="games with exchanges: group the hands by showdown equity (equity), or by k-means "
        "on what each is worth at the exchanges to come and after giving each of its cards "
        "(exchange) (default: equity)",
    )
    parser.add_argument("--out", required=True, default=argparse.SUPPRESS, help="output folder")
    _add_overwrite_option(parser)


def average_power_value(text: str) -> float:
    """``--average-power``: a number from 0 to 4."""
    from lith_solver.mccfr import check_average_power

    try:
        power = float(text)
        check_average_power(power)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 4, got {text!r}") from None
    return power


def abstract_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``abstract``: bucket the hands, solve the abstract game by MCCFR, save and plot it."""
    from lith_solver.abstract_exchanges import ExchangeAbstractSolver, save_exchange_abstract
    from lith_solver.abstraction import AbstractSolver, save_abstract
    from lith_solver.swap_abstraction import RECALLS as SWAP_RECALLS
    from lith_solver.swap_abstraction import SwapAbstractSolver, save_swap_abstract

    recall = getattr(args, "recall", None)  # None: not given
    bucketing = getattr(args, "bucketing", None)
    try:
        config = heads_up_config({"rounds": 1, **parse_rules(args.rule, LithConfig)})
        exact = exactly_measurable(config, recall)
        if config.rounds == 1:
            if recall is not None:
                raise ValueError("--recall: only for games with exchanges (rounds=2 or 3)")
            if bucketing is not None:
                raise ValueError("--bucketing: only for games with exchanges (rounds=2 or 3)")
            solver: Any = AbstractSolver(
                OneRoundGame(config), args.buckets, seed=args.seed, traversals=args.traversals,
                average_power=args.average_power,
            )  # fmt: skip
        elif recall in SWAP_RECALLS:
            solver = SwapAbstractSolver(
                config, args.buckets, seed=args.seed, traversals=args.traversals,
                average_power=args.average_power, recall=recall,
                bucketing=bucketing or "equity",
            )  # fmt: skip
        else:
            solver = ExchangeAbstractSolver(
                config, args.buckets, seed=args.seed, traversals=args.traversals,
                recall=recall or "hand", average_power=args.average_power,
                bucketing=bucketing or "equity",
            )  # fmt: skip
        save = save_swap_abstract if recall in SWAP_RECALLS else save_exchange_abstract
        out = output_folder(args.out, overwrite=args.overwrite)
    except ValueError as error:
        parser.error(str(error))

    def report(entry: dict[str, Any]) -> None:
        if not exact:  # no exact figure: keep the strategy so far, to measure it later
            snapshot = out / "iterations" / str(entry["iteration"])
            save(snapshot, solver, {"curve": [entry]})
            print(
                f"iteration {entry['iteration']:,} ({entry['cpu_seconds']:.1f} CPU s): "
                f"saved to {snapshot}",
                flush=True,
            )
            return
        inside = (
            f"abstract exploitability {entry['abstract_average']:.5f} (average), "
            f"{entry['abstract_current']:.5f} (current); "
            if "abstract_average" in entry
            else ""
        )
        print(
            f"iteration {entry['iteration']:,} ({entry['cpu_seconds']:.1f} CPU s): {inside}"
            f"in the real game {entry['real_average']:.5f} (average), "
            f"{entry['real_current']:.5f} (current) chips/hand",
            flush=True,
        )

    if config.rounds == 1:
        curve = solver.solve(args.iterations, args.check_every, report)
        save_abstract(out, solver, {"curve": curve})
    else:
        curve = solver.solve(args.iterations, args.check_every, report, exact=exact)
        save(out, solver, {"curve": curve})
    if exact:
        _plot_abstract(out, curve, args.buckets, config.rounds, bucketing or "equity")
    else:
        print(
            "the real game is too large to measure exactly: measure the strategy with "
            f"decktet lbr abstract:{out} and decktet exploit "
            f"--target abstract:{out} --protocol heads-up"
        )
    print(f"saved to {out}: play it as abstract:{out} (abstract:{out}:policy=current)")
    return 0


def exactly_measurable(config: LithConfig, recall: str | None) -> bool:
    """Whether the real game of ``abstract`` fits the exact solver (then it is measured at
    every check); a game with exchanges too large for it is solved all the same, unmeasured,
    with recall "hand", "swap" or "gift". ``ValueError`` names any other rule outside the
    solvers."""
    try:
        check_solvable(config)
    except ValueError as error:
        if config.rounds == 1 or not str(error).startswith("cards: "):
            raise
        if recall == "perfect":
            raise ValueError(
                f"--recall perfect: only where the exact solver holds the game ({error})"
            ) from None
        return False
    return True


def _plot_abstract(
    out: Path, curve: list[dict[str, Any]], buckets: int, rounds: int, bucketing: str = "equity"
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5))
    seconds = [e["cpu_seconds"] for e in curve]
    for key, style in (("real_average", "-"), ("abstract_average", "--"), ("real_current", ":")):
        if key not in curve[0]:
            continue
        axes.plot(seconds, [max(e[key], 1e-6) for e in curve], style, marker="o", label=key)
    axes.set_yscale("log")
    axes.set_xlabel("CPU seconds")
    axes.set_ylabel("exploitability (chips a hand)")
    game = "one round" if rounds == 1 else f"{rounds} rounds"
    axes.set_title(f"MCCFR on {buckets} {bucketing} buckets, heads-up Lith, {game}", fontsize=9)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(out / "exploitability.png", dpi=100)
    plt.close(figure)


# ---------------------------------------------------------------------------------------------
# The command line


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The command line, and each subcommand's parser by name (every help shows defaults)."""
    parser = argparse.ArgumentParser(
        prog="decktet",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    solve = commands.add_parser(
        "solve",
        help="solve a heads-up limit game by discounted CFR and save it",
        description=(
            "Solve heads-up limit Lith by discounted CFR, exactly (no abstraction, no "
            "sampling): one betting round (--rule rounds=1) on any deck, or games with "
            "exchanges (rounds=2 or 3) on small decks (--rule cards=...). Saves strategy.npz, "
            "solution.json (rules, curve, game value) and exploitability.png in --out; play "
            "the strategy as the agent solved:OUT."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    _add_solve_options(solve)
    exploitability = commands.add_parser(
        "exploitability",
        help="an agent's exact best responses and exploitability",
        description=(
            "Exact exploitability of a Lith agent on a heads-up limit game the solvers handle "
            "(the one-round game, or a game with exchanges on a small deck): the agent's "
            "action probabilities at every information set, an exact best response in each "
            "position, and their mean. The last line printed is "
            "'exploitability: X chips/hand'."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    _add_exploitability_options(exploitability)
    abstract = commands.add_parser(
        "abstract",
        help="solve a card abstraction by sampling CFR (MCCFR)",
        description=(
            "Put the hands of a heads-up limit game into --buckets groups by equity and solve "
            "the abstract game by external-sampling MCCFR with linear weighting: the "
            "one-round game (any deck) or a game with exchanges the exact solver holds "
            "(rounds=2 or 3 on a small deck). Measures, every --check-every iterations, the "
            "real game's exact exploitability of the average and the current strategy, and "
            "on the one-round game the abstract game's own. "
            "Saves abstraction.npz, abstraction.json (rules, curve) and exploitability.png in "
            "--out; play the strategy as the agent abstract:OUT."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    _add_abstract_options(abstract)
    return parser, {"solve": solve, "exploitability": exploitability, "abstract": abstract}


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet solve|exploitability|abstract ...`` (or ``python -m lith_solver COMMAND``);
    the exit status (2: a bad option, named)."""
    parser, commands = build_parser()
    args = parser.parse_args(argv)
    run = {
        "solve": solve_command,
        "exploitability": exploitability_command,
        "abstract": abstract_command,
    }[args.command]
    return run(args, commands[args.command])
