"""A played session (a person against bots, in the browser) as a folder the report opens.

:class:`SessionFolder` keeps what ``decktet report FOLDER --html`` reads from a
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

from games import game_info
from lith_solver.checkpoint import rules_json
from tournaments.per_table import decision_record
from tournaments.stats import mean_interval

__all__ = ["SessionFolder"]


class SessionFolder:
    """The report-ready folder of one session at ``out``: each finished hand (Lith) or game
    (Gendeneía) is added to its files, and ``results.json`` is written again."""

    def __init__(self, out: Path, game: str, config: Any, labels: Sequence[str]) -> None:
        self.out, self.game, self.config = Path(out), game, config
        self.info = game_info(game)
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
        if self.info.betting_analytics:  # the decisions the analytics read
            net, shown = record["net"], {int(s) for s in record["showdown"]}
            folded_out = not shown
            for d in self.pending:
                seat = d["seat"]
                d |= {"hand": record["id"], "won": net[seat] > 0, "showdown": seat in shown,
                      "others_folded": folded_out and net[seat] > 0}  # fmt: skip
            added, self.pending = self.pending, []
        self.records.append(record)
        self._append("histories.jsonl", [record])
        if self.info.betting_analytics:
            self._append("decisions.jsonl", added)
        (self.out / "results.json").write_text(json.dumps(self.results(), indent=2) + "\n")

    def results(self) -> dict:
        """``results.json``: every label's figure over the session, with its interval."""
        per_label: dict[str, list[dict[str, float]]] = {a: [] for a in self.agents}
        for record in self.records:
            for seat, label in enumerate(record["agents"]):
                per_label[label].append(self.info.seat_figures(record, seat))
        unit = self.info.units
        agents_results = {}
        for label, figures in per_label.items():
            keys = [self.info.result_key, *(key for _, key, _ in self.info.result_extras)]
            agents_results[label] = {
                unit: len(figures),
                **{key: mean_interval([f[key] for f in figures])._asdict() for key in keys},
            }
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
