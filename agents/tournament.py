"""Moved: ``python -m agents.tournament`` is now ``python -m tournaments``.

The code is in the ``tournaments`` package (docs/architecture.md). Run as before, this module says
so and exits with status 2.
"""

from tablegame.cli import moved_command

if __name__ == "__main__":
    moved_command("agents.tournament", "tournaments")
