"""``report.html``: one self-contained page of a tournament folder.

The tournament table with intervals, the rate tables and charts (inline SVG with hover
counts), and a hand browser over the recorded hands (``report.js``: filters, and a replayer
stepping a hand action by action). The CSS and JavaScript come from this package's
``assets/`` and are written into the page; the hands are one compact text block
(:mod:`tournaments.report.compact`). Nothing is fetched when the page is viewed.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from games import GAMES, INFO, game_info
from tournaments.analytics import BLUFF_EQUITY, RATES, bets_by_strength
from tournaments.report import compact, svg

__all__ = ["ReportError", "build_report", "write_report"]


class ReportError(ValueError):
    """A tournament folder the report cannot be made from; the message names the file."""


# --------------------------------------------------------------------------------- reading


def _read_json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise ReportError(f"no {path.name} in {str(path.parent)!r}: not a tournament folder")
    try:
        found = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ReportError(f"{path}: not JSON ({error})") from None
    if not isinstance(found, dict):
        raise ReportError(f"{path}: a JSON object expected")
    for key in ("game", "players", "agents", "agents_results"):
        if key not in found:
            raise ReportError(f"{path}: no {key!r} (not a results.json of tournaments.per_table)")
    return found


def _read_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a ``.jsonl`` file; ``ReportError`` naming the line of a bad one."""
    from tournaments.analytics import read_jsonl

    try:
        return read_jsonl(path)
    except ValueError as error:
        raise ReportError(str(error)) from None


NO_RECORDS = (
    "no hand records in {folder!r} (histories.jsonl): play the tournament with --histories, "
    "or --batched --record all|N, and --out there"
)


# ----------------------------------------------------------------------------- the hands


def _bluffers(decisions: list[dict[str, Any]], bluff_equity: float) -> dict[str, set]:
    """Per hand id, who bluffed (a bet or raise with equity below ``bluff_equity``, as
    ``tournaments.report.cli`` counts them): seats when decisions carry them, else agent labels."""
    out: dict[str, set] = defaultdict(set)
    for d in decisions:
        aggressive = d.get("phase") == "bet" and d.get("kind") in ("bet", "raise")
        if aggressive and d["equity"] < bluff_equity:
            out[str(d["hand"])].add(d.get("seat", d["agent"]))
    return out


def _hand_ids(records: list[dict[str, Any]], decisions: list[dict[str, Any]], path: Path):
    """The decision hand id of each record: its ``id``, or (records written before records
    carried one) the decisions' hands in order, when there are as many."""
    if all("id" in r for r in records):
        return [str(r["id"]) for r in records]
    order = list(dict.fromkeys(str(d["hand"]) for d in decisions))
    if len(order) != len(records):
        raise ReportError(
            f"{path}: the records carry no hand ids and there are {len(records):,} of them "
            f"against {len(order):,} hands of decisions; play the tournament again"
        )
    return order


def _lith_lines(folder, results, records, decisions, bluff_equity, progress) -> list[str]:
    from lith_env.history import replay_hand

    path = folder / "histories.jsonl"
    index = {label: i for i, label in enumerate(results["agents"])}
    ids = _hand_ids(records, decisions, path)
    bluffs = _bluffers(decisions, bluff_equity)
    lines = []
    pairs = list(zip(records, ids, strict=True))
    for number, (record, hand_id) in enumerate(_progress(pairs, progress, "hands"), 1):
        try:
            hand = replay_hand(record)
            seated = record.get("agents")
            if not isinstance(seated, list) or len(seated) != hand.n:
                raise ValueError(f"agents: one tournament agent per seat, got {seated!r}")
            agents = [index[a] if a in index else _unknown(a) for a in seated]
            record = {**record, "id": hand_id}
            who = bluffs.get(hand_id, set())
            seats = {s for s in who if isinstance(s, int)}
            seats |= {s for s, a in enumerate(seated) if a in who}
            lines.append(compact.lith_line(record, hand, agents, seats))
        except (ValueError, KeyError, TypeError) as error:
            raise ReportError(f"{path}:{number}: {error}") from None
    return lines


def _unknown(label: str) -> int:
    raise ValueError(f"agents: {label!r} is not one of the tournament's agents")


def _gendeneia_lines(folder, results, records, progress) -> list[str]:
    path = folder / "histories.jsonl"
    index = {label: i for i, label in enumerate(results["agents"])}
    lines = []
    for number, record in enumerate(_progress(records, progress, "games"), 1):
        try:
            seated = record.get("agents")
            if not isinstance(seated, list):
                raise ValueError(f"agents: one tournament agent per seat, got {seated!r}")
            agents = [index[a] if a in index else _unknown(a) for a in seated]
            lines.append(compact.gendeneia_line(record, agents, str(number - 1)))
        except (ValueError, KeyError, TypeError) as error:
            raise ReportError(f"{path}:{number}: {error}") from None
    return lines


def _progress(items: list, show: bool, what: str):
    if not show or len(items) < 2_000:
        yield from items
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(f"encoding {len(items):,} {what}", total=len(items))
        for i, item in enumerate(items):
            yield item
            if i % 500 == 499:
                bar.update(task, completed=i + 1)


# ------------------------------------------------------------------------- static parts


def _fmt(value: float, spec: str) -> str:
    return "n/a" if value is None or not math.isfinite(value) else format(value, spec)


def _results_section(results: dict[str, Any]) -> str:
    info = game_info(results["game"])
    spec = info.number
    rows, chart = [], []
    for label in results["agents"]:
        r = results["agents_results"][label]
        figure = r[info.result_key]
        interval = f"[{_fmt(figure['low'], spec)}, {_fmt(figure['high'], spec)}]"
        plays = r[info.units]
        cells = [escape(label), f"{plays:,}", _fmt(figure["mean"], spec), interval]
        cells += [_fmt(r[key]["mean"], number) for _, key, number in info.result_extras]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        chart.append(
            (
                label,
                figure["mean"],
                figure["low"],
                figure["high"],
                f"{label}: {_fmt(figure['mean'], spec)} {info.measure}, 95% interval {interval}, "
                f"{plays:,} {info.units}",
            )
        )
    head = ["agent", info.units, info.measure, "95% interval"]
    head += [name for name, _, _ in info.result_extras]
    table = (
        '<table id="results-table"><thead><tr>'
        + "".join(f"<th>{h}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )
    centre = info.baseline(results["players"])
    unit = info.measure_short
    return (
        "<section><h2>Tournament</h2>"
        f"<p>{escape(results.get('method', ''))}</p>"
        + table
        + svg.interval_rows(chart, unit, centre)
        + "</section>"
    )


def agent_colours(agents: list[str]) -> dict[str, str]:
    """One colour per agent across the page: its place in the tournament's agents, as the
    results chart and the hand browser (report.js) colour it."""
    return {agent: svg.palette(i) for i, agent in enumerate(agents)}


def _rates_section(report: dict[str, Any], bluff_equity: float) -> str:
    agents = sorted(report)
    head = "".join(f"<th>{escape(a)}</th>" for a in agents)
    rows = []
    for name in RATES:
        cells = []
        for a in agents:
            rate = report[a]["rates"].get(name)
            if rate is None or not rate["of"]:
                cells.append("<td>-</td>")
            else:
                cells.append(
                    f'<td title="{rate["count"]:,} of {rate["of"]:,}">{rate["rate"]:.2f} '
                    f'<span class="count">({rate["count"]:,}/{rate["of"]:,})</span></td>'
                )
        rows.append(f"<tr><th>{escape(name)}</th>{''.join(cells)}</tr>")
    gains = [report[a]["mean exchange gain"] for a in agents]
    cells = "".join(
        "<td>-</td>" if g is None else f"<td>{g:+.3f}</td>" for g in gains
    )  # the same row as decktet report's
    rows.append(f'<tr title="mean gain in hand strength an exchange brought">'
                f"<th>exchange gain</th>{cells}</tr>")  # fmt: skip
    return (
        "<section><h2>How they bet, bluff and exchange</h2>"
        f"<p>A bluff is a bet or raise with showdown equity below {bluff_equity}.</p>"
        f'<table id="rates-table"><thead><tr><th>rate</th>{head}</tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table></section>"
    )


def _charts_section(
    decisions: list[dict[str, Any]], report: dict[str, Any], colours: dict[str, str]
) -> str:
    from lith_env.hands import CATEGORIES

    agents = sorted(report)
    series = []
    for agent in agents:
        counts = bets_by_strength(decisions, agent)
        points = [
            (
                (b + 0.5) / 10,
                (k / n) if n else None,
                f"{k:,} bets or raises of {n:,} betting decisions at strength "
                f"{b / 10:.1f}-{(b + 1) / 10:.1f}",
            )
            for b, (k, n) in enumerate(counts)
        ]
        series.append((agent, points))
    bet_chart = svg.line_chart(
        series, "hand strength percentile", "share of betting decisions that bet or raise", colours
    )
    categories = sorted(
        {c for a in agents for c in report[a]["exchange by category"]}, key=CATEGORIES.index
    )
    bars = []
    for agent in agents:
        found = report[agent]["exchange by category"]
        bars.append(
            (
                agent,
                [
                    (found[c]["rate"], f"{found[c]['count']:,} discards of {found[c]['of']:,}")
                    if c in found
                    else (None, "")
                    for c in categories
                ],
            )
        )
    exchange_chart = svg.bar_rows(
        categories, bars, "share of exchange decisions that discard", colours
    )
    return (
        '<section><h2>Betting by hand strength</h2><p class="hint">Hover a point for its '
        f"counts.</p>{bet_chart}</section>"
        '<section><h2>Exchanges by hand category</h2><p class="hint">Hover a bar for its '
        f"counts.</p>{exchange_chart}</section>"
    )


# ------------------------------------------------------------------------------- the page


def _asset(name: str) -> str:
    return (
        resources.files("tournaments.report").joinpath("assets", name).read_text(encoding="utf-8")
    )


def build_report(
    folder: Path, bluff_equity: float = BLUFF_EQUITY, progress: bool = False
) -> tuple[str, int]:
    """The HTML of ``folder``'s report and the number of hands or games in its browser.
    ``ReportError`` names the file and line of anything missing or malformed."""
    folder = Path(folder)
    results = _read_json(folder / "results.json")
    game = results["game"]
    if game not in GAMES:
        raise ReportError(f"{folder / 'results.json'}: unknown game {game!r}")
    histories = folder / "histories.jsonl"
    if not histories.is_file():
        raise ReportError(NO_RECORDS.format(folder=str(folder)))
    records = _read_lines(histories)
    if not records:
        raise ReportError(NO_RECORDS.format(folder=str(folder)))
    sections = [_results_section(results)]
    meta: dict[str, Any] = {
        "game": game,
        "players": results["players"],
        "agents": results["agents"],
        "of": results.get("recorded", {}).get("of"),
    }
    if INFO[game].betting_analytics:
        from lith_env.game import LithConfig
        from tournaments.analytics import agent_report

        path = folder / "decisions.jsonl"
        if not path.is_file():
            raise ReportError(
                f"no decisions.jsonl in {str(folder)!r}: the rates and bluffs come from the "
                "tournament's decisions (play it with --out, and --batched --record all|N)"
            )
        decisions = _read_lines(path)
        try:
            config = LithConfig(num_players=results["players"], **results.get("rules", {}))
            report = agent_report(decisions, config, bluff_equity=bluff_equity)
        except (KeyError, TypeError, ValueError) as error:
            raise ReportError(f"{path}: {error!r}") from None
        colours = agent_colours(results["agents"])
        sections += [
            _rates_section(report, bluff_equity),
            _charts_section(decisions, report, colours),
        ]
        lines = _lith_lines(folder, results, records, decisions, bluff_equity, progress)
        meta |= {
            "cards": compact.lith_cards(),
            "categories": compact.lith_categories(),
            "bluff_equity": bluff_equity,
        }
    else:
        lines = _gendeneia_lines(folder, results, records, progress)
        meta |= {"cards": compact.gendeneia_cards()}
    meta["alphabet"] = compact.ALPHABET
    meta["hands"] = "\n".join(lines)
    data = json.dumps(meta, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    title = f"{game} tournament: {', '.join(results['agents'])}"
    page = (
        _asset("page.html")
        .replace("__TITLE__", escape(title))
        .replace("/*__STYLE__*/", _asset("cards.css") + _asset("report.css"))
        .replace("<!--__SECTIONS__-->", "".join(sections))
        .replace("__DATA__", data)
        .replace("/*__SCRIPT__*/", _asset("cards.js") + _asset("report.js"))
    )
    return page, len(lines)


def write_report(
    folder: Path, bluff_equity: float = BLUFF_EQUITY, progress: bool = False
) -> tuple[Path, int]:
    """Write ``report.html`` into ``folder``; its path and the number of hands or games."""
    page, count = build_report(folder, bluff_equity, progress)
    path = Path(folder) / "report.html"
    path.write_text(page, encoding="utf-8")
    return path, count
