"""The zoo: the strongest bots the suite has made, by name, ready to play with no training.

``zoo:NAME`` stands for the spec of a bot kept in ``models/`` (``zoo:lith-hu`` is
``abstract:models/lith_hu_full_gift``) or of a search that needs no file; trailing
``key=value`` parameters go to that agent. The catalogue is ``models/zoo.toml``; each entry's
card (its rules, how it was made, its results and exploitability, its size) is its section of
``models/README.md``.

``decktet zoo`` lists the bots; ``decktet zoo NAME`` prints a card;
``decktet zoo keep SPEC DIR`` writes the compact copy of a trained bot that
``models/`` keeps (a PPO model with its optimizer's state and last observations emptied, a
solver's strategy in float32).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tablegame.registry import make_agent, register, split_spec

__all__ = ["CATALOGUE", "MODELS", "ZooEntry", "card", "entries", "entry", "keep", "main", "size"]

MODELS = Path(__file__).resolve().parents[1] / "models"
CATALOGUE = MODELS / "zoo.toml"
_FIELDS = {"game", "players", "spec", "rules", "summary", "check"}
_CHECK_FIELDS = {"agents", "lineup", "units", "seed", "figure", "measure"}


@dataclass(frozen=True)
class ZooEntry:
    """One bot of the zoo: its game, table size, rules (``--rule`` values), the spec it stands
    for (paths relative to the repository), a line on what it is, and the short match its
    test replays (``check``: agents, lineup, units, seed, and the card's ``figure`` for that
    table, which the match's 95% interval must hold)."""

    name: str
    game: str
    players: int
    spec: str
    summary: str
    rules: dict[str, Any] = field(default_factory=dict)
    check: dict[str, Any] = field(default_factory=dict)

    def resolved_spec(self) -> str:
        """The spec with its file's path made absolute, so it plays from any folder."""
        name, path, parameters = split_spec(self.spec, self.game)
        if path is None:
            return self.spec
        return ":".join([name, str(MODELS.parent / path), *parameters])

    def files(self) -> list[Path]:
        """The files the bot loads (none for a search)."""
        _, path, _ = split_spec(self.spec, self.game)
        return [] if path is None else [MODELS.parent / path]


def entries() -> dict[str, ZooEntry]:
    """The catalogue, by name, in its order; ``ValueError`` naming a malformed entry."""
    if not CATALOGUE.is_file():
        raise ValueError(
            f"zoo: no catalogue at {CATALOGUE} (the zoo ships in the repository's models/; "
            "install the suite from a clone with `pip install -e .`)"
        )
    found = {}
    for name, values in tomllib.loads(CATALOGUE.read_text()).items():
        unknown, missing = set(values) - _FIELDS, _FIELDS - set(values) - {"rules"}
        if unknown or missing or set(values.get("check", {})) != _CHECK_FIELDS:
            raise ValueError(
                f"zoo: entry {name!r} in {CATALOGUE}: unknown {unknown}, missing {missing}, "
                f"or check keys other than {sorted(_CHECK_FIELDS)}"
            )
        found[name] = ZooEntry(name=name, **values)
    return found


def entry(name: str, game: str | None = None) -> ZooEntry:
    """The entry called ``name`` (for ``game``, if given); ``ValueError`` listing the zoo."""
    zoo = entries()
    if name not in zoo or (game is not None and zoo[name].game != game):
        listed = [n for n, e in zoo.items() if game is None or e.game == game]
        where = f" for {game}" if game else ""
        plays = f" ({name} plays {zoo[name].game})" if name in zoo else ""
        raise ValueError(f"zoo: no bot {name!r}{where}{plays}; the zoo{where}: {', '.join(listed)}")
    return zoo[name]


def _expands(name: str, game: str) -> str:
    return entry(name, game).resolved_spec()


def _zoo_factory(game: str):
    def zoo(name: str, seed: int | None = None, config: Any = None) -> Any:
        """A zoo bot (``zoo:NAME``), built from the spec it stands for. (``make_agent``
        expands a ``zoo:NAME[:key=value...]`` spec before it gets here, parameters and all.)"""
        return make_agent(_expands(name, game), game, seed=seed, config=config)

    zoo.spec_argument = "name"  # the spec is zoo:NAME
    zoo.expands = _expands  # make_agent and the Ray shipment use the spec it stands for
    return zoo


for _game in ("lith", "gendeneia"):
    register(_game, "zoo")(_zoo_factory(_game))


def size(entry: ZooEntry) -> int:
    """The bytes the bot's files take on disk."""
    total = 0
    for path in entry.files():
        walk = path.rglob("*") if path.is_dir() else [path]
        total += sum(p.stat().st_size for p in walk if p.is_file())
    return total


def card(name: str) -> str:
    """The bot's card: its section of ``models/README.md`` (from its ``### zoo:NAME``
    heading to the next heading)."""
    entry(name)
    text = (MODELS / "README.md").read_text()
    found = re.search(rf"^### `zoo:{re.escape(name)}`.*?(?=^##|\Z)", text, re.S | re.M)
    if found is None:
        raise ValueError(f"zoo: no card for {name!r} in {MODELS / 'README.md'}")
    return found.group(0).strip()


# --- keeping a bot: the compact copy models/ holds ------------------------------------------


def keep(spec: str, out: Path, game: str = "lith") -> Path:
    """Write the compact copy of the bot ``spec`` loads to ``out``: a ``ppo:`` model with its
    optimizer's state and its last rollout's observations emptied (only training reads them;
    the policy is unchanged to the bit), a
    ``solved:`` or ``abstract:`` folder with its strategy in float32 and only what play reads.
    The copy plays as the original does, to within float32 rounding of its probabilities.
    ``ValueError`` for other specs."""
    name, path, _ = split_spec(spec, game)
    if path is None or name not in ("ppo", "solved", "abstract"):
        raise ValueError(f"keep: {spec!r} is not a ppo:PATH, solved:DIR or abstract:DIR bot")
    make_agent(spec, game)  # refuses a missing or corrupt file, naming it
    source, out = Path(path), Path(out)
    if out.exists():
        raise ValueError(f"keep: {str(out)!r} exists; give a new path")
    if name == "ppo":
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(source, device="cpu")
        policy = model.policy  # a fresh optimizer: SB3's loader wants one, its state is empty
        learning_rate = policy.optimizer.param_groups[0]["lr"]
        policy.optimizer = policy.optimizer_class(
            policy.parameters(), lr=learning_rate, **policy.optimizer_kwargs
        )
        # The last rollout's observations, one row a training env: 3 MB for 1,024 batched
        # tables, and only a resumed training reads them (it deals afresh when they are None).
        model._last_obs = model._last_original_obs = model._last_episode_starts = None
        model.save(out)
        return out
    record, arrays = ("solution.json", "strategy.npz") if name == "solved" else (
        "abstraction.json", "abstraction.npz")  # fmt: skip
    out.mkdir(parents=True)
    shutil.copy(source / record, out / record)
    with np.load(source / arrays) as loaded:
        kept = {
            key: _compact(loaded[key])
            for key in loaded.files
            if key != "current"  # abstract: the last iterate, a diagnostic (policy=current)
        }
    np.savez_compressed(out / arrays, **kept)
    return out


def _compact(values: np.ndarray) -> np.ndarray:
    """Probabilities in float32; integer tables (hands, buckets) in the smallest type."""
    if values.dtype.kind == "f":
        return values.astype(np.float32)
    return values.astype(np.min_scalar_type(int(values.max()))) if values.size else values


# --- the command ---------------------------------------------------------------------------


def shown_size(entry: ZooEntry) -> str:
    """The bot's files as the catalogue shows them: ``4.5 MB``, or ``no file``."""
    return f"{size(entry) / 1e6:.1f} MB" if entry.files() else "no file"


def print_catalogue(console: Any = None) -> None:
    """The bots, two lines each: name, game, seats, rules and size; then what it is."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="The zoo: zoo:NAME plays a bot; decktet zoo NAME prints its card",
                  show_lines=True)  # fmt: skip
    table.add_column("name")
    table.add_column("table")
    table.add_column("what it is", ratio=1)
    table.add_column("size", justify="right", no_wrap=True)
    for e in entries().values():
        rules = "".join(f"\n{k}={v}" for k, v in e.rules.items())
        table.add_row(e.name, f"{e.game}, {e.players} seats{rules}", e.summary, shown_size(e))
    (console or Console()).print(table)


def print_card(name: str, console: Any = None) -> None:
    """The bot's card, its Markdown rendered for the terminal's width."""
    from rich.console import Console
    from rich.markdown import Markdown

    (console or Console()).print(Markdown(card(name)))


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet zoo [NAME | keep SPEC DIR]``; a bad argument exits with status 2."""
    parser = argparse.ArgumentParser(
        prog="decktet zoo",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("name", nargs="?", help="a bot's name: print its card (or: keep)")
    parser.add_argument("arguments", nargs="*", help="keep: SPEC DIR")
    parser.add_argument("--game", choices=("lith", "gendeneia"), default="lith",
                        help="keep: the game of SPEC (default: lith)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="the catalogue as JSON")
    args = parser.parse_args(argv)
    try:
        if args.name == "keep":
            if len(args.arguments) != 2:
                raise ValueError("keep: give SPEC and DIR, e.g. keep ppo:runs/x/model.zip DIR")
            print(f"kept {keep(args.arguments[0], Path(args.arguments[1]), args.game)}")
        elif args.arguments:
            raise ValueError(f"unexpected arguments {args.arguments!r}; give one NAME")
        elif args.name is not None:
            print_card(args.name)
        elif args.json:
            listing = {n: {**e.__dict__, "bytes": size(e)} for n, e in entries().items()}
            json.dump(listing, sys.stdout, indent=2)
            print()
        else:
            print_catalogue()
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
