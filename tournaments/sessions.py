"""A played session (a person against bots, in the browser) as a folder the report opens.

:class:`SessionFolder` keeps what ``python -m tournaments.report FOLDER --html`` reads from a
tournament: ``histories.jsonl`` (each finished hand's or game's record, with the label of the
agent at each seat; the engine replays them), for Lith ``decisions.jsonl`` (every decision as
the analytics read it), and ``results.json`` (each label's chips per 100 hands or win share,
with its 95% interval). Labels are "you" for the person and the bots' specs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lith_solver.checkpoint import rules_json
from tournaments.per_table import decision_record
from tournaments.stats import mean_interval

__all__ = ["SessionFolder"]


class SessionFolder:
    """The report-ready folder of one session at ``out``: each finished hand (Lith) or game
    (Gendeneía) is added to its files, and ``results.json`` is written again."""

    def __init__(self, out: Path, game: str, config: Any, labels: Sequence[str]) -> None:
        self.out, self.game, self.config = Path(out), game, config
        self.labels = list(labels)  # the label of each seat
        self.agents = list(dict.fromkeys(labels))  # each label once, in seat order
        self.records: list[dict] = []
        self.pending: list[dict] = []  # this hand's decisions, annotated when it ends
        if (self.out / "histories.jsonl").exists():
            raise ValueError(f"history: {str(self.out)!r} holds a session already")
        self.out.mkdir(parents=True, exist_ok=True)

    def decision(self, hand: Any, seat: int, action: Any) -> None:
        """Note a Lith decision before it is applied (what the acting seat knew)."""
        noted = decision_record(hand, seat, self.agents.index(self.labels[seat]), action)
        self.pending.append({**noted, "agent": self.labels[seat]})  # by label, as results.py

    def finished(self, record: dict) -> None:
        """A finished Lith hand or Gendeneía game: its record and decisions join the folder."""
        record = {**record, "id": len(self.records), "agents": list(self.labels)}
        added: list[dict] = []
        if self.game == "lith":
            net, shown = record["net"], {int(s) for s in record["showdown"]}
            folded_out = not shown
            for d in self.pending:
                seat = d["seat"]
                d |= {"hand": record["id"], "won": net[seat] > 0, "showdown": seat in shown,
                      "others_folded": folded_out and net[seat] > 0}  # fmt: skip
            added, self.pending = self.pending, []
        self.records.append(record)
        self._append("histories.jsonl", [record])
        if self.game == "lith":
            self._append("decisions.jsonl", added)
        (self.out / "results.json").write_text(json.dumps(self.results(), indent=2) + "\n")

    def results(self) -> dict:
        """``results.json``: every label's figure over the session, with its interval."""
        per_label: dict[str, list[float]] = {a: [] for a in self.agents}
        scores: dict[str, list[float]] = {a: [] for a in self.agents}
        for record in self.records:
            for seat, label in enumerate(record["agents"]):
                if self.game == "lith":
                    per_label[label].append(100.0 * record["net"][seat])
                else:
                    per_label[label].append(_win_share(record, seat))
                    scores[label].append(float(record["scores"][seat]))
        agents_results = {}
        for label, values in per_label.items():
            figure = mean_interval(values)._asdict()
            if self.game == "lith":
                agents_results[label] = {"hands": len(values), "chips_per_100": figure}
            else:
                score = mean_interval(scores[label])._asdict()
                agents_results[label] = {
                    "games": len(values),
                    "win_rate": figure,
                    "mean_score": score,
                }
        unit = "hands" if self.game == "lith" else "games"
        return {
            "game": self.game,
            "players": self.config.num_players,
            "agents": self.agents,
            "agents_results": agents_results,
            "rules": {k: v for k, v in rules_json(self.config).items() if k != "num_players"},
            "method": f"a session in the browser: {len(self.records)} {unit} against the bots",
        }

    def _append(self, name: str, rows: list[dict]) -> None:
        """Add rows to a JSON Lines file of the folder (a hand's, not the session's again)."""
        with open(self.out / name, "a", encoding="utf-8") as f:
            f.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def _win_share(record: dict, seat: int) -> float:
    """A seat's share of a Gendeneía win: 1 split among the record's winners."""
    winners = record["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0
