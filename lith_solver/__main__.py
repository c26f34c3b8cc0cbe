"""``python -m lith_solver``: see :mod:`lith_solver.cli`."""

from lith_solver.cli import main

raise SystemExit(main())
