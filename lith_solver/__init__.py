"""Exact solutions of heads-up limit Lith, and exact exploitability of any agent.

- ``one_round``: the one-round game and its discounted-CFR solver (numpy over hands);
- ``exchanges``: games with exchanges on small decks (joint histories), ``factored`` the same
  stages per player for larger decks; ``last_round`` and ``tree_walks`` the compiled last
  betting round; ``kernels`` the compiled inner loops (numba);
- ``checkpoint``: a solve's state saved and resumed; ``solutions``: the folder ``solved:DIR``
  plays; ``solving``: a solve run to a target and saved;
- ``agent_strategy``: any agent's strategy read by querying it; ``exploitability``: exact best
  responses to it;
- ``cli``: ``decktet solve|exploitability``; ``on_ray``: solves as Ray tasks.

The rules come from ``lith_env``; nothing here knows of RL. Agents reach a solved strategy
through ``agents.solved``.
"""
