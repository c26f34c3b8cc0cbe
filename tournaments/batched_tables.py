"""Tournaments on the batched engines: every block of a duplicate tournament at once.

The same tournament as :func:`tournaments.per_table.run_tournament` — the same tables, blocks,
deals and seatings, summarized the same way — but the hands (Lith) or games (Gendeneía) of many
blocks are played together by the game's batched engine (:class:`lith_env.batched.BatchedLith`,
:class:`gendeneia_env.batched.BatchedGendeneia`), and each agent decides for all the tables
where it is to act in one ``act_batch`` call. Agents without randomness (``caller``, ``rock``,
``tag``, ``ppo:PATH`` played deterministically) give exactly the results of the per-table
tournament; agents that draw random numbers (``random``, ``bluffer``, the tie breaks of
``greedy`` and ``spoiler``) draw them from their own generator, reseeded at the start of every
batch from the tournament's seed and the batch's first block, not per block, so their results
are close to the per-table tournament's but not the same. Batches are whole blocks of a fixed
size (``tables_per_batch``), so the results are the same in one process or spread over a Ray
cluster (``tournaments.on_ray``), batch by batch.

What differs between the games is small and kept in :data:`BATCHED_GAMES`: how a chunk of
deals starts on the game's engine, how a finished table's results go into its block (by the
per-table tournament's own functions) and how a recorded table is replayed.

Records on request (``record="all"`` or a number of hands or games): the batched engines keep
no log of a table's actions, so the tournament keeps the action ids it gave each recorded table
and, when the table is over, replays them on the reference engine
(:class:`lith_env.game.LithHand`, :class:`gendeneia_env.game.GendeneiaGame`) from the same
deal. The engines are exact twins (same states for the same actions), so the replay gives the
record (``lith_env.history`` or ``gendeneia_env.history`` format, replayable with
``replay_hand`` or ``replay_game``) and, for Lith, the analytics decisions exactly as the
per-table tournament writes them; the replay's result (chips, or scores and win shares) is
checked against the batched engine's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from games import game_info, games_with
from tablegame.agent import act_batch
from tablegame.registry import make_agent
from tournaments.per_table import (
    credit_gendeneia_game,
    credit_lith_hand,
    decision_record,
    gendeneia_record,
    keep_lith_hand,
    lith_deal,
    new_gendeneia_game,
    new_lith_hand,
)
from tournaments.results import summarize
from tournaments.spec import BlockResult, TournamentSpec, block_seed

__all__ = [
    "BATCHED_GAMES",
    "BatchedGame",
    "batches",
    "play_batch",
    "recorded_hands",
    "run_batched_tournament",
]

TABLES_PER_BATCH = 4096  # tables played at once; a batch is whole blocks


def recorded_hands(spec: TournamentSpec, record: int | str | None) -> set[tuple[int, int]]:
    """The hands or games to record, as (block, rotation): none, ``"all"``, or a sample of
    ``record`` of them drawn without replacement by a generator seeded from the tournament's
    seed."""
    n = spec.players
    total = spec.num_blocks() * n
    if record is None:
        return set()
    if record == "all":
        chosen = range(total)
    elif type(record) is int and 1 <= record <= total:
        rng = np.random.default_rng(block_seed(spec.seed, 2024))
        chosen = rng.choice(total, size=record, replace=False).tolist()
    else:
        raise ValueError(
            f"record: must be None, 'all' or a number of {game_info(spec.game).units} from 1 "
            f"to {total}, got {record!r}"
        )
    return {(i // n, i % n) for i in chosen}


def run_batched_tournament(
    spec: TournamentSpec,
    tables_per_batch: int = TABLES_PER_BATCH,
    progress: bool = False,
    record: int | str | None = None,
) -> dict[str, Any]:
    """Play ``spec`` (a game with a batched engine) in :func:`batches` of ``tables_per_batch``
    tables; keep the records (and Lith's decisions) of the hands or games ``record`` asks for
    (see :func:`recorded_hands`). ``spec.histories`` must be off (records come from
    ``record``); ``spec.analytics`` is a per-table setting and is not read."""
    if not game_info(spec.game).batched_engine:
        raise ValueError(
            f"batched tournaments play {games_with('batched_engine', titles=True)} only, "
            f"got game {spec.game!r}"
        )
    if spec.histories:
        raise ValueError("histories: the batched tournament records with record='all' or N")
    if not (type(tables_per_batch) is int and tables_per_batch >= 1):
        raise ValueError(f"tables_per_batch: must be a positive integer, got {tables_per_batch!r}")
    sample = recorded_hands(spec, record)
    config = spec.config()
    agents = [make_agent(name, spec.game, config=config) for name in spec.builds()]
    blocks: list[BlockResult] = []
    bar = None
    if progress:
        from rich.progress import Progress

        bar = Progress()
        bar.start()
        job = bar.add_task(
            f"{spec.game} tournament (batched)", total=spec.num_blocks() * spec.players
        )
    try:
        for first, stop in batches(spec, tables_per_batch):
            blocks += play_batch(spec, first, stop, sample, agents)
            if bar:
                bar.advance(job, (stop - first) * spec.players)
    finally:
        if bar:
            bar.stop()
    return summarize(spec, blocks)


def batches(
    spec: TournamentSpec, tables_per_batch: int = TABLES_PER_BATCH
) -> list[tuple[int, int]]:
    """The tournament's batches as ranges of whole blocks ``(first, stop)``: as many blocks
    as fit in ``tables_per_batch`` tables (at least one)."""
    per = max(1, tables_per_batch // spec.players)
    total = spec.num_blocks()
    return [(first, min(first + per, total)) for first in range(0, total, per)]


def play_batch(
    spec: TournamentSpec,
    first: int,
    stop: int,
    sample: set[tuple[int, int]],
    agents: list | None = None,
) -> list[BlockResult]:
    """Blocks ``first`` to ``stop`` (excluded) at once, recording the tables of ``sample``.
    The agents (built from the specs when not given) are reseeded from the tournament's seed
    and ``first``: a batch's results depend on nothing else, in any process."""
    config = spec.config()
    if agents is None:
        agents = [make_agent(name, spec.game, config=config) for name in spec.builds()]
    for i, agent in enumerate(agents):
        agent.reset(seed=block_seed(spec.seed, 1000 + i, first))
    tables = spec.tables()
    results = {
        b: BlockResult(b, tables[b // spec.blocks_per_table()], {}, {}, {}, [])
        for b in range(first, stop)
    }
    games = [(b, r) for b in range(first, stop) for r in range(spec.players)]
    _play_chunk(spec, config, agents, games, results, sample)
    return [results[b] for b in range(first, stop)]


def _deal_number(spec: TournamentSpec, block: int, rotation: int) -> int:
    return (
        block_seed(spec.seed, block) if spec.duplicate else block_seed(spec.seed, block, rotation)
    )


def _play_chunk(spec, config, agents, chunk, results, sample) -> None:
    game = BATCHED_GAMES[spec.game]
    n = spec.players
    tables = spec.tables()
    seatings = np.array(
        [
            [tables[b // spec.blocks_per_table()][(seat - r) % n] for seat in range(n)]
            for b, r in chunk
        ]
    )
    deals = [_deal_number(spec, b, r) for b, r in chunk]
    engine = game.start(config, deals)
    actions = np.zeros(len(chunk), dtype=np.int64)
    rows = np.arange(len(chunk))
    logged = np.array([i for i, table in enumerate(chunk) if table in sample], dtype=np.int64)
    logs: dict[int, list[int]] = {int(i): [] for i in logged}
    # Agents that draw per table (a population's mixture) draw once a block, so that the
    # rotations of a duplicate deal meet the same strategy and its luck still cancels.
    blocks = np.array([b for b, _ in chunk], dtype=np.int64)
    for agent in agents:
        if getattr(agent, "per_table", False):
            agent.reset_tables(np.unique(blocks))
    while not engine.match_over.all():
        current = engine.current.copy()
        acting = current >= 0
        who = np.where(acting, seatings[rows, current.clip(0)], -1)
        for a, agent in enumerate(agents):
            mine = np.flatnonzero(who == a)
            if len(mine):
                observations = engine.encode(current[mine], mine)
                masks = engine.action_masks(mine)
                if getattr(agent, "per_table", False):
                    actions[mine] = agent.act_batch(observations, masks, tables=blocks[mine])
                else:
                    actions[mine] = act_batch(agent, observations, masks)
        live = logged[~engine.match_over[logged]]
        for i, action_id in zip(live.tolist(), actions[live].tolist(), strict=True):
            logs[i].append(action_id)
        engine.step(actions)
    outcomes = game.outcomes(engine)
    for i, (b, r) in enumerate(chunk):
        result = results[b]
        seating = seatings[i].tolist()
        game.credit(result, seating, outcomes[i])
        if i in logs:
            replayed = game.replay(spec, config, seating, deals[i], logs[i], result, r)
            if replayed != outcomes[i]:
                raise RuntimeError(
                    f"block {b}, rotation {r}: the reference engine's replay ends with "
                    f"{replayed}, the batched engine with {outcomes[i]}"
                )


@dataclass(frozen=True)
class BatchedGame:
    """What a batched tournament needs of one game; the batch loop (:func:`play_batch`) is
    the same for every game. ``outcome`` is one finished table's result as the game counts it.

    - ``start(config, deals)``: its batched engine, table ``i`` dealt deal number
      ``deals[i]`` as the per-table tournament deals it;
    - ``outcomes(engine)``: every table's outcome once all are over;
    - ``credit(result, seating, outcome)``: add a table's outcome to its block, as the per-table
      tournament does;
    - ``replay(spec, config, seating, deal, action_ids, result, rotation)``: play the table's
      action ids again on the reference engine from its deal, add its record (and Lith's
      decisions) to ``result``, and return the reference engine's outcome (which must equal
      the batched engine's).
    """

    start: Callable[[Any, list[int]], Any]
    outcomes: Callable[[Any], list[Any]]
    credit: Callable[[BlockResult, list[int], Any], None]
    replay: Callable[..., Any]


# ---------------------------------------------------------------------------------------------
# Lith: a table's outcome is its chips won by seat (the hand's net)


def _start_lith(config, deals: list[int]):
    from lith_env.batched import BatchedLith

    dealt = [lith_deal(config, deal) for deal in deals]
    engine = BatchedLith(config, len(deals), episode="hand")
    engine.reset_to_decks(
        np.array([d[0] for d in dealt]),
        np.array([d[1] for d in dealt]),
        np.array([d[2] for d in dealt]),
    )
    return engine


def _lith_outcomes(engine) -> list[list[int]]:
    return engine.returns().tolist()


def _replay_lith(
    spec: TournamentSpec,
    config,
    seating: list[int],
    deal: int,
    action_ids: list[int],
    result: BlockResult,
    rotation: int,
) -> list[int]:
    """Replay one table's action ids on the reference engine from its deal; add the hand's
    decisions and record to ``result`` (as the per-table tournament does); return its net."""
    from lith_env.encoding import action_from_id

    hand = new_lith_hand(config, deal)
    decisions = []
    for action_id in action_ids:
        seat = hand.current
        action = action_from_id(hand, action_id)
        decisions.append(decision_record(hand, seat, seating[seat], action))
        hand.apply(action)
    if not hand.is_over:
        raise RuntimeError(f"block {result.index}, rotation {rotation}: the replay is not over")
    hand_id = f"{result.index}:{rotation}"
    keep_lith_hand(spec, hand, seating, deal, hand_id, decisions, result, record=True)
    return hand.net()


# ---------------------------------------------------------------------------------------------
# Gendeneía: a table's outcome is its scores and win shares by seat


def _start_gendeneia(config, deals: list[int]):
    from gendeneia_env.batched import BatchedGendeneia

    engine = BatchedGendeneia(config, len(deals))
    engine.reset(deals, first_player=0)  # seat 0 first, as new_gendeneia_game deals
    return engine


def _gendeneia_outcomes(engine) -> list[tuple[list[int], list[float]]]:
    return list(zip(engine.scores().tolist(), engine.win_shares().tolist(), strict=True))


def _credit_gendeneia(result: BlockResult, seating: list[int], outcome) -> None:
    scores, shares = outcome
    credit_gendeneia_game(result, seating, scores, shares)


def _replay_gendeneia(
    spec: TournamentSpec,
    config,
    seating: list[int],
    deal: int,
    action_ids: list[int],
    result: BlockResult,
    rotation: int,
) -> tuple[list[int], list[float]]:
    """Replay one table's action ids on the reference engine from its deal; add the game's
    record to ``result`` (as the per-table tournament does with histories); return its scores
    and win shares."""
    from gendeneia_env.encoding import action_from_id

    game = new_gendeneia_game(config, deal)
    for action_id in action_ids:
        game.apply(action_from_id(game, action_id))
    if not game.is_over:
        raise RuntimeError(f"block {result.index}, rotation {rotation}: the replay is not over")
    result.records.append(gendeneia_record(spec, game, seating))
    return game.scores(), game.win_shares()


# The games with a batched engine (``GameInfo.batched_engine``), by name, as
# ``tournaments.per_table.TABLE_PLAYERS`` keeps the per-table games.
BATCHED_GAMES: dict[str, BatchedGame] = {
    "lith": BatchedGame(
        start=_start_lith,
        outcomes=_lith_outcomes,
        credit=credit_lith_hand,
        replay=_replay_lith,
    ),
    "gendeneia": BatchedGame(
        start=_start_gendeneia,
        outcomes=_gendeneia_outcomes,
        credit=_credit_gendeneia,
        replay=_replay_gendeneia,
    ),
}
