"""Betting, bluffing and exchange statistics of a Lith tournament.

    decktet report RESULTS_DIR [--bluff-equity 0.3] [--equilibrium SOLVED] [--html]

Reads ``decisions.jsonl`` written by ``decktet tournament --out RESULTS_DIR`` (a Lith
tournament played one table at a time, or ``--batched --record all|N``), prints per-agent tables
(every rate with its count and denominator) and writes ``analytics.json`` and the plots
``bet_frequency.png`` and ``exchange_by_category.png`` into the same folder. With
``--equilibrium``, the bet-frequency plot also draws how often a solved strategy
(``decktet solve``, for the tournament's rules) bets or raises when it plays itself.

With ``--html``, also ``report.html`` (:mod:`tournaments.report`): one self-contained page with the
tournament table, the rates and charts, and a browser and replayer of the recorded hands
(``histories.jsonl``: ``--histories``, or ``--batched --record all|N``). Gendeneía tournaments
get the page only (their games replayed the same way).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games import GAMES, game_info
from tournaments.analytics import BLUFF_EQUITY, RATES, agent_report, format_rate, read_jsonl

__all__ = ["main"]

NO_DECISIONS = (
    "no decisions recorded in {folder!r}: run the tournament without --batched, or with "
    "--batched --record all|N (and --out there)"
)
# What agent_report reads of every decision.
DECISION_FIELDS = (
    "agent",
    "phase",
    "kind",
    "card",
    "cards",
    "facing_bet",
    "equity",
    "percentile",
    "hand",
)
OUTCOME_FIELDS = ("won", "showdown", "others_folded")


def _bluff_equity(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not 0 <= value <= 1:  # also rejects nan
        raise argparse.ArgumentTypeError(f"must be an equity from 0 to 1, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``decktet report`` (every option's help shows its
    default)."""
    parser = argparse.ArgumentParser(
        prog="decktet report",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "results",
        metavar="RESULTS_DIR",
        help="a folder written by decktet tournament --game lith --out RESULTS_DIR; "
        "analytics.json and the plots are written there too (required)",
    )
    parser.add_argument(
        "--bluff-equity",
        type=_bluff_equity,
        default=BLUFF_EQUITY,
        metavar="EQUITY",
        help="a bet or raise with showdown equity below this (0 to 1) counts as a bluff "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--equilibrium",
        metavar="SOLVED_DIR",
        default=None,
        help="a folder written by decktet solve for the tournament's rules: its "
        "bet-or-raise frequency by hand strength is drawn on bet_frequency.png (default: none)",
    )
    parser.add_argument(
        "--html",
        action="store_true",
        help="also write report.html: the tables, charts and a browser and replayer of the "
        "recorded hands, in one file that opens offline (default: off)",
    )
    return parser


def _write_html(folder: Path, bluff_equity: float, parser: argparse.ArgumentParser) -> None:
    from tournaments.report import ReportError, write_report

    try:
        path, count = write_report(folder, bluff_equity, progress=True)
    except ReportError as error:
        parser.error(f"--html: {error}")
    game = json.loads((folder / "results.json").read_text())["game"]
    print(f"wrote {path} ({count:,} {game_info(game).units} to browse)")


def _keeps_decisions(game: Any, folder: Path, parser: argparse.ArgumentParser) -> bool:
    """Whether ``game``'s tournaments keep the decisions the analytics read (Lith's)."""
    if game not in GAMES:
        parser.error(f"{folder / 'results.json'}: unknown game {game!r}")
    return game_info(game).betting_analytics


def _equilibrium_line(directory: str, config, parser: argparse.ArgumentParser):
    """(label, bet-or-raise share per tenth of strength percentile) of a solved strategy."""
    import numpy as np

    from lith_solver.exploitability import aggression_by_percentile
    from lith_solver.solutions import load_solution

    try:
        game, profile, _ = load_solution(directory)
    except ValueError as error:
        parser.error(f"--equilibrium: {error}")
    if game.config != config:
        parser.error(
            f"--equilibrium: {directory!r} was solved for other rules ({game.config}) than the "
            f"tournament's ({config})"
        )
    shares = aggression_by_percentile(game, profile, np.linspace(0, 1, 11))
    return f"equilibrium (solved:{directory})", shares


def _check_decision(decision: dict) -> None:
    missing = [k for k in (*DECISION_FIELDS, *OUTCOME_FIELDS) if k not in decision]
    if missing:
        raise ValueError(f"the decision has no {', '.join(missing)}")


def _read_decisions(path: Path, parser: argparse.ArgumentParser) -> list[dict]:
    try:
        return read_jsonl(path, check=_check_decision)
    except ValueError as error:
        parser.error(str(error))


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    folder = Path(args.results)
    if not folder.is_dir():
        parser.error(f"RESULTS_DIR: no folder {str(folder)!r}")
    results_path = folder / "results.json"
    results = {}
    if results_path.is_file():
        try:
            results = json.loads(results_path.read_text())
        except json.JSONDecodeError as error:
            parser.error(f"{results_path}: not JSON ({error})")
        if not isinstance(results, dict):
            parser.error(
                f"{results_path}: a JSON object expected (tournaments.per_table's results)"
            )
    analyzed = _keeps_decisions(results.get("game", "lith"), folder, parser)
    if not analyzed and args.html:
        if args.equilibrium is not None:
            parser.error("--equilibrium: a solved Lith strategy; this is a Gendeneía tournament")
        _write_html(folder, args.bluff_equity, parser)
        return 0
    if not analyzed:
        parser.error(
            f"RESULTS_DIR: {str(folder)!r} holds a {results['game']} tournament; the analytics "
            "are of Lith betting and exchanges (--html writes its report page)"
        )
    path = folder / "decisions.jsonl"
    if not path.is_file():
        parser.error(NO_DECISIONS.format(folder=str(folder)))
    decisions = _read_decisions(path, parser)
    if not decisions:
        parser.error(NO_DECISIONS.format(folder=str(folder)))
    from lith_env.game import LithConfig

    try:
        config = LithConfig(num_players=results.get("players", 2), **results.get("rules", {}))
    except (TypeError, ValueError) as error:
        parser.error(f"{results_path}: its players and rules make no Lith table ({error})")
    equilibrium = None
    if args.equilibrium is not None:
        equilibrium = _equilibrium_line(args.equilibrium, config, parser)
    report = agent_report(decisions, config, bluff_equity=args.bluff_equity)
    print_report(report, args.bluff_equity, results.get("recorded"))
    (folder / "analytics.json").write_text(json.dumps(report, indent=2))
    from tournaments.plots import plot_analytics

    for written in plot_analytics(decisions, report, folder, equilibrium):
        print(f"wrote {written}")
    if args.html:
        _write_html(folder, args.bluff_equity, parser)
    return 0


def print_report(report: dict, bluff_equity: float, recorded: dict | None = None) -> None:
    """Every rate of every agent as a rich table (``recorded``: results.json's count of the
    hands whose decisions were kept, to say when they are a sample)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    agents = sorted(report)
    table = Table(title=f"Strategy by agent (bluff: a bet or raise with equity < {bluff_equity})")
    table.add_column("rate (count/of)")
    for agent in agents:
        table.add_column(escape(agent), justify="right", overflow="fold")
    for name in RATES:
        table.add_row(name, *(format_rate(report[agent]["rates"].get(name)) for agent in agents))
    gains = [report[a]["mean exchange gain"] for a in agents]
    table.add_row("exchange gain", *("-" if g is None else f"{g:+.3f}" for g in gains))
    console.print(table)
    if recorded and 0 < recorded.get("decisions", 0) < recorded.get("of", 0):
        console.print(
            f"[dim]from the decisions of a sample of {recorded['decisions']:,} of the "
            f"tournament's {recorded['of']:,} hands[/dim]"
        )
