"""Duplicate tournaments between any agents, and what their records say.

- ``spec``: what a tournament plays (:class:`~tournaments.spec.TournamentSpec`), a block's
  result, the seeding; ``per_table``: one table at a time (any game, any worker count);
  ``batched_tables``: every table at once on the game's batched engine; ``results``:
  figures, files and tables; ``on_ray``: either one as Ray tasks; ``cli``:
  ``decktet tournament``;
- ``stats``: intervals and ratings; ``analytics``: betting, bluffing and exchange rates from
  recorded decisions; ``plots``; ``report``: ``decktet report DIR [--html]``;
- ``population`` and ``metagame``: a population's payoff table of duplicate tournaments and
  the equilibria of it (PSRO's meta-game, ``mixture:DIR``).

Agents are named by spec and built through ``tablegame.registry``: nothing here depends on
any particular agent.
"""
