"""A tournament's figures from its blocks: per-agent intervals, pairings, ratings; and its
outputs (results.json and .csv, decisions and histories as JSON lines, plots, the tables)."""

from __future__ import annotations

import csv
import itertools
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from games import game_info
from tournaments.spec import BlockResult, TournamentSpec
from tournaments.stats import mean_interval, rate_games

__all__ = ["print_result", "summarize", "write_outputs"]


def summarize(spec: TournamentSpec, blocks: Sequence[BlockResult]) -> dict[str, Any]:
    """Per-agent results with intervals, pairwise results (heads-up), ratings (more seats)."""
    names = list(spec.agents)
    info = game_info(spec.game)
    per_agent = {}
    for i, name in enumerate(names):
        mine = [b for b in blocks if i in b.plays]
        figure = mean_interval([info.scale * b.totals[i] / b.plays[i] for b in mine])
        per_agent[name] = {
            info.units: sum(b.plays[i] for b in mine),
            info.result_key: figure._asdict(),
        }
        for _, key, _ in info.result_extras:  # the game's scores beside its result
            per_agent[name][key] = mean_interval([b.scores[i] / b.plays[i] for b in mine])._asdict()
    result: dict[str, Any] = {
        "game": spec.game,
        "players": spec.players,
        "agents": names,
        "seed": spec.seed,
        "dealing": "duplicate" if spec.duplicate else "plain",
        "rules": spec.rules,
        "blocks": len(blocks),
        "method": (
            "95% Student-t intervals over independent blocks; a block is one deal played in "
            f"every rotation of the seating ({spec.players} "
            + info.units
            + (", the same deal each time)" if spec.duplicate else ", a new deal each time)")
        ),
        "agents_results": per_agent,
    }
    if spec.players == 2 and info.pays_chips:  # zero-sum: a pairing's result is one number
        pairs = {}
        for a, b in itertools.combinations(range(len(names)), 2):
            mine = [x for x in blocks if set(x.table) == {a, b}]
            values = [info.scale * x.totals[a] / x.plays[a] for x in mine]
            pairs[f"{names[a]} vs {names[b]}"] = {
                "agent": names[a],
                "opponent": names[b],
                info.result_key: mean_interval(values)._asdict(),
                "cumulative": np.cumsum([x.totals[a] for x in mine]).tolist(),
            }
        result["pairings"] = pairs
    copies = any(len(set(b.table)) < len(b.table) for b in blocks)
    if spec.players > 2 and not copies:
        games = [[(names[a], s) for a, s in g] for b in blocks for g in b.games]
        result["ratings"] = rate_games(names, games)
    by_table: dict[tuple[int, ...], list[BlockResult]] = {}
    for b in blocks:
        by_table.setdefault(b.table, []).append(b)
    # Per table (its agents in seat order), each agent's running total over that table's
    # blocks: chips (Lith) or wins (Gendeneía), copies of an agent summed.
    result["cumulative"] = {
        " vs ".join(names[i] for i in table): {
            names[i]: np.cumsum([b.totals[i] for b in mine]).tolist() for i in dict.fromkeys(table)
        }
        for table, mine in by_table.items()
    }
    records = [r for b in blocks for r in b.records]
    decisions = [{**d, "agent": names[d["agent"]]} for b in blocks for d in b.decisions]
    result["recorded"] = {
        "of": sum(len(b.games) for b in blocks),
        "decisions": sum(b.analysed for b in blocks),
        "histories": len(records),
    }
    result["_records"] = records
    result["_decisions"] = decisions
    result["_blocks"] = list(blocks)  # for callers that score seats block by block
    return result


def _strict_json(value: Any) -> Any:
    """``value`` with every non-finite float (the infinite interval of a single block) as
    ``None``: JSON has no infinities or NaN."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _strict_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_strict_json(v) for v in value]
    return value


def write_outputs(result: dict[str, Any], out: Path) -> None:
    """results.json, results.csv, decisions.jsonl (analytics), histories.jsonl, and plots."""
    out.mkdir(parents=True, exist_ok=True)
    records = result.pop("_records", [])
    decisions = result.pop("_decisions", [])
    result.pop("_blocks", None)
    (out / "results.json").write_text(json.dumps(_strict_json(result), indent=2))
    with open(out / "results.csv", "w", newline="") as f:
        writer = csv.writer(f)
        info = game_info(result["game"])
        keys = [info.result_key, *(key for _, key, _ in info.result_extras)]
        head = [info.result_key, "ci_low", "ci_high"]
        for key in keys[1:]:  # mean_score: score_low, score_high
            head += [key, f"{key.removeprefix('mean_')}_low", f"{key.removeprefix('mean_')}_high"]
        writer.writerow(["agent", info.units, *head])
        for name, r in result["agents_results"].items():
            row = [name, r[info.units]]
            for key in keys:
                row += [r[key]["mean"], r[key]["low"], r[key]["high"]]
            writer.writerow(row)
    if decisions:
        with open(out / "decisions.jsonl", "w") as f:
            for d in decisions:
                f.write(json.dumps(d) + "\n")
    if records:
        with open(out / "histories.jsonl", "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    from tournaments.plots import plot_tournament

    plot_tournament(result, out)


def _interval(c: dict[str, float], number: str) -> str:
    """``[low, high]`` in ``number`` format, or why there is no interval."""
    if not (math.isfinite(c["low"]) and math.isfinite(c["high"])):
        return "n/a (one block)"
    return f"[{c['low']:{number}}, {c['high']:{number}}]"


def print_result(result: dict[str, Any]) -> None:
    """The results as rich tables: per agent, per pairing (heads-up Lith), ratings."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    info = game_info(result["game"])
    title = f"{result['game']} tournament, {result['players']} players, {result['dealing']} dealing"
    table = Table(title=title)
    table.add_column("agent", overflow="fold")  # labels are shown whole, never cut short
    columns = [(info.measure_short, info.result_key, info.number)]
    columns += list(info.result_extras)
    table.add_column(info.units, justify="right", no_wrap=True)
    for head, _, _ in columns:
        table.add_column(head, justify="right", no_wrap=True)
        table.add_column("95% interval", justify="right", no_wrap=True)
    rows = sorted(result["agents_results"].items(), key=lambda kv: -kv[1][info.result_key]["mean"])
    for name, r in rows:
        cells = [escape(name), f"{r[info.units]:,}"]
        for _, key, number in columns:
            cells += [f"{r[key]['mean']:{number}}", _interval(r[key], number)]
        table.add_row(*cells)
    console.print(table)
    if "pairings" in result:
        pairs = Table(title=f"Pairings ({info.measure} for the first agent)")
        pairs.add_column("pairing", overflow="fold")
        for column in (info.measure_short, "95% interval"):
            pairs.add_column(column, justify="right", no_wrap=True)
        for name, p in result["pairings"].items():
            c = p[info.result_key]
            pairs.add_row(escape(name), f"{c['mean']:{info.number}}", _interval(c, info.number))
        console.print(pairs)
    if "ratings" in result:
        ratings = Table(title="openskill ratings (Plackett-Luce)")
        ratings.add_column("agent", overflow="fold")
        for column in ("mu", "sigma", "ordinal"):
            ratings.add_column(column, justify="right", no_wrap=True)
        for name, r in sorted(result["ratings"].items(), key=lambda kv: -kv[1]["ordinal"]):
            ratings.add_row(
                escape(name), f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}"
            )
        console.print(ratings)
    recorded = result.get("recorded", {})
    if 0 < recorded.get("decisions", 0) < recorded.get("of", 0):
        console.print(
            f"[dim]decisions and histories recorded for a sample of {recorded['decisions']:,} "
            f"of {recorded['of']:,} hands[/dim]"
        )
    console.print(f"[dim]{escape(result['method'])}[/dim]")
