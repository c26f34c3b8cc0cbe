"""Exploiters, and best responses, as Ray tasks: one task (one CPU) per target and seed, or
per bot.

The target's model files travel with the task (``distributed.files``); the worker trains in a
scratch folder laid out like this one and sends the exploiter's folder back, which is
unpacked at the run's ``out`` here. Its ``exploiter.json`` then names the target and the
folder as a run here would: the figures are the same, being seeded and single-threaded.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from distributed.cluster import connect
from distributed.files import Shipment, unpack_into
from distributed.tasks import in_scratch, map_tasks, relative_out
from training.exploiter import ExploiterSpec, train_exploiter

__all__ = ["best_responses_on_ray", "run_exploiters_on_ray"]


def run_exploiters_on_ray(specs: list[ExploiterSpec], address: str | None) -> list[dict[str, Any]]:
    """Train every exploiter of ``specs`` as a task on the Ray cluster at ``address`` (None: a
    local Ray); their results, in order."""
    connect(address)
    pieces = []
    for spec in specs:
        shipment = Shipment((spec.target, *spec.others), spec.game)
        pieces.append((spec, shipment, relative_out(spec.out)))
    results: list[dict[str, Any]] = [{} for _ in specs]

    def arrived(i: int, answer: tuple[bytes, dict[str, Any]]) -> None:
        packed, result = answer
        spec = specs[i]
        folder = unpack_into(packed, Path(spec.out).parent)
        # name the target and the folder as a run here does, not as the worker saw them
        result["spec"] = dataclasses.asdict(spec)
        result["exploiter"] = f"ppo:{folder / 'exploiter.zip'}"
        (folder / "exploiter.json").write_text(json.dumps(result, indent=2))
        results[i] = result

    map_tasks(_train, pieces, num_cpus=1, description="exploiters (ray)", on_result=arrived)
    return results


def _train(spec: ExploiterSpec, shipment: Shipment, out: str) -> tuple[bytes, dict[str, Any]]:
    """A task: one exploiter, trained in a scratch folder; its folder packed, and its result."""
    target, *others = shipment.local_specs()
    local = dataclasses.replace(spec, target=target, others=tuple(others), out=out)
    return in_scratch(out, train_exploiter, local, lambda _: None)


def best_responses_on_ray(
    jobs: list[tuple[str, str]],
    respond: Callable[..., dict[str, Any]],
    options: dict[str, Any],
    address: str | None,
) -> list[dict[str, Any]]:
    """``respond(bot, options, out, keep_state=False)`` (``decktet best-response``'s
    ``respond_to_folder``) for every ``(bot, out)`` of ``jobs``, each a task on the Ray cluster
    at ``address`` (None: a local Ray); their figures, in order. The response folders come
    back without the solver's state (3 GB for an asked bot)."""
    connect(address)
    pieces = [(Shipment((bot,), "lith"), respond, options, relative_out(out)) for bot, out in jobs]
    results: list[dict[str, Any]] = [{} for _ in jobs]

    def arrived(i: int, answer: tuple[bytes, dict[str, Any]]) -> None:
        packed, figures = answer
        folder = unpack_into(packed, Path(jobs[i][1]).parent)
        results[i] = {**figures, "bot": jobs[i][0]}  # named as here, not as the worker saw it
        (folder / "best_response.json").write_text(json.dumps(results[i], indent=2) + "\n")
        saved = folder / "response.json"  # none on one round: the exact response is solved:
        if saved.is_file():
            record = json.loads(saved.read_text())
            record.update(bot=jobs[i][0], figures=results[i])
            saved.write_text(json.dumps(record, indent=2) + "\n")

    map_tasks(_respond, pieces, num_cpus=1, description="best responses (ray)", on_result=arrived)
    return results


def _respond(
    shipment: Shipment, respond: Callable[..., dict[str, Any]], options: dict[str, Any], out: str
) -> tuple[bytes, dict[str, Any]]:
    """A task: one bot's best response, in a scratch folder; its folder packed, its figures."""
    (bot,) = shipment.local_specs()

    def made_and_respond() -> dict[str, Any]:
        Path(out).mkdir(parents=True, exist_ok=True)
        return respond(bot, options, out, keep_state=False)

    return in_scratch(out, made_and_respond)
