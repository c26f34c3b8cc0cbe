"""Heads-up limit Lith, the full game: bots solved by MCCFR on a card abstraction, over seeds,
and every yardstick of them.

    decktet full-game experiments/lith_hu_full_mccfr.toml [--seeds 1-5] [--ray]

For each seed the pieces are, in order:

- ``solve``: ``decktet abstract`` with the TOML's ``[solve]`` options, into
  ``OUT/seed-N`` (with the strategy so far every ``check_every`` iterations, in
  ``OUT/seed-N/iterations/I``);
- ``lbr``: local best response (``agents.lbr``) against the bot, into ``OUT/seed-N/lbr.json``;
  ``lbr_snapshots`` does the same for every earlier snapshot (``lbr-I.json``, over
  ``lbr_snapshot_hands``): where the curve heads;
- ``matches``: a duplicate match against each agent of ``against`` (and the ``reference``
  bot), ``OUT/seed-N/vs_X/results.json``, with ``record`` hands (default 2,000) recorded
  for ``decktet report OUT/seed-N/vs_X``;
- ``best_response``: with a ``[best_response]`` table (the options of ``decktet
  best-response``: ``iterations``, ``seed``, ``buckets``, ``traversals``, ``check_every``,
  ``samples``, ``prune``), the computed best response, played over ``hands`` duplicate hands,
  into ``OUT/seed-N/best_response`` (its ``best_response.json`` has the figures; the
  solver's state is not kept);
- ``protocol``: the learned best response under ``--protocol heads-up``
  (``training.exploiter``), one run for every seed still to measure, into
  ``OUT/protocol-seeds-...`` (its ``protocol.json`` has each seed's figure).

A piece whose output is already there is kept, so a run stopped on the way goes on where it
was. ``--pieces`` runs some of them only (the table is written from whatever is there).
``OUT/full_game.md`` tables every figure by seed. With ``--ray`` the pieces of a kind run as Ray
tasks, a CPU each (the protocol: every exploiter of every seed at once).
"""

from __future__ import annotations

import argparse
import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tablegame.cli import parse_seeds

__all__ = ["PIECES", "load_full_game", "main", "run_piece", "run_protocol", "summarize"]

RESPONSE = "best_response"  # a seed's best response's folder

PIECES = ("solve", "lbr", "matches", "best_response", "protocol")
SOLVE_KEYS = {
    "buckets", "iterations", "traversals", "check_every", "average_power", "recall", "bucketing",
}  # fmt: skip
SOLVE_CHOICES = {"recall": ("hand", "swap", "gift"), "bucketing": ("equity", "exchange")}
RESPONSE_KEYS = {"iterations", "seed", "buckets", "traversals", "check_every", "samples", "prune"}
EVALUATE_KEYS = {
    "out", "seeds", "policy", "lbr_hands", "lbr_particles", "lbr_snapshots",
    "lbr_snapshot_hands", "against",
    "reference", "hands", "match_seed", "record",
}  # fmt: skip


def load_full_game(path: Path) -> dict[str, Any]:
    """The TOML, checked: ``ValueError`` naming the first bad entry."""
    if not path.is_file():
        raise ValueError(f"config: no file at {str(path)!r}")
    try:
        table = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"config: {path} is not valid TOML ({error})") from None
    for name, known in (
        ("solve", SOLVE_KEYS), ("evaluate", EVALUATE_KEYS), ("best_response", RESPONSE_KEYS)
    ):  # fmt: skip
        section = table.get(name, {} if name == "best_response" else None)
        if not isinstance(section, dict):
            raise ValueError(f"config: the TOML needs a [{name}] table")
        unknown = sorted(set(section) - known)
        if unknown:
            keys = ", ".join(sorted(known))
            raise ValueError(f"{name}.{unknown[0]}: not a key; the keys: {keys}")
    unknown = sorted(set(table) - {"solve", "evaluate", "best_response"})
    if unknown:
        raise ValueError(
            f"{unknown[0]}: not a table; the tables: [solve], [evaluate], [best_response]"
        )
    solve = table["solve"]
    for key in ("buckets", "iterations", "traversals", "check_every"):
        value = solve.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"solve.{key}: a positive whole number, got {value!r}")
    for key, choices in SOLVE_CHOICES.items():
        if key in solve and solve[key] not in choices:
            raise ValueError(f"solve.{key}: {' or '.join(choices)}, got {solve[key]!r}")
    response = table.get("best_response", {})
    if response and "iterations" not in response:
        raise ValueError("best_response.iterations: needed, a positive whole number")
    for key, value in response.items():
        lowest = 0 if key in ("seed", "prune") else 1
        kind = (int, float) if key == "prune" else int
        if not isinstance(value, kind) or isinstance(value, bool) or value < lowest:
            raise ValueError(f"best_response.{key}: a number of at least {lowest}, got {value!r}")
    evaluate = table["evaluate"]
    if evaluate.get("policy", "average") not in ("average", "current"):
        raise ValueError(f"evaluate.policy: average or current, got {evaluate['policy']!r}")
    hands = evaluate.get("hands", 20_000)
    for key, value in (
        ("hands", hands),
        ("lbr_hands", evaluate.get("lbr_hands", 2_000)),
        ("lbr_snapshot_hands", evaluate.get("lbr_snapshot_hands", 2_000)),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or value < 2 or value % 2:
            raise ValueError(f"evaluate.{key}: a positive even number of hands, got {value!r}")
    against = evaluate.get("against", [])
    if not isinstance(against, list) or not all(isinstance(a, str) for a in against):
        raise ValueError("evaluate.against: a list of agent specs")
    if not isinstance(evaluate.get("reference", ""), str):
        raise ValueError("evaluate.reference: an agent spec")
    from lith_solver.mccfr import check_average_power

    try:
        check_average_power(solve.get("average_power", 1.0))
    except ValueError as error:
        raise ValueError(f"solve.{error}") from None
    return table


def out_folder(table: dict[str, Any]) -> Path:
    return Path(table["evaluate"].get("out", "runs/lith_hu_full_mccfr"))


def seed_folder(table: dict[str, Any], seed: int) -> Path:
    return out_folder(table) / f"seed-{seed}"


def bot_spec(table: dict[str, Any], seed: int, folder: Path | None = None) -> str:
    policy = table["evaluate"].get("policy", "average")
    return f"abstract:{folder or seed_folder(table, seed)}:policy={policy}"


def opponents(table: dict[str, Any]) -> list[str]:
    reference = table["evaluate"].get("reference")
    return [*table["evaluate"].get("against", []), *([reference] if reference else [])]


def _done(table: dict[str, Any], seed: int, piece: str) -> bool:
    folder = seed_folder(table, seed)
    if piece == "solve":
        return (folder / "abstraction.json").is_file()
    if piece == "lbr":
        return all(path.is_file() for path, _, _ in _lbr_targets(table, folder))
    if piece == "matches":
        return all((folder / _vs(o) / "results.json").is_file() for o in opponents(table))
    if piece == "best_response":
        return (folder / RESPONSE / "best_response.json").is_file()
    return _protocol_figure(table, seed) is not None


def _protocol_figure(table: dict[str, Any], seed: int) -> dict[str, Any] | None:
    """The seed's protocol figure, from any protocol run of the experiment (each writes
    ``OUT/protocol-...`` with the figures of the seeds it measured)."""
    out = out_folder(table)
    target = bot_spec(table, seed)
    for path in sorted(out.glob("protocol*/protocol.json")):
        figures = json.loads(path.read_text())["figures"]
        if target in figures:
            return figures[target]
    return None


def _lbr_targets(table: dict[str, Any], folder: Path) -> list[tuple[Path, Path, int]]:
    """What LBR measures in a seed's folder: (its figure's file, the strategy, hands), the bot
    first, then with ``lbr_snapshots`` every snapshot but the last (the bot itself)."""
    evaluate = table["evaluate"]
    targets = [(folder / "lbr.json", folder, evaluate.get("lbr_hands", 2_000))]
    if evaluate.get("lbr_snapshots", False):
        found = sorted(int(p.name) for p in (folder / "iterations").glob("*") if p.name.isdigit())
        hands = evaluate.get("lbr_snapshot_hands", 2_000)
        targets += [
            (folder / f"lbr-{i}.json", folder / "iterations" / str(i), hands) for i in found[:-1]
        ]
    return targets


def _vs(opponent: str) -> str:
    return "vs_" + "".join(c if c.isalnum() or c in "-_.=" else "_" for c in opponent)


def run_piece(table: dict[str, Any], seed: int, piece: str, out: str) -> None:
    """One seed's ``piece``, written under ``out`` (the seed's folder; the protocol: under
    the experiment's)."""
    folder = Path(out)
    if piece == "solve":
        from lith_solver.cli import main as solver_main

        solve = table["solve"]
        argv = ["abstract", "--rule", "rounds=3", "--seed", str(seed), "--out", str(folder)]
        for key in sorted(solve):
            argv += [f"--{key.replace('_', '-')}", str(solve[key])]
        if solver_main(argv) != 0:
            raise RuntimeError(f"the solve of seed {seed} failed")
    elif piece == "lbr":
        _lbr(table, seed, folder)
    elif piece == "matches":
        _matches(table, seed, folder)
    elif piece == "best_response":
        _best_response(table, seed, folder)
    else:
        run_protocol(table, [seed])


def run_protocol(
    table: dict[str, Any], seeds: Sequence[int], ray: bool = False, address: str | None = None
) -> None:
    """The learned best response under ``--protocol heads-up`` against the bots of ``seeds``,
    in one run (on Ray: every exploiter at once), into ``OUT/protocol-seeds-...``."""
    from training.exploiter_cli import main as exploiter_main

    out = out_folder(table)
    argv = ["--protocol", "heads-up", "--eval-every", "0",
            "--out", str(out / ("protocol-seeds-" + "-".join(map(str, seeds))))]  # fmt: skip
    for seed in seeds:
        argv += ["--target", bot_spec(table, seed)]
    if ray:
        argv += ["--ray", *([address] if address else [])]
    if exploiter_main(argv) != 0:
        raise RuntimeError(f"the protocol of seeds {seeds} failed")


def _lbr(table: dict[str, Any], seed: int, folder: Path) -> None:
    from agents.lbr import lbr_gain, local_best_response

    particles = table["evaluate"].get("lbr_particles", 1_000)
    for path, strategy, hands in _lbr_targets(table, folder):
        if path.is_file():
            continue
        lbr = local_best_response(bot_spec(table, seed, strategy), {}, particles, seed)
        result = lbr_gain(lbr, hands, seed)
        path.write_text(json.dumps(result, indent=2) + "\n")
        print(f"seed {seed}: LBR {result['mean']:+.1f} chips/100 against {strategy}", flush=True)


def _best_response(table: dict[str, Any], seed: int, folder: Path) -> None:
    """``decktet best-response`` against the seed's bot, with the ``[best_response]`` options
    and ``hands`` duplicate hands, into ``folder/best_response``."""
    from training.best_response import build_parser, respond_to_folder

    bot = bot_spec(table, seed, folder)
    argv = [bot, "--hands", str(table["evaluate"].get("hands", 20_000)), "--out", "unused"]
    for key, value in sorted(table["best_response"].items()):
        argv += [f"--{key.replace('_', '-')}", str(value)]
    options = {k: v for k, v in vars(build_parser().parse_args(argv)).items()
               if k not in ("bots", "ray")}  # fmt: skip
    where = folder / RESPONSE
    where.mkdir(parents=True, exist_ok=True)
    figures = respond_to_folder(bot, options, where, keep_state=False)
    print(f"seed {seed}: best response played {figures['played']:+.1f} chips/100", flush=True)


def _matches(table: dict[str, Any], seed: int, folder: Path) -> None:
    from tournaments.batched_tables import run_batched_tournament
    from tournaments.results import write_outputs
    from tournaments.spec import TournamentSpec

    evaluate = table["evaluate"]
    for opponent in opponents(table):
        where = folder / _vs(opponent)
        if (where / "results.json").is_file():
            continue
        spec = TournamentSpec(
            game="lith", agents=(bot_spec(table, seed, folder), opponent), players=2,
            units=evaluate.get("hands", 20_000), seed=evaluate.get("match_seed", 2),
            rules={}, analytics=True, lineup=(0, 1),
        )  # fmt: skip
        record = evaluate.get("record", 2_000) or None  # recorded hands: tournaments.report
        write_outputs(run_batched_tournament(spec, progress=False, record=record), where)
        print(f"seed {seed}: played {opponent}", flush=True)


def run_full_game(
    table: dict[str, Any], seeds: Sequence[int], pieces: Sequence[str], ray: bool = False,
    address: str | None = None,
) -> Path:  # fmt: skip
    """Every missing piece of ``pieces`` for every seed (kind by kind), then the table."""
    for piece in PIECES:
        if piece not in pieces:
            continue
        if piece == "best_response" and not table.get("best_response"):
            print("best_response: no [best_response] table, skipped", flush=True)
            continue
        todo = [s for s in seeds if not _done(table, s, piece)]
        print(f"{piece}: {len(todo)} of {len(seeds)} seeds to do", flush=True)
        if not todo:
            continue
        if piece == "protocol":  # one run: on Ray, every exploiter of every seed at once
            run_protocol(table, todo, ray, address)
        elif ray:
            from distributed.cluster import connect
            from distributed.files import unpack_into
            from distributed.tasks import in_scratch, map_tasks, relative_out

            connect(address)
            folders = [seed_folder(table, s) for s in todo]
            tasks = [
                (relative_out(f), run_piece, table, s, piece, relative_out(f))
                for s, f in zip(todo, folders, strict=True)
            ]

            def arrived(i: int, answer: tuple[bytes, None], folders=folders) -> None:
                unpack_into(answer[0], folders[i].parent)

            map_tasks(in_scratch, tasks, num_cpus=1, description=f"{piece} (ray)",
                      on_result=arrived)  # fmt: skip
        else:
            for seed in todo:
                run_piece(table, seed, piece, str(seed_folder(table, seed)))
    return summarize(table, seeds)


def summarize(table: dict[str, Any], seeds: Sequence[int]) -> Path:
    """``OUT/full_game.md`` and ``.json``: each seed's figures, chips/100 hands."""
    out = out_folder(table)
    out.mkdir(parents=True, exist_ok=True)
    rows: dict[int, dict[str, Any]] = {}
    for seed in seeds:
        folder = seed_folder(table, seed)
        row: dict[str, Any] = {}
        record = _read(folder / "abstraction.json")
        if record:
            row["core_minutes"] = record["curve"][-1]["cpu_seconds"] / 60
        for path, _, _ in _lbr_targets(table, folder):
            figure = _read(path)
            if figure:
                row[path.stem] = _figure(figure)
        for opponent in opponents(table):
            result = _read(folder / _vs(opponent) / "results.json")
            if result:
                bot = bot_spec(table, seed, folder)
                row[f"vs {opponent}"] = _figure(result["agents_results"][bot]["chips_per_100"])
        figure = _protocol_figure(table, seed)
        if figure:
            row["protocol"] = {**_figure(figure), "spread": figure["spread"]}
        response = _read(folder / RESPONSE / "best_response.json")
        if response:
            row["best response"] = {
                "mean": response["played"], "low": response["played_low"],
                "high": response["played_high"],
            }  # fmt: skip
            row["best response, computed"] = {
                "mean": response["computed"],
                "low": response["computed"] - response["computed_half_width"],
                "high": response["computed"] + response["computed_half_width"],
            }
        rows[seed] = row
    (out / "full_game.json").write_text(json.dumps(rows, indent=2) + "\n")
    columns = sorted({k for r in rows.values() for k in r if k != "core_minutes"}, key=_order)
    minutes = [f"{rows[s]['core_minutes']:.1f}" if "core_minutes" in rows[s] else "" for s in seeds]
    lines = [
        "| figure (chips/100 hands) | " + " | ".join(f"seed {s}" for s in seeds) + " |",
        "| --- |" + " ---: |" * len(seeds),
        "| training, core-minutes | " + " | ".join(minutes) + " |",
    ]
    for column in columns:
        cells = []
        for s in seeds:
            f = rows[s].get(column)
            cells.append(
                ""
                if f is None
                else f"{f['mean']:+.1f} [{f['low']:+.1f}, {f['high']:+.1f}]"
                + (f", spread {f['spread']:.1f}" if "spread" in f else "")
            )
        lines.append(f"| {column} | " + " | ".join(cells) + " |")
    lines += _rates_table(table, seeds)
    (out / "full_game.md").write_text("\n".join(lines) + "\n")
    return out / "full_game.md"


RATES = (
    "voluntary play", "aggression", "bluff rate", "bluff success", "fold to a bet", "showdown",
    "won at showdown", "exchange rate",
)  # fmt: skip


def _rates_table(table: dict[str, Any], seeds: Sequence[int]) -> list[str]:
    """How each seed's bot plays (its recorded decisions against every agent of ``against``,
    pooled), beside each of those agents (from the first seed's matches): markdown lines."""
    from lith_env.game import LithConfig
    from tournaments.analytics import agent_report

    against = table["evaluate"].get("against", [])
    columns: dict[str, dict[str, Any]] = {}
    others: dict[str, dict[str, Any]] = {}
    for seed in seeds:
        folder = seed_folder(table, seed)
        bot = bot_spec(table, seed, folder)
        decisions = []
        for opponent in against:
            path = folder / _vs(opponent) / "decisions.jsonl"
            if not path.is_file():
                continue
            for line in path.read_text().splitlines():
                d = json.loads(line)
                d["hand"] = f"{opponent}/{d['hand']}"  # hand ids restart in every match
                decisions.append(d)
        if not decisions:
            continue
        report = agent_report(decisions, LithConfig(num_players=2))
        (folder / "analytics.json").write_text(json.dumps(report, indent=2) + "\n")
        columns[f"seed {seed}"] = report[bot]["rates"]
        for opponent in against:
            if opponent in report and opponent not in others:
                others[opponent] = report[opponent]["rates"]
    if not columns:
        return []
    columns.update(others)  # the seeds first, then the agents they played
    names = [c if c.startswith("seed ") else f"`{c}`" for c in columns]
    lines = ["", "| rate | " + " | ".join(names) + " |", "| --- |" + " ---: |" * len(names)]
    for rate in RATES:
        cells = []
        for rates in columns.values():
            value = rates.get(rate, {}).get("rate")
            cells.append("-" if value is None else f"{value:.2f}")
        lines.append(f"| {rate} | " + " | ".join(cells) + " |")
    return lines


def _order(column: str) -> tuple[int, Any]:
    if column.startswith("best response"):
        return (0, len(column))  # played, then computed
    if column == "protocol":
        return (0, 100)
    if column == "lbr":
        return (1, 0)
    if column.startswith("lbr-"):
        return (2, int(column[4:]))
    return (3, column)


def _figure(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: entry[key] for key in ("mean", "low", "high")}


def _read(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text()) if path.is_file() else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="decktet full-game",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("config", help="the experiment's TOML")
    parser.add_argument("--seeds", default=None, help="seeds, e.g. 1-5 (default: the TOML's)")
    parser.add_argument(
        "--pieces",
        default=",".join(PIECES),
        help=f"the pieces to run, comma-separated from {', '.join(PIECES)} (default: all)",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run each kind of piece as Ray tasks, a CPU each (default: one after another)",
    )
    args = parser.parse_args(argv)
    from distributed.cluster import ClusterError, parse_address

    try:
        table = load_full_game(Path(args.config))
        seeds = parse_seeds(args.seeds) if args.seeds else table["evaluate"].get("seeds", [1])
        pieces = [p.strip() for p in args.pieces.split(",") if p.strip()]
        wrong = [p for p in pieces if p not in PIECES]
        if wrong or not pieces:
            raise ValueError(f"--pieces: choose from {', '.join(PIECES)}, got {args.pieces!r}")
        asked = args.pieces != parser.get_default("pieces")  # not the default "all"
        if asked and "best_response" in pieces and not table.get("best_response"):
            raise ValueError("--pieces: best_response needs a [best_response] table")
        address = parse_address(args.ray) if args.ray is not None else None
        path = run_full_game(table, seeds, pieces, args.ray is not None, address)
    except ClusterError as error:
        parser.error(f"--ray: {error}")
    except ValueError as error:
        parser.error(str(error))
    print(f"table: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
