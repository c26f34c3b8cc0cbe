"""Train a bot with MaskablePPO (sb3-contrib) on Lith-v0 or Gendeneia-v0, with optional self-play.

    decktet train --game lith --players 2 --opponents tag,bluffer,self --timesteps 200000 \\
        --seed 1 --out runs/lith-hu
    decktet train --config experiments/lith_hu_tag.toml --timesteps 50000   # flags override
    decktet train --resume runs/lith-hu --timesteps 400000                  # continue

Every option is below with its default and meaning; a TOML config file sets the same names
(``n_envs = 8``; rules as a ``[rules]`` table). PPO trains in whole rollouts of
n_envs x n_steps steps, so a run ends at --timesteps rounded up to a whole rollout.

The run folder keeps config.json (the resolved options, and the versions of Python and of the
packages that shape the results), model.zip, checkpoints/, pool/ (self-play snapshots),
metrics.json (evaluations and the opponent pool over time) and TensorBoard logs
(tensorboard --logdir runs). Every evaluation prints a line as it finishes; without a progress
bar (stdout not a terminal, or --no-progress-bar) every checkpoint and snapshot does too.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games import parse_rules, rule_names
from tablegame.registry import agent_catalogue
from training.config import EVAL_BLOCKS, META_BLOCKS, TrainConfig, load_config, saved_options
from training.trainer import train

__all__ = ["config_from_args", "main", "parser"]

# How a flag's text becomes a field's value, by the field's annotation.
KINDS = {"int": "an integer", "float": "a number", "bool": "true or false"}
BOOLS = {"true": True, "false": False}  # "int | None" reads as "int"


def _shown_default(name: str, default: Any) -> tuple[Any, str]:
    """A field's default as ``--help`` shows it, and anything the help adds after it."""
    if name == "opponents":
        agents = f"lith: {agent_catalogue('lith', parameters=False)}; gendeneia: "
        return ",".join(default), f"; {agents}{agent_catalogue('gendeneia', parameters=False)}"
    if name == "net_arch":
        return ",".join(map(str, default)), ""
    if name == "eval_units":
        return f"{EVAL_BLOCKS} blocks, {EVAL_BLOCKS} x players", ""
    if name == "meta_units":
        return f"{META_BLOCKS} blocks, {META_BLOCKS} x players", ""
    return default, ""


def parser() -> argparse.ArgumentParser:
    """The command line: one ``--name`` for every option of :class:`TrainConfig` with a help
    text, which is the option's description."""
    p = argparse.ArgumentParser(
        prog="decktet train",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="More in docs/training.md.",
    )
    p.add_argument(
        "--config", metavar="FILE", help="a TOML file of options (flags given here override it)"
    )
    p.add_argument(
        "--resume",
        metavar="RUN",
        help="continue the run in this folder from its config.json and newest checkpoint, to "
        "--timesteps in total (more than it has trained)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="start a new run in an --out folder that holds an earlier one, replacing its "
        "model, checkpoints and logs (default: off, such a folder is refused)",
    )
    defaults = TrainConfig()
    for f in dataclasses.fields(TrainConfig):
        if "help" in f.metadata:
            shown, extra = _shown_default(f.name, getattr(defaults, f.name))
            p.add_argument(
                f"--{f.name.replace('_', '-')}",
                dest=f.name,
                default=None,
                metavar=f.name.upper(),
                help=f"{f.metadata['help']}{extra} (default: {shown})",
            )
    p.add_argument(
        "--rule",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="a game rule, repeatable (default: the game's standard rules); "
        f"lith: {', '.join(rule_names('lith'))}; gendeneia: {', '.join(rule_names('gendeneia'))}",
    )
    p.add_argument(
        "--no-progress-bar",
        action="store_true",
        help="no progress bar (there is none anyway when stdout is not a terminal)",
    )
    return p


def _coerce(name: str, text: str) -> Any:
    """A flag's text as the value of field ``name``; a ValueError naming it if it is not one."""
    kind = {f.name: f.type for f in dataclasses.fields(TrainConfig)}[name].removesuffix(" | None")
    if name == "opponents":
        return [o.strip() for o in text.split(",") if o.strip()]
    try:
        if name == "net_arch":
            return [int(width) for width in text.split(",") if width.strip()]
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "bool":
            return BOOLS[text.lower()]
    except KeyError:
        flag = f"--{name.replace('_', '-')}"
        raise ValueError(f"{flag}: expected {KINDS[kind]}, got {text!r}") from None
    except ValueError:
        expected = "comma-separated integers" if name == "net_arch" else KINDS[kind]
        raise ValueError(f"--{name.replace('_', '-')}: expected {expected}, got {text!r}") from None
    return text


def config_from_args(argv: Sequence[str] | None = None) -> tuple[TrainConfig, bool, bool]:
    """The run's options from the command line (over ``--config``, over ``--resume``'s), whether
    it resumes, and whether it may overwrite an earlier run in ``--out``."""
    args = parser().parse_args(argv)
    values: dict[str, Any] = {}
    resume = args.resume is not None
    if resume:
        if args.out is not None:
            raise ValueError("--out: a resumed run continues in its own folder (--resume RUN)")
        if args.overwrite:
            raise ValueError("--overwrite: a resumed run keeps its folder (--resume RUN)")
        values.update(saved_options(Path(args.resume)))
        values["out"] = args.resume  # the run continues where it is, wherever it was made
    if args.config:
        values.update(load_config(args.config))
    for f in dataclasses.fields(TrainConfig):
        given = getattr(args, f.name, None)
        if given is not None:
            values[f.name] = _coerce(f.name, given)
    if args.rule:
        rules = values.get("rules", {})
        if not isinstance(rules, dict):
            raise ValueError(f"rules: must be a table of game rules, got {rules!r}")
        values["rules"] = {**rules, **parse_rules(args.rule)}
    if args.no_progress_bar:
        values["progress_bar"] = False
    config = TrainConfig(**values)
    config.validate()
    return config, resume, args.overwrite


def main(argv: Sequence[str] | None = None, console: Any = None) -> int:
    """``decktet train``; returns the exit status (2: a bad option, named)."""
    try:
        config, resume, overwrite = config_from_args(argv)
        run = train(config, resume=resume, console=console, overwrite=overwrite)
    except ValueError as error:
        print(f"decktet train: error: {error}", file=sys.stderr)  # as its usage line
        return 2
    print(f"model saved to {run / 'model.zip'}")
    return 0
