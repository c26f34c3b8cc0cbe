"""``decktet tournament``: duplicate tournaments between agents, for Lith and Gendeneía.

Its help is :mod:`tournaments.per_table`'s docstring: how tables, blocks and seeds are laid
out. This module turns the options into a :class:`~tournaments.spec.TournamentSpec`, checking
each, and runs it here, on the batched engine or on Ray.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from distributed.cluster import ClusterError, parse_address
from games import GAMES, INFO, GameInfo, game_config, game_info, games_with, parse_rules
from tablegame.cli import int_at_least, output_folder
from tablegame.registry import agent_catalogue, make_agent
from tournaments import per_table
from tournaments.per_table import run_tournament
from tournaments.results import print_result, write_outputs
from tournaments.spec import TournamentSpec, check_units

__all__ = ["build_parser", "main", "spec_from_args"]


def _record(text: str) -> int | str:
    if text == "all":
        return text
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"must be 'all' or a positive number of hands or games, got {text!r}"
        )
    return value


def _lineup(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"agent indices (0 for the first of --agents) such as 0,1,1, got {text!r}"
        ) from None


def _check_lineup(lineup: tuple[int, ...], agents: Sequence[str], players: int) -> None:
    m = len(agents)
    if len(lineup) != players:
        raise ValueError(
            f"--lineup: one agent index per seat ({players} for --players {players}), "
            f"got {len(lineup)}"
        )
    for i in lineup:
        if not 0 <= i < m:
            raise ValueError(
                f"--lineup: agent indices are 0-{m - 1} (the --agents in order), got {i}"
            )
    for i, name in enumerate(agents):
        if i not in lineup:
            raise ValueError(f"--lineup: agent {i} ({name}) has no seat; seat it or drop it")


def _config_error(error: ValueError, rules: dict[str, Any]) -> str:
    """A game config's error in the words of the command line: the flag that set the field."""
    text = str(error)
    field_name = text.split(":", 1)[0]
    if field_name == "num_players":
        return "--players" + text[len(field_name) :]
    if field_name in rules:
        return f"--rule {text}"
    return text


def build_parser() -> argparse.ArgumentParser:
    """The tournament's command line (every option's help shows its default)."""
    parser = argparse.ArgumentParser(
        prog="decktet tournament",
        description=per_table.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_what_to_play(parser)
    _add_how_to_play(parser)
    _add_what_to_keep(parser)
    return parser


def _add_what_to_play(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("what to play")
    group.add_argument(
        "--game", choices=GAMES, default="lith", help="the game to play (default: %(default)s)"
    )
    group.add_argument(
        "--players",
        type=int_at_least(2),
        default=2,
        help="seats at each table: 2-10 for Lith, 2-6 for Gendeneía (default: %(default)s)",
    )
    group.add_argument(
        "--agents",
        required=True,
        help="comma-separated agent specs: NAME, NAME:key=value:key=value, or ppo:PATH; "
        "each agent is labelled by its spec everywhere (tables, files, plots). Heads-up, every "
        "pairing is played; with more seats, every combination that fills a table. "
        f"Lith: {agent_catalogue('lith')}. Gendeneía: {agent_catalogue('gendeneia')}. "
        "Required; at least two agents, or one with --lineup.",
    )
    group.add_argument(
        "--hands",
        type=int,
        help="Lith only: hands per table, a positive multiple of --players (a block: one deal "
        f"in every rotation of the seating) (default: {INFO['lith'].tournament_units}, in whole "
        "blocks: 1998 at 3 players)",
    )
    group.add_argument(
        "--games",
        type=int,
        help="Gendeneía only: games per table, a positive multiple of --players "
        f"(default: {INFO['gendeneia'].tournament_units}, in whole blocks: 198 at 3 players)",
    )
    group.add_argument(
        "--seed",
        type=int_at_least(0),
        default=0,
        help="seed of every deal and of the agents' own randomness (default: %(default)s)",
    )
    group.add_argument(
        "--plain",
        action="store_true",
        help="deal every rotation of the seating afresh instead of replaying one deal in each "
        "(default: duplicate dealing)",
    )
    group.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game rule, repeatable, e.g. betting=no-limit, excuse=demon (Lith), "
        "presum=subtract (Gendeneía); an unknown key lists the game's rules (default: none, "
        "the standard rules)",
    )
    group.add_argument(
        "--lineup",
        type=_lineup,
        metavar="I,J,...",
        help="one fixed table instead of every pairing: an index into --agents per seat, e.g. "
        "0,1,1 (the first agent against two copies of the second), rotated through every seat; "
        "every agent must be seated. One agent may play copies of itself (--agents tag "
        "--lineup 0,0): its results are zero-sum, its decisions still show how it plays "
        "(default: every pairing or combination)",
    )


def _add_how_to_play(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("how to play it")
    group.add_argument(
        "--workers",
        type=int_at_least(1),
        help="processes sharing the blocks, the same results for any number; the batched "
        "tournament runs in one; with --ray and no address, the local Ray's CPUs "
        "(default: 1; with --ray, every core)",
    )
    group.add_argument(
        "--batched",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="play many tables at once on the game's batched engine, agents deciding with "
        "act_batch; --no-batched: one table at a time (default: batched wherever the game has "
        "the engine and neither --histories, --workers nor --task-blocks asks for tables one "
        "at a time; with --out it then records every Lith hand, as one table at a time keeps "
        "every decision)",
    )
    group.add_argument(
        "--torch-threads",
        type=int_at_least(1),
        default=1,
        help="threads torch may use for the networks' forward passes: small networks run "
        "fastest on one (default: %(default)s)",
    )
    group.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play the blocks (or the batches, with --batched) as tasks on a Ray cluster: "
        "auto (the cluster this machine joined), HOST:PORT of its head, ray://HOST:PORT, or no "
        "address for a local Ray; the same results as one process (docs/scale.md) "
        "(default: no Ray)",
    )
    group.add_argument(
        "--task-blocks",
        type=int_at_least(1),
        metavar="N",
        help="with --ray, per-table: blocks in each task (default: 4 tasks a CPU, at least "
        "200 blocks a task)",
    )


def _add_what_to_keep(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("what to keep")
    group.add_argument(
        "--histories",
        action="store_true",
        help="save every hand's or game's record to histories.jsonl in --out (default: off; "
        "with --batched, use --record)",
    )
    group.add_argument(
        "--record",
        type=_record,
        metavar="all|N",
        help="with --batched: keep the records (histories.jsonl) and Lith's decisions (for "
        "decktet report) of every hand or game, or of a seeded sample of N (default: none; the "
        "per-table tournament always keeps Lith decisions)",
    )
    group.add_argument(
        "--out",
        metavar="DIR",
        help="folder for results.json, results.csv, the plots, decisions.jsonl and "
        "histories.jsonl (default: print the results only)",
    )
    group.add_argument(
        "--overwrite",
        action="store_true",
        help="write into an --out folder that holds earlier results, replacing them (without "
        "it, such a folder is refused before play) (default: off)",
    )


def _units(args: argparse.Namespace, info: GameInfo) -> int:
    """Hands or games per table: the flag's, or the default in whole blocks."""
    units = getattr(args, info.units)
    if units is None:
        units = info.tournament_units // args.players * args.players
    check_units(units, args.players, args.game, duplicate=not args.plain)
    return units


def _agents(args: argparse.Namespace) -> tuple[str, ...]:
    """The agent specs of --agents, each once, seated by --lineup if given."""
    agents = tuple(a.strip() for a in args.agents.split(","))
    if not all(agents):
        raise ValueError(f"--agents: an empty agent spec in {args.agents!r}")
    for i, name in enumerate(agents):
        if name in agents[:i]:
            raise ValueError(
                f"--agents: {name!r} is listed twice; to seat copies of one agent, use --lineup"
            )
    if args.lineup is None and len(agents) < 2:
        raise ValueError(
            "--agents: give at least two agents to pair; one agent plays copies of itself "
            "only at a fixed table (--lineup 0,0)"
        )
    if args.lineup is not None:
        _check_lineup(args.lineup, agents, args.players)
    return agents


def choose_batched(args: argparse.Namespace, info: GameInfo) -> bool:
    """``--batched``/``--no-batched`` as given; neither: the batched engine wherever the game
    has one and no option asks for tables played one at a time."""
    if args.batched is not None:
        return args.batched
    one_at_a_time = args.histories or args.workers is not None or args.task_blocks is not None
    return info.batched_engine and not one_at_a_time


def _check_how_to_play(args: argparse.Namespace, info: GameInfo) -> None:
    """--batched, --workers, --ray, --task-blocks and --record make sense together."""
    if args.batched:
        if not info.batched_engine:
            only = games_with("batched_engine", titles=True)
            raise ValueError(f"--batched: batched tournaments play {only} only, got {args.game}")
        if args.histories:
            raise ValueError("--histories: the batched tournament records with --record all|N")
        if args.workers not in (None, 1) and args.ray is None:
            raise ValueError("--workers: the batched tournament runs in one process")
    if args.ray is not None:
        address = parse_address(args.ray)
        if address is not None and args.workers is not None:
            raise ValueError(
                "--workers: a Ray cluster has its own CPUs; give it only with a local --ray"
            )
        if args.batched and args.task_blocks is not None:
            raise ValueError("--task-blocks: a batched tournament's tasks are its batches")
    elif args.task_blocks is not None:
        raise ValueError("--task-blocks: only with --ray")
    if not args.batched and args.record is not None:
        raise ValueError(
            "--record: only with --batched (the per-table tournament keeps every Lith decision, "
            "and every record with --histories)"
        )


def spec_from_args(args: argparse.Namespace) -> TournamentSpec:
    """The tournament the arguments ask for; ``ValueError`` naming the flag if they are bad."""
    info = game_info(args.game)
    for units, given in (("hands", args.hands), ("games", args.games)):
        if given is not None and units != info.units:
            raise ValueError(
                f"--{units}: {info.title} tournaments count {info.units}; use {info.units_flag}"
            )
    rules = parse_rules(args.rule, args.game)
    try:
        config = game_config(args.game, args.players, rules)
    except ValueError as error:
        raise ValueError(_config_error(error, rules)) from None
    if rules.get("max_hands") is not None:  # a rule of Lith's cash game
        raise ValueError(
            "--rule max_hands: a tournament plays single hands, each from the starting stacks"
        )
    units = _units(args, info)
    agents = _agents(args)
    args.chosen = args.batched is None  # told in one line when the tournament starts
    args.batched = choose_batched(args, info)
    # The report reads every Lith decision, as one table at a time keeps them; a game without
    # betting analytics records nothing unasked, as one table at a time without --histories.
    auto_record = args.chosen and args.batched and args.out and info.betting_analytics
    if auto_record and args.record is None:
        args.record = "all"
    _check_how_to_play(args, info)
    for name in agents:
        try:
            make_agent(name, args.game, config=config)
        except ValueError as error:
            raise ValueError(f"--agents: {error}") from None
    spec = TournamentSpec(
        game=args.game,
        agents=agents,
        players=args.players,
        units=units,
        seed=args.seed,
        duplicate=not args.plain,
        rules=rules,
        histories=args.histories,
        analytics=info.betting_analytics and not args.batched,
        lineup=args.lineup,
    )
    played = spec.num_blocks() * spec.players
    if isinstance(args.record, int) and args.record > played:
        raise ValueError(
            f"--record: {args.record} {info.units} asked, the tournament plays {played}"
        )
    return spec


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet tournament``; a bad option exits with status 2, naming it."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # Before torch is imported (by a ppo: agent, here or in a worker process it starts).
    os.environ["OMP_NUM_THREADS"] = str(args.torch_threads)
    try:
        spec = spec_from_args(args)
        if "torch" in sys.modules:
            sys.modules["torch"].set_num_threads(args.torch_threads)
        if args.chosen and args.batched:
            print(f"{spec.game}: batched engine, all tables at once (--no-batched: one at a time)")
        if args.overwrite and not args.out:
            raise ValueError("--overwrite: only with --out (a folder to replace)")
        out = output_folder(args.out, overwrite=args.overwrite) if args.out else None
        if args.ray is not None:
            from tournaments.on_ray import run_tournament_on_ray

            result = run_tournament_on_ray(
                spec,
                address=parse_address(args.ray),
                num_cpus=args.workers,
                batched=args.batched,
                record=args.record,
                task_blocks=args.task_blocks,
                progress=True,
            )
        elif args.batched:
            from tournaments.batched_tables import run_batched_tournament

            result = run_batched_tournament(spec, record=args.record, progress=True)
        else:
            result = run_tournament(spec, workers=args.workers or 1, progress=True)
    except ClusterError as error:
        parser.error(f"--ray: {error}")
    except (ValueError, TypeError) as error:
        parser.error(str(error))
    print_result({k: v for k, v in result.items() if not k.startswith("_")})
    if out is not None:
        write_outputs(result, out)
        print(f"results written to {out}")
    return 0
