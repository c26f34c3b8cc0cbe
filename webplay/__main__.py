"""``decktet web``: the browser game (see :mod:`webplay.cli`)."""

from webplay.cli import main

raise SystemExit(main())
