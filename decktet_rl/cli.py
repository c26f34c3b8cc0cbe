"""``decktet COMMAND [OPTIONS]``: the suite's programs under one command, as ``rl_zoo3 train``
or ``git log`` do. Each subcommand is a program of a package (its own ``--help`` lists its
options); the table below is the only place that knows where each one lives, so moving code
does not move a command.

    decktet train --game lith --players 2 --opponents tag,bluffer,self --out runs/lith-hu
    decktet tournament --agents tag,bluffer,caller --hands 2000 --out results/lith
    decktet play --bots zoo:lith-hu
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["COMMANDS", "Command", "main"]


@dataclass(frozen=True)
class Command:
    """A subcommand: the module whose ``main(argv)`` runs it, arguments put before the user's
    (a subcommand of that program), and the line ``decktet --help`` shows."""

    module: str
    summary: str
    topic: str
    before: tuple[str, ...] = ()


# name: (module, what it does, topic[, arguments before the user's])
_TABLE: dict[str, tuple] = {
    "train": ("training.cli", "train a bot with MaskablePPO", "train"),
    "exploit": (
        "training.exploiter_cli",
        "learned best responses to an agent, and their gain",
        "train",
    ),
    "psro": ("training.psro", "PSRO iterations on a population run", "train"),
    "exit": ("training.expert_iteration", "expert iteration for Gendeneía", "train"),
    "tournament": ("tournaments.cli", "a duplicate tournament with 95% intervals", "play"),
    "report": ("tournaments.report.cli", "how a tournament's agents bet, bluff, exchange", "play"),
    "aivat": ("tournaments.aivat", "a heads-up match with AIVAT's variance reduction", "play"),
    "play": ("decktet_rl.play", "play against the bots in the terminal (--game)", "play"),
    "web": ("webplay.cli", "play against the bots in the browser", "play"),
    "zoo": ("agents.zoo", "the shipped bots: list them, print a card, keep one", "play"),
    "solve": ("lith_solver.cli", "solve heads-up limit Lith exactly (CFR)", "solve", ("solve",)),
    "exploitability": (
        "lith_solver.cli",
        "an agent's exact best response",
        "solve",
        ("exploitability",),
    ),
    "abstract": ("lith_solver.cli", "MCCFR on a card abstraction", "solve", ("abstract",)),
    "best-response": (
        "training.best_response",
        "a heads-up bot's best response, computed and played",
        "solve",
    ),
    "lbr": ("agents.lbr", "local best response: a lower bound on exploitability", "solve"),
    "hands": ("lith_env.hands", "the Lith hand categories, counted over the deck", "solve"),
    "experiment": ("experiments.run", "a recipe: train, tournament, report.md", "research"),
    "demo": ("experiments.demo", "the demo: train a small bot, then a tournament", "research"),
    "methods": ("experiments.bench", "equilibrium methods measured exactly", "research"),
    "calibrate": ("experiments.calibration", "learned best responses against exact", "research"),
    "full-game": ("experiments.full_game", "the full heads-up game's bots, measured", "research"),
    "exploitability-curve": (
        "experiments.exploitability_curve",
        "full-game bots' best response by abstraction size",
        "research",
    ),
    "bench": ("benchmarks.run", "speed benchmarks, each against a reference", "research"),
    "fingerprint": ("benchmarks.fingerprint", "digests of seeded results", "research"),
}
COMMANDS: dict[str, Command] = {name: Command(*row) for name, row in _TABLE.items()}
TOPICS = {
    "train": "training",
    "play": "playing",
    "solve": "solving and measuring",
    "research": "recipes and benchmarks",
}


def usage() -> str:
    """``decktet --help``: every subcommand by topic."""
    lines = [
        "usage: decktet COMMAND [OPTIONS]   (decktet COMMAND --help: its options)",
        "",
        "The decktet-rl suite: reinforcement learning on Lith and Gendeneía.",
    ]
    width = max(map(len, COMMANDS))
    for topic, title in TOPICS.items():
        lines += ["", f"{title}:"]
        lines += [
            f"  {name:<{width}}  {command.summary}"
            for name, command in COMMANDS.items()
            if command.topic == topic
        ]
    lines += ["", "More in docs/commands.md."]
    return "\n".join(lines)


def _program(module: str):
    """The command's module. The benchmarks are not installed (they measure a checkout):
    from the clone the suite is installed from (``pip install -e``), they are read there,
    whatever the working folder."""
    top = module.split(".")[0]
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        root = Path(__file__).resolve().parents[1]
        if error.name != top or not (root / top / "__init__.py").is_file():
            raise ModuleNotFoundError(
                f"{top}/ is not installed; run this command from a clone of the repository "
                "(pip install -e .)",
                name=top,
            ) from None
        sys.path.insert(0, str(root))
        return importlib.import_module(module)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``decktet COMMAND ...``; returns the exit status (2: no such command)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(usage(), file=sys.stderr)
        print(f"\ndecktet: error: no command {name!r}", file=sys.stderr)
        return 2
    command = COMMANDS[name]
    try:
        program = _program(command.module)
    except ModuleNotFoundError as missing:
        print(f"decktet {name}: {missing}", file=sys.stderr)
        return 2
    try:
        code = program.main([*command.before, *rest])
    except SystemExit as stop:  # argparse's exit, and programs that exit themselves
        code = stop.code
    if isinstance(code, str):  # SystemExit("message"): the message, and failure
        print(code, file=sys.stderr)
        return 1
    return 0 if code is None else code
