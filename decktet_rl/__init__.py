"""The suite's one command, ``decktet``: every program of the suite as a subcommand
(:mod:`decktet_rl.cli`)."""
