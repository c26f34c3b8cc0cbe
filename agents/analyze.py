"""Moved: ``python -m agents.analyze`` is now ``python -m tournaments.report``.

The code is in ``tournaments.report`` (docs/architecture.md). Run as before, this module says
so and exits with status 2.
"""

from tablegame.cli import moved_command

if __name__ == "__main__":
    moved_command("agents.analyze", "tournaments.report")
