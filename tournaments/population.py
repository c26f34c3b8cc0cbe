"""A population of strategies for PSRO-style training: members, payoff table, mixture.

Members are agent specs: heuristics (``tag``), snapshots of the learner
(``snapshot_50000.zip``) and exploiters of snapshots (``exploiter_50000.zip``), files in the
run's pool folder played by their sampling policy as in the self-play pool. Adding a member
plays a duplicate tournament of it against every member already in (heads-up: one pairing;
at more seats: each in one seat against copies of the other, both ways), fills its row and
column of the payoff table (chips a hand for Lith, win share for Gendeneía) and recomputes
the equilibrium (``tournaments.metagame.meta_mixture``); the mixture drawn from is the
equilibrium, or with ``uniform_share`` that share spread evenly over every member and the
rest by the equilibrium. The population saves itself as ``population.json``; the trainer's
opponents read the mixture from ``mixture.json`` beside it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from games import game_info
from tournaments.metagame import meta_mixture

__all__ = ["Population", "member_spec"]

BLOCKS_PER_ENTRY = 500  # duplicate blocks per payoff entry when no unit count is given


def member_spec(member: str, pool_dir: Path) -> str:
    """The agent spec that plays a member: a snapshot's file (its sampling policy, as the
    pool plays it), or the member itself."""
    if member.startswith(("snapshot_", "exploiter_")) and member.endswith(".zip"):
        return f"ppo:{Path(pool_dir) / member}:deterministic=false"
    return member


class Population:
    """Members, their payoff table (``payoffs[i, j]``: member i against member j) and the
    meta-game mixture, with the history of the mixture as members joined."""

    def __init__(
        self,
        game: str,
        players: int,
        rules: dict[str, Any],
        pool_dir: Path,
        units: int | None = None,
        seed: int = 0,
        uniform_share: float = 0.0,
    ) -> None:
        self.game, self.players, self.rules = game, players, dict(rules)
        self.uniform_share = uniform_share
        self.pool_dir = Path(pool_dir)
        self.units = units if units is not None else BLOCKS_PER_ENTRY * players
        self.seed = seed
        self.members: list[str] = []
        self.payoffs = np.zeros((0, 0))
        self.mixture = np.zeros(0)  # what the trainer draws from
        self.equilibrium = np.zeros(0)  # the payoff table's equilibrium
        self.history: list[dict[str, Any]] = []

    # ----------------------------------------------------------------------------- payoffs

    def _result(self, first: str, second: str) -> float:
        """Member ``first`` in one seat against copies of ``second``: chips a hand (Lith) or
        win share (Gendeneía), over duplicate blocks."""
        from tournaments.per_table import run_tournament
        from tournaments.spec import TournamentSpec

        specs = (member_spec(first, self.pool_dir), member_spec(second, self.pool_dir))
        spec = TournamentSpec(
            game=self.game,
            agents=specs,
            players=self.players,
            units=self.units,
            seed=self.seed,
            rules=self.rules,
            analytics=False,
            lineup=(0,) + (1,) * (self.players - 1),
        )
        info = game_info(self.game)
        if info.batched_engine:
            from tournaments.batched_tables import run_batched_tournament

            result = run_batched_tournament(spec)["agents_results"][specs[0]]
        else:
            result = run_tournament(spec)["agents_results"][specs[0]]
        return result[info.result_key]["mean"] / info.scale  # chips a hand, or a win share

    def _self_result(self) -> float:
        """A member against copies of itself: nothing (Lith), its fair share (Gendeneía)."""
        return game_info(self.game).baseline(self.players)

    def add(self, member: str, step: int = 0) -> None:
        """Add ``member``: play it against every member, extend the table, recompute the
        mixture and record it (with ``step``, the learner's steps when it joined)."""
        if member in self.members:
            raise ValueError(f"population: {member!r} is a member already")
        k = len(self.members)
        table = np.zeros((k + 1, k + 1))
        table[:k, :k] = self.payoffs
        table[k, k] = self._self_result()
        for j, other in enumerate(self.members):
            table[k, j] = self._result(member, other)
            if self.players == 2 and game_info(self.game).pays_chips:
                table[j, k] = -table[k, j]  # heads-up, the chips one wins the other loses
            elif self.players == 2:
                table[j, k] = 1.0 - table[k, j]  # one of the two wins (ties shared)
            else:
                table[j, k] = self._result(other, member)
        self.members.append(member)
        self.payoffs = table
        self.equilibrium = meta_mixture(table, self.players)
        share = self.uniform_share
        self.mixture = (1 - share) * self.equilibrium + share / len(self.members)
        self.history.append(
            {
                "step": step,
                "members": list(self.members),
                "equilibrium": self.equilibrium.tolist(),
                "mixture": self.mixture.tolist(),
            }
        )

    # ----------------------------------------------------------------------------- files

    def entropy(self) -> float:
        """The mixture's entropy in nats (0: one member; log k: uniform over k)."""
        p = self.mixture[self.mixture > 0]
        return float(-(p * np.log(p)).sum()) if len(p) else 0.0

    def save(self, path: Path) -> None:
        """``population.json`` (everything) and ``mixture.json`` (members and weights, what
        the trainer's opponents read) in ``path``'s folder."""
        path = Path(path)
        record = {
            "game": self.game,
            "players": self.players,
            "rules": self.rules,
            "units": self.units,
            "seed": self.seed,
            "uniform_share": self.uniform_share,
            "members": self.members,
            "payoffs": self.payoffs.tolist(),
            "equilibrium": self.equilibrium.tolist(),
            "mixture": self.mixture.tolist(),
            "history": self.history,
        }
        path.write_text(json.dumps(record, indent=2))
        mixture = {"members": self.members, "weights": self.mixture.tolist()}
        (path.parent / "mixture.json").write_text(json.dumps(mixture))

    @classmethod
    def load(cls, path: Path) -> Population:
        """A population saved by :meth:`save`; ``ValueError`` naming the file if it is not
        one."""
        path = Path(path)
        try:
            record = json.loads(path.read_text())
            population = cls(
                record["game"],
                record["players"],
                record["rules"],
                path.parent,
                record["units"],
                record["seed"],
                record.get("uniform_share", 0.0),
            )
            population.members = list(record["members"])
            population.payoffs = np.array(record["payoffs"], dtype=float).reshape(
                len(population.members), len(population.members)
            )
            population.mixture = np.array(record["mixture"], dtype=float)
            population.equilibrium = np.array(
                record.get("equilibrium", record["mixture"]), dtype=float
            )
            population.history = list(record["history"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ValueError(f"population: cannot read {str(path)!r}: {error}") from None
        if len(population.mixture) != len(population.members) or not math.isclose(
            float(population.mixture.sum()) if len(population.mixture) else 1.0, 1.0
        ):
            raise ValueError(f"population: {str(path)!r} has a mixture that does not fit")
        return population

    def plot(self, path: Path) -> None:
        """The payoff table as a heatmap and the mixture at every generation, stacked."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        names = [_short(m) for m in self.members]
        figure, (left, right) = plt.subplots(
            1, 2, figsize=(6 + 0.5 * len(names), 4.5), gridspec_kw={"width_ratios": [1, 1.2]}
        )
        limit = float(np.abs(self.payoffs).max()) or 1.0
        info = game_info(self.game)
        centre = info.baseline(self.players)
        image = left.imshow(
            self.payoffs - centre, cmap="RdBu", vmin=-limit, vmax=limit, interpolation="nearest"
        )
        left.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=7)
        left.set_yticks(range(len(names)), names, fontsize=7)
        unit = "chips a hand" if info.pays_chips else f"{info.gain_measure} - {centre:.2f}"
        left.set_title(f"row against column ({unit})", fontsize=9)
        figure.colorbar(image, ax=left, fraction=0.046)
        steps = [h["step"] for h in self.history]
        weights = np.zeros((len(self.history), len(self.members)))
        for g, entry in enumerate(self.history):
            weights[g, : len(entry["mixture"])] = entry["mixture"]
        bottom = np.zeros(len(self.history))
        positions = np.arange(len(self.history))
        for m, name in enumerate(names):
            right.bar(positions, weights[:, m], bottom=bottom, label=name, width=0.8)
            bottom += weights[:, m]
        right.set_xticks(positions, [f"{s:,}" for s in steps], rotation=60, ha="right", fontsize=7)
        right.set_xlabel("learner steps when the member joined")
        right.set_ylabel("weight in the mixture")
        right.set_title("the mixture trained against", fontsize=9)
        right.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        figure.tight_layout()
        figure.savefig(path, dpi=100)
        plt.close(figure)


def _short(member: str) -> str:
    if member.startswith("snapshot_") and member.endswith(".zip"):
        return f"snap {int(member[9:-4]):,}"
    if member.startswith("exploiter_") and member.endswith(".zip"):
        label = member[10:-4]  # a step, or psroK for the exploiters of training.psro
        return f"expl {int(label):,}" if label.isdigit() else f"expl {label}"
    return member
