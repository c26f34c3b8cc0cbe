"""``decktet report``: see :mod:`tournaments.report.cli`."""

from tournaments.report.cli import main

raise SystemExit(main())
