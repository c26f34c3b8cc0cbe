"""Command-line values that several of the suite's commands take, checked at the door: each
bad value is an error naming it (argparse turns it into exit code 2)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "MAX_SEED",
    "check_unused",
    "duplicate_hands",
    "int_at_least",
    "non_negative_float",
    "output_file",
    "output_folder",
    "parse_seeds",
    "positive_float",
    "positive_int",
    "seed_value",
]

MAX_SEED = 2**32 - 1  # SB3 seeds numpy's global generator, which takes 32 bits


def int_at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` (to ``high``), or an error naming the value."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {value}")
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


positive_int = int_at_least(1)
seed_value = int_at_least(0, MAX_SEED)


def duplicate_hands(text: str) -> int:
    """An argparse type: a positive even number of heads-up hands (each deal from both seats)."""
    value = positive_int(text)
    if value % 2:
        raise argparse.ArgumentTypeError(
            f"must be even (each deal is played from both seats), got {value}"
        )
    return value


def positive_float(text: str) -> float:
    """An argparse type: a positive, finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0 or not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def non_negative_float(text: str) -> float:
    """An argparse type: a finite number, zero or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value >= 0 or not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a number, zero or more, got {text!r}")
    return value


def output_folder(
    text: str, flag: str = "--out", *, overwrite: bool = False, resume: str | None = None
) -> Path:
    """The folder a command writes to, made now: a file there, or a folder that cannot be
    made, is a ``ValueError`` naming ``flag`` (before any work is done). So is a folder that
    already holds files (an earlier run's), unless ``overwrite`` (the user's ``--overwrite``);
    ``resume`` names the option that goes on from such a folder instead, for the message."""
    out = Path(text)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{flag}: {str(out)!r} is a file, not a folder")
    if not overwrite:
        check_unused(out, flag, resume)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"{flag}: cannot make the folder {str(out)!r} ({error})") from None
    return out


def output_file(text: str, flag: str = "--out", *, overwrite: bool = False) -> Path:
    """The file a command writes its figures to: a folder there is a ``ValueError`` naming
    ``flag``, and so is an existing file (an earlier result) unless ``overwrite``."""
    out = Path(text)
    if out.is_dir():
        raise ValueError(f"{flag}: {text!r} is a folder; give a JSON file's path")
    if out.exists() and not overwrite:
        raise ValueError(
            f"{flag}: {text!r} already holds a result; give --overwrite to replace it, or "
            "another file"
        )
    return out


def check_unused(out: Path, flag: str = "--out", resume: str | None = None) -> None:
    """``ValueError`` naming ``flag`` if the folder ``out`` holds anything: writing there would
    replace an earlier run's files, which takes ``--overwrite`` (or ``resume``, if given)."""
    try:
        held = sorted(entry.name for entry in out.iterdir()) if out.is_dir() else []
    except OSError:
        return  # unreadable: making or writing it fails with its own message
    if held:
        shown = ", ".join(held[:3]) + (", ..." if len(held) > 3 else "")
        other = f", or {resume} to go on with it" if resume else ""
        raise ValueError(
            f"{flag}: {str(out)!r} already holds a run ({shown}); give --overwrite to replace "
            f"it{other}, or another folder"
        )


def parse_seeds(text: str, flag: str = "--seeds") -> list[int]:
    """Seeds as the command line takes them: ``4``, ``1-8``, ``1,3,5`` or ``1-3,7``, each
    once. ``ValueError`` naming ``flag`` otherwise."""
    seeds: list[int] = []
    for part in str(text).split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high) if dash else int(low)
        except ValueError:
            raise ValueError(
                f"{flag}: a list of seeds and ranges such as 1-8 or 1,3,5, got {text!r}"
            ) from None
        if not 0 <= first <= last <= MAX_SEED:
            raise ValueError(
                f"{flag}: {part.strip()!r} is not a range of seeds from 0 to {MAX_SEED}"
            )
        seeds += range(first, last + 1)
    if len(set(seeds)) < len(seeds):
        raise ValueError(f"{flag}: a seed is listed twice in {text!r}")
    return seeds
