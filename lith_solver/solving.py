"""Solving a heads-up limit game to a target: discounted CFR run and measured, checkpointed
on the way if asked, and saved as a solution folder (``decktet solve``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from lith_env.game import LithConfig
from lith_solver.checkpoint import (
    CHECKPOINT_FILE,
    load_checkpoint,
    read_checkpoint_record,
    save_checkpoint,
)
from lith_solver.exchanges import (
    BUILDS,
    ExchangeGame,
    ExchangeSolver,
    check_exchange_solvable,
    discard_report,
)
from lith_solver.one_round import OneRoundGame, Solver, check_one_round
from lith_solver.solutions import save_solution
from tablegame.rules import make_config

__all__ = ["check_solvable", "heads_up_config", "solve", "solve_to_folder"]


def heads_up_config(rules: dict[str, Any]) -> LithConfig:
    """The heads-up Lith config of ``rules``; ``ValueError`` naming a bad or unknown rule."""
    return make_config(LithConfig, 2, rules)


def check_solvable(config: LithConfig) -> None:
    """Raise ``ValueError`` naming the rule that puts ``config`` outside the solvers: the
    one-round game here, games with exchanges in ``lith_solver.exchanges``."""
    if getattr(config, "rounds", 3) == 1:
        check_one_round(config)
    else:
        check_exchange_solvable(config)


def solve(
    config: LithConfig,
    iterations: int,
    target: float | None = None,
    check_every: int = 50,
    progress: bool = False,
    checkpoint: Path | None = None,
    resume: bool = False,
) -> tuple[OneRoundGame, list[np.ndarray], dict[str, Any]]:
    """Run discounted CFR to ``iterations`` in all (or until the average strategy's
    exploitability is below ``target`` chips a hand), measuring it every ``check_every``
    iterations. Returns the game, the average profile and the curve.

    With ``checkpoint`` (a file path) the solver's state is saved there at every measurement
    (``lith_solver.checkpoint``); with ``resume`` too, the solve first goes on from it:
    the same rules, its iterations and curve counting towards these."""
    if config.rounds > 1:
        method = "auto"
        if resume and checkpoint is not None and checkpoint.is_file():
            # Go on in the build the checkpoint was saved from, should the faster one differ.
            saved = read_checkpoint_record(checkpoint)["build"]
            method = saved if saved in BUILDS else "auto"
        game: Any = ExchangeGame(config, method=method)
        solver: Any = ExchangeSolver(game)
        build = game.method
    else:
        game = OneRoundGame(config)
        solver = Solver(game)
        build = "one round"
    curve: list[dict[str, float]] = []
    before = 0.0  # seconds spent before this call, in the solve it continues
    if resume:
        if checkpoint is None:
            raise ValueError("resume: needs the checkpoint to go on from")
        curve, before = load_checkpoint(checkpoint, solver, config, build)
    start = time.perf_counter()
    reached = bool(curve) and target is not None and curve[-1]["exploitability"] < target
    bar = None
    if progress:
        from rich.progress import Progress

        bar = Progress()
        bar.start()
        job = bar.add_task("discounted CFR", total=iterations, completed=solver.iterations)
    try:
        while solver.iterations < iterations and not reached:
            step = min(check_every, iterations - solver.iterations)
            solver.iterate(step)
            profile = solver.average_profile()
            first, second, exploitability = game.exploitability(profile)
            curve.append(
                {
                    "iteration": solver.iterations,
                    "seconds": before + time.perf_counter() - start,
                    "exploitability": exploitability,
                    "best_response_0": first,
                    "best_response_1": second,
                }
            )
            if checkpoint is not None:
                save_checkpoint(checkpoint, solver, config, build, curve, curve[-1]["seconds"])
            if bar is not None:
                bar.update(job, completed=solver.iterations)
                bar.update(job, description=f"discounted CFR, exploitability {exploitability:.2e}")
            reached = target is not None and exploitability < target
    finally:
        if bar is not None:
            bar.stop()
    profile = solver.average_profile()
    info = {
        "iterations": solver.iterations,
        "seconds": before + time.perf_counter() - start,
        "exploitability": curve[-1]["exploitability"],
        "game_value": game.game_value(profile),
        "hands": game.num_hands,
        "curve": curve,
    }
    return game, profile, info


def _plot_curve(curve: list[dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog([c["iteration"] for c in curve], [max(c["exploitability"], 1e-12) for c in curve])
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability (chips a hand)")
    ax.set_title("Discounted CFR on heads-up Lith")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def solve_to_folder(
    rules: dict[str, Any],
    iterations: int,
    target: float | None,
    check_every: int,
    out: str,
    progress: bool = False,
    checkpoint: bool = False,
    resume: bool = False,
) -> dict[str, Any]:
    """Solve the heads-up game of ``rules`` and save it in ``out`` (strategy, solution.json,
    the curve's plot); what ``solution.json`` records of the run, with ``hands``. With
    ``checkpoint`` the solver's state is kept in ``out/checkpoint.npz``; with ``resume`` the
    solve goes on from it."""
    config = heads_up_config(rules)
    state = Path(out) / CHECKPOINT_FILE if checkpoint or resume else None
    game, profile, info = solve(
        config, iterations, target, check_every, progress, checkpoint=state, resume=resume
    )
    if config.rounds > 1:
        info["exchanges"] = discard_report(game, profile)
    out_path = Path(out)
    out_path.mkdir(parents=True, exist_ok=True)
    save_solution(out_path, game, profile, info)
    _plot_curve(info["curve"], out_path / "exploitability.png")
    return {**info, "hands": game.num_hands}
