"""``decktet tournament``: see :mod:`tournaments.cli`."""

from tournaments.cli import main

raise SystemExit(main())
