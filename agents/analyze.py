"""Betting, bluffing and exchange statistics of a Lith tournament.

    python -m agents.analyze RESULTS_DIR [--bluff-equity 0.3]

Reads ``decisions.jsonl`` written by ``python -m agents.tournament --out RESULTS_DIR``, prints
per-agent tables (every rate with its count and denominator) and writes ``analytics.json`` and
the plots ``bet_frequency.png`` and ``exchange_by_category.png`` into the same folder.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from agents.analytics import BLUFF_EQUITY, RATES, agent_report, format_rate

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.analyze",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("results", help="a folder written by agents.tournament --out")
    parser.add_argument("--bluff-equity", type=float, default=BLUFF_EQUITY, help="bluff threshold")
    args = parser.parse_args(argv)
    folder = Path(args.results)
    path = folder / "decisions.jsonl"
    if not path.is_file():
        parser.error(
            f"no decisions.jsonl in {str(folder)!r} (run agents.tournament --game lith --out there)"
        )
    results = (
        json.loads((folder / "results.json").read_text())
        if (folder / "results.json").is_file()
        else {}
    )
    from lith_env.game import LithConfig

    config = LithConfig(num_players=results.get("players", 2), **results.get("rules", {}))
    decisions = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            try:
                decisions.append(json.loads(line))
            except json.JSONDecodeError as error:
                parser.error(f"{path}:{number}: not a JSON decision ({error})")
    report = agent_report(decisions, config, bluff_equity=args.bluff_equity)
    print_report(report, args.bluff_equity)
    (folder / "analytics.json").write_text(json.dumps(report, indent=2))
    from agents.plots import plot_analytics

    for written in plot_analytics(decisions, report, folder):
        print(f"wrote {written}")
    return 0


def print_report(report: dict, bluff_equity: float) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    agents = sorted(report)
    table = Table(title=f"Strategy by agent (bluff: a bet or raise with equity < {bluff_equity})")
    table.add_column("rate (count/of)")
    for agent in agents:
        table.add_column(agent, justify="right")
    for name in RATES:
        table.add_row(name, *(format_rate(report[agent]["rates"].get(name)) for agent in agents))
    gains = [report[a]["mean exchange gain"] for a in agents]
    table.add_row("exchange gain", *("-" if g is None else f"{g:+.3f}" for g in gains))
    console.print(table)


if __name__ == "__main__":
    raise SystemExit(main())
