"""What every package shares: the contracts, and the plumbing that works on any game.

- ``engine``: the contract every game engine keeps (``TurnBasedGame``), ``IllegalActionError``;
- ``agent``: the ``Agent`` protocol, and how one agent plays a batch of tables;
- ``registry``: agents by name (``make_agent``), found through the ``decktet_rl.agents``
  entry points; ``rules``: ``--rule key=value`` into any game's config;
- ``cli``: command-line checks several commands share; ``provenance``: what made a result;
- ``gym_env``, ``aec_env``, ``sb3_vec``: any engine as a Gymnasium env, a PettingZoo AEC env,
  an SB3 VecEnv; ``terminal``: the play programs' menus and options.

``engine``, ``agent``, ``registry`` and ``rules`` import no RL library (a contract in
``pyproject.toml``); nothing here knows a particular game.
"""

from tablegame.engine import IllegalActionError

__all__ = ["IllegalActionError"]
