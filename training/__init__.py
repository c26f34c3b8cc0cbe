"""Training bots with MaskablePPO: the options, the opponents, the mixtures, the run.

- ``config``: :class:`~training.config.TrainConfig`, every option described once;
- ``opponents``: named agents and snapshots of the learner, drawn per episode or table;
- ``mixtures``: how the other seats are drawn, one callback a mode (``uniform``, ``nash``,
  ``best_response``, ``exploiter``); ``callbacks``: evaluations, checkpoints, metrics;
- ``evaluation``: mini-tournaments during training; ``run``: a run start to end, resuming;
  ``cli``: ``decktet train``;
- ``exploiter``: learned best responses (``decktet exploit``); ``psro``: PSRO
  iterations on a finished population (``decktet psro``); ``on_ray``: exploiters
  as Ray tasks.
"""
