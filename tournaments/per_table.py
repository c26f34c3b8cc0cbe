"""Duplicate tournaments between agents, for Lith and Gendeneía.

    decktet tournament --game lith --players 2 --agents tag,bluffer,caller,random \\
        --hands 20000 --seed 1 --workers 2 --out results/lith
    decktet tournament --game gendeneia --players 3 --agents greedy,spoiler,random \\
        --games 600 --out results/gendeneia

Tables: heads-up, every pairing of the agents; with more seats, every combination of agents
that fills a table (or, with fewer agents than seats, the agents repeated round the table);
``--lineup`` plays one fixed table instead.

Duplicate dealing (the default): a *block* is one deal (Lith: the shuffled deck, the dealer
seat, the demon coin; Gendeneía: the seed of every shuffle) played once in every rotation of
the seating, so every agent holds every seat's cards; card luck cancels within a block. With
``--plain`` each rotation gets its own deal instead. Either way a block is ``--players`` hands
or games, and ``--hands``/``--games`` (per table) must be a whole number of blocks. Blocks are
independent, so an agent's per-block results give a Student-t 95% interval for its mean. Every
random choice (deals, agents' own randomness, reseeded per block) follows from ``--seed`` and
the block number, so any number of worker processes gives the same results.

Agents are labelled by their spec as given (``tag``, ``bluffer:freq=0.3``,
``ppo:runs/x/model.zip``): the same label in the printed tables, results.json/csv, records,
decisions and plots.
"""

from __future__ import annotations

import functools
import multiprocessing
import random
from collections.abc import Sequence
from typing import Any

from games import GAMES
from tablegame.engine import as_action_id
from tournaments.results import summarize
from tournaments.spec import BlockResult, TournamentSpec, block_seed, built_agents, reset_agents

__all__ = [
    "credit_gendeneia_game",
    "credit_lith_hand",
    "decision_record",
    "gendeneia_record",
    "keep_lith_hand",
    "lith_deal",
    "new_gendeneia_game",
    "new_lith_hand",
    "play_block",
    "run_tournament",
]


def play_block(spec: TournamentSpec, index: int) -> BlockResult:
    """Play block ``index`` of the tournament (in any process: the result depends only on it)."""
    tables = spec.tables()
    table = tables[index // spec.blocks_per_table()]
    config = spec.config()
    agents = built_agents(spec.builds(), spec.game, config)
    reset_agents(agents, spec.seed, index)
    play = TABLE_PLAYERS[spec.game]
    result = BlockResult(index, table, {}, {}, {}, [])
    n = spec.players
    for rotation in range(n):
        deal = (
            block_seed(spec.seed, index)
            if spec.duplicate
            else block_seed(spec.seed, index, rotation)
        )
        seating = [table[(seat - rotation) % n] for seat in range(n)]  # seat -> agent index
        play(spec, config, agents, seating, deal, result)
    return result


# ---------------------------------------------------------------------------------------------
# Lith


def lith_deal(config, deal: int) -> tuple[list[int], int, bool]:
    """The deck order (top first), dealer and demon coin of a Lith deal number."""
    rng = random.Random(deal)
    order = list(config.deck)
    rng.shuffle(order)
    return order, rng.randrange(config.num_players), rng.random() < 0.5


def new_lith_hand(config, deal: int):
    """A fresh ``LithHand`` of deal number ``deal``, every seat with its starting stack."""
    from lith_env.game import LithHand

    order, dealer, demon = lith_deal(config, deal)
    return LithHand(config, config.stacks, dealer, order, demon_heads=demon)


def _play_lith(spec, config, agents, seating, deal, result: BlockResult) -> None:
    from lith_env.encoding import action_from_id, action_mask, encode

    hand = new_lith_hand(config, deal)
    decisions: list[dict[str, Any]] | None = [] if spec.analytics else None
    while not hand.is_over:
        seat = hand.current
        agent_index = seating[seat]
        observation = encode(hand.observe(seat), config)
        mask = action_mask(hand)
        action = action_from_id(hand, as_action_id(agents[agent_index].act(observation, mask)))
        if decisions is not None:
            decisions.append(decision_record(hand, seat, agent_index, action))
        hand.apply(action)
    credit_lith_hand(result, seating, hand.net())
    hand_id = f"{result.index}:{len(result.games) - 1}"
    keep_lith_hand(spec, hand, seating, deal, hand_id, decisions, result, record=spec.histories)


def credit_lith_hand(result: BlockResult, seating: Sequence[int], net: Sequence[int]) -> None:
    """Add a finished hand's chips won (``net``, by seat) to ``result``: each agent's total
    and hands, and the hand for the ratings (chips lost, lower is better)."""
    for seat, agent_index in enumerate(seating):
        result.totals[agent_index] = result.totals.get(agent_index, 0) + net[seat]
        result.plays[agent_index] = result.plays.get(agent_index, 0) + 1
    result.games.append([(a, -net[s]) for s, a in enumerate(seating)])  # lower is better


def keep_lith_hand(
    spec: TournamentSpec,
    hand,
    seating: Sequence[int],
    deal: int,
    hand_id: str,
    decisions: list[dict[str, Any]] | None,
    result: BlockResult,
    record: bool,
) -> None:
    """Add a finished hand's decisions (from :func:`decision_record`, annotated with the hand's
    outcome; ``None``: none kept) and, with ``record``, its history record to ``result``."""
    from lith_env.history import hand_record

    net = hand.net()
    if record:
        entry = hand_record(hand, seed=deal)
        entry["id"] = hand_id  # the "hand" of its decisions (the report links the two)
        entry["agents"] = [spec.agents[a] for a in seating]
        result.records.append(entry)
    if decisions is None:
        return
    result.analysed += 1
    folded_out = not hand.showdown  # a fold win: everyone but the winner folded
    for d in decisions:
        seat = d["seat"]
        d["hand"] = hand_id
        d["won"] = net[seat] > 0
        d["showdown"] = seat in hand.showdown
        d["others_folded"] = folded_out and net[seat] > 0
        result.decisions.append(d)


def decision_record(hand, seat: int, agent_index: int, action) -> dict[str, Any]:
    """What the analytics need of one decision, from what the acting seat may know."""
    from tournaments.analytics import equity, hand_percentile

    cards = hand.cards[seat]
    live = sum(1 for s in range(hand.n) if s != seat and hand.in_hand(s))
    strength = hand_percentile(cards, hand.config)
    return {
        "agent": agent_index,
        "seat": seat,
        "phase": hand.phase,
        "round": hand.round if hand.phase == "bet" else len(hand.exchanges) - 1,
        "kind": action.kind,
        "card": action.card,
        "cards": sorted(cards),
        "facing_bet": hand.phase == "bet" and hand.highest > hand.bets[seat],
        "voluntary": hand.phase == "bet" and action.kind in ("call", "bet", "raise"),
        "percentile": strength,
        "equity": equity(cards, live, hand.config),
        "live_opponents": live,
    }


# ---------------------------------------------------------------------------------------------
# Gendeneía


def new_gendeneia_game(config, deal: int):
    """A fresh ``GendeneiaGame`` of deal number ``deal`` (the seed of every shuffle), seat 0
    first."""
    from gendeneia_env.game import GendeneiaGame

    return GendeneiaGame(config, seed=deal, first_player=0)


def _play_gendeneia(spec, config, agents, seating, deal, result: BlockResult) -> None:
    from gendeneia_env.encoding import action_from_id, action_mask, encode

    game = new_gendeneia_game(config, deal)
    while not game.is_over:
        seat = game.current
        agent = agents[seating[seat]]
        action_id = as_action_id(agent.act(encode(game.observe(seat), config), action_mask(game)))
        game.apply(action_from_id(game, action_id))
    credit_gendeneia_game(result, seating, game.scores(), game.win_shares())
    if spec.histories:
        result.records.append(gendeneia_record(spec, game, seating))


def credit_gendeneia_game(
    result: BlockResult, seating: Sequence[int], scores: Sequence[int], shares: Sequence[float]
) -> None:
    """Add a finished game's win shares and scores (by seat) to ``result``: each agent's
    wins, summed score and games, and the game for the ratings (its scores, lower is better)."""
    for seat, agent_index in enumerate(seating):
        result.totals[agent_index] = result.totals.get(agent_index, 0) + shares[seat]
        result.scores[agent_index] = result.scores.get(agent_index, 0) + scores[seat]
        result.plays[agent_index] = result.plays.get(agent_index, 0) + 1
    result.games.append([(a, scores[s]) for s, a in enumerate(seating)])


def gendeneia_record(spec: TournamentSpec, game, seating: Sequence[int]) -> dict[str, Any]:
    """A finished game's history record (``gendeneia_env.history`` format) with its agents."""
    from gendeneia_env.history import game_record

    record = game_record(game)
    record["agents"] = [spec.agents[a] for a in seating]
    return record


# How one deal of each game is played at a table and recorded (its engine, its records).
TABLE_PLAYERS = {"lith": _play_lith, "gendeneia": _play_gendeneia}

# ---------------------------------------------------------------------------------------------
# Running and summarizing


def run_tournament(
    spec: TournamentSpec, workers: int = 1, progress: bool = False
) -> dict[str, Any]:
    """Play every block (in ``workers`` processes) and summarize: the same result for any
    number of workers."""
    if spec.game not in GAMES:
        raise ValueError(f"game: must be one of {', '.join(GAMES)}, got {spec.game!r}")
    config = spec.config()  # validates the rules
    # Agents are cached per process for speed, but a model file may have changed since the
    # last tournament (evaluations during training reuse one path): start from fresh agents.
    built_agents.cache_clear()
    built_agents(spec.agents, spec.game, config)  # validates the agent specs before any work
    indices = range(spec.num_blocks())
    task = functools.partial(play_block, spec)
    blocks: list[BlockResult] = []
    bar = None
    if progress:
        from rich.progress import Progress

        bar = Progress()
        bar.start()
        job = bar.add_task(f"{spec.game} tournament", total=len(indices))
    try:
        if workers > 1:
            context = multiprocessing.get_context("fork")
            with context.Pool(workers) as pool:
                for block in pool.imap(
                    task, indices, chunksize=max(1, len(indices) // (20 * workers))
                ):
                    blocks.append(block)
                    if bar:
                        bar.advance(job)
        else:
            for i in indices:
                blocks.append(task(i))
                if bar:
                    bar.advance(job)
    finally:
        if bar:
            bar.stop()
    return summarize(spec, blocks)
