"""``python -m decktet_rl``: the same as the ``decktet`` command (:mod:`decktet_rl.cli`)."""

from decktet_rl.cli import main

raise SystemExit(main())
