"""Moved: ``python -m lith_env.solve`` is now ``python -m lith_solver solve``.

The code is in the ``lith_solver`` package (docs/architecture.md). Run as before, this module says
so and exits with status 2.
"""

from tablegame.cli import moved_command

if __name__ == "__main__":
    moved_command("lith_env.solve", "lith_solver solve")
