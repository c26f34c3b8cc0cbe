"""Moved: ``python -m agents.psro`` is now ``python -m training.psro``.

The code is in ``training.psro`` (docs/architecture.md). Run as before, this module says
so and exits with status 2.
"""

from tablegame.cli import moved_command

if __name__ == "__main__":
    moved_command("agents.psro", "training.psro")
