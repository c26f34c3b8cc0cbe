"""The learner measured during training: duplicate mini-tournaments of a saved model against
each named heuristic opponent, and the line each evaluation prints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games import game_info
from tournaments.per_table import run_tournament
from tournaments.spec import TournamentSpec
from training.config import TrainConfig

__all__ = ["evaluate", "evaluation_line"]


def evaluate(
    model_path: Path, config: TrainConfig, units: int | None = None, seed: int = 12345
) -> dict[str, dict]:
    """A duplicate mini-tournament of the model against each named heuristic opponent:
    chips/100 hands (Lith) or win rate (Gendeneia), each with its 95% interval."""
    info = game_info(config.game)
    named = list(dict.fromkeys(o for o in config.opponents if o != "self"))  # once each
    named = named or list(info.heuristics[:2])
    out = {}
    for opponent in named:
        lineup = (0,) + (1,) * (config.players - 1)
        spec = TournamentSpec(
            game=config.game,
            agents=(f"ppo:{model_path}", opponent),
            players=config.players,
            units=units if units is not None else config.eval_count(),
            seed=seed,
            rules=config.rules,
            analytics=False,
            lineup=lineup,
        )
        result = run_tournament(spec)
        mine = result["agents_results"][f"ppo:{model_path}"]
        out[f"{info.result_key} vs {opponent}"] = mine[info.result_key]
    return out


def evaluation_line(entry: dict[str, Any], game: str) -> str:
    """One evaluation as a line: ``step 20,000: chips/100 hands vs tag +12.5 [-3.1, +28.0],
    vs bluffer ... (400 hands each)``."""
    info = game_info(game)
    parts = [
        f"vs {name.split(' vs ', 1)[1]} {info.interval(value)}"
        for name, value in entry["results"].items()
    ]
    count = f"{entry[info.units]:,} {info.units}" + (" each" if len(parts) > 1 else "")
    return f"step {entry['step']:,}: {info.measure} {', '.join(parts)} ({count})"
