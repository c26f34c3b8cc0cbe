"""What made a result: the suite's commit and the versions of the software that shape it.

Training records these in a run's ``config.json``. A Ray worker runs a copy of the driver's
code outside any git checkout, so the driver passes its commit in ``DECKTET_RL_COMMIT``.
"""

from __future__ import annotations

import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

__all__ = ["COMMIT_VARIABLE", "PACKAGES", "git_commit", "versions"]

COMMIT_VARIABLE = "DECKTET_RL_COMMIT"  # set for Ray workers by distributed.cluster
# What a run records of the software it was made with (importlib.metadata names).
PACKAGES = (
    "decktet-rl",
    "numpy",
    "torch",
    "stable-baselines3",
    "sb3-contrib",
    "gymnasium",
    "pettingzoo",
    "scipy",
)


def git_commit() -> str | None:
    """The commit of this checkout (``+dirty`` with uncommitted changes to tracked files);
    None outside git."""
    here = Path(__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=here, capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()

    try:
        commit = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+dirty" if dirty else "")


def versions() -> dict[str, str | None]:
    """Python's version, each of ``PACKAGES``' (None: not installed), and the git commit of
    this checkout (on a Ray worker, the commit of the machine that sent the code)."""
    found: dict[str, str | None] = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    found["commit"] = git_commit() or os.environ.get(COMMIT_VARIABLE)
    return found
