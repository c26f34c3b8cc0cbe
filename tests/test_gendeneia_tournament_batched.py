"""Gendeneía tournaments on the batched engine: the per-table tournament's results and records.

Agents without randomness (two small ones here, named ``module:Name`` as a user's own agents
are) must give exactly what the per-table tournament gives, block by block, and the records of
``record="all"`` must be the per-table tournament's ``--histories`` records; the built-in
``greedy`` and ``spoiler`` break ties at random, so theirs are only seeded (reseeded per batch).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import games
from gendeneia_env.history import replay_game
from tournaments.batched_tables import BATCHED_GAMES, run_batched_tournament
from tournaments.cli import main
from tournaments.per_table import run_tournament
from tournaments.spec import TournamentSpec


class FirstLegal:
    """Always the lowest legal action id."""

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation, action_mask) -> int:
        return int(np.flatnonzero(action_mask)[0])


class Hashed:
    """A legal id picked by the bits of the observation: no randomness, but varied play."""

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation, action_mask) -> int:
        legal = np.flatnonzero(action_mask)
        bits = np.asarray(observation, dtype=np.float32).view(np.uint32).astype(np.uint64)
        return int(legal[int(bits.sum()) % len(legal)])


FIRST = f"{__name__}:FirstLegal"
HASHED = f"{__name__}:Hashed"


def spec(**options) -> TournamentSpec:
    values = {"game": "gendeneia", "agents": (FIRST, HASHED), "players": 3, "units": 12}
    return TournamentSpec(**{"seed": 5, **values, **options})


def public(result):
    return {k: v for k, v in result.items() if not k.startswith("_")}


def blocks(result):
    return [dataclasses.asdict(block) for block in result["_blocks"]]


def test_deterministic_agents_give_the_per_table_results_block_by_block():
    tournament = spec(players=2, units=6)
    per_table = run_tournament(tournament)
    batched = run_batched_tournament(tournament, tables_per_batch=4)  # two batches
    assert public(batched) == public(per_table)
    assert blocks(batched) == blocks(per_table)
    assert batched["_records"] == [] and batched["recorded"]["histories"] == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "units": 10, "duplicate": False},
        {"players": 4, "units": 8, "lineup": (1, 0, 1, 1)},
        {"rules": {"max_rounds": None, "max_reshuffles": 1, "round_lots": True}},
        {"rules": {"twist_any": (0, 11), "twist_suit": (10, 6), "presum": "subtract"}},
    ],
    ids=["2p plain", "4p lineup", "reshuffles, round lots", "twists"],
)
def test_and_so_do_other_seatings_and_rules(options):
    tournament = spec(**options)
    per_table = run_tournament(tournament)
    batched = run_batched_tournament(tournament, tables_per_batch=7)  # several batches
    assert public(batched) == public(per_table)
    assert blocks(batched) == blocks(per_table)


@pytest.mark.parametrize("players", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_every_record_is_the_per_table_history(players):
    tournament = spec(players=players, units=2 * players)
    per_table = run_tournament(dataclasses.replace(tournament, histories=True))
    batched = run_batched_tournament(tournament, tables_per_batch=players, record="all")
    assert batched["_records"] == per_table["_records"] and len(batched["_records"]) == 2 * players
    assert blocks(batched) == blocks(per_table)
    assert batched["recorded"] == {"of": 2 * players, "decisions": 0, "histories": 2 * players}
    for record, game in zip(
        batched["_records"], (g for b in batched["_blocks"] for g in b.games), strict=True
    ):
        assert replay_game(record).scores() == record["scores"] == [s for _, s in game]
        assert record["agents"] == [batched["agents"][a] for a, _ in game]


@pytest.mark.slow
def test_random_agents_are_seeded_and_a_sample_of_records_replays():
    tournament = spec(agents=("greedy", "spoiler", "random"), players=3, units=12)
    sample = run_batched_tournament(tournament, record=5)
    again = run_batched_tournament(tournament, record=5)
    assert public(sample) == public(again) and sample["_records"] == again["_records"]
    assert sample["recorded"] == {"of": 12, "decisions": 0, "histories": 5}
    for record in sample["_records"]:
        replay_game(record)  # what the batched engine played, its scores checked
    rates = [r["win_rate"]["mean"] for r in sample["agents_results"].values()]
    assert sum(rates) == pytest.approx(1.0)
    assert all("mean_score" in r for r in sample["agents_results"].values())
    with pytest.raises(ValueError, match="a number of games from 1 to 12, got 13"):
        run_batched_tournament(tournament, record=13)


def test_a_replay_that_disagrees_with_the_batched_engine_stops_the_tournament(monkeypatch):
    game = BATCHED_GAMES["gendeneia"]

    def wrong(engine):
        outcomes = game.outcomes(engine)
        scores, shares = outcomes[1]
        outcomes[1] = ([scores[0] + 1, *scores[1:]], shares)
        return outcomes

    monkeypatch.setitem(BATCHED_GAMES, "gendeneia", dataclasses.replace(game, outcomes=wrong))
    tournament = spec(players=2, units=2)
    run_batched_tournament(tournament, record=None)  # nothing replayed, nothing checked
    with pytest.raises(RuntimeError, match="block 0, rotation 1: the reference engine's replay"):
        run_batched_tournament(tournament, record="all")


def test_on_ray_the_batches_play_as_in_one_process(ray_cluster):
    from tournaments.on_ray import run_tournament_on_ray

    tournament = spec(agents=("greedy", "spoiler", "random"), players=3, units=6)
    local = run_batched_tournament(tournament, tables_per_batch=3, record=4)
    on_ray = run_tournament_on_ray(tournament, batched=True, tables_per_batch=3, record=4)
    assert public(on_ray) == public(local)
    assert on_ray["_records"] == local["_records"] and len(local["_records"]) == 4


def test_every_game_with_a_batched_engine_has_its_part_here():
    with_engine = {name for name, info in games.INFO.items() if info.batched_engine}
    assert set(BATCHED_GAMES) == with_engine and "gendeneia" in with_engine


# ----------------------------------------------------------------------------- the command line

GENDENEIA = ["--game", "gendeneia", "--agents", f"{FIRST},{HASHED}", "--players", "3"]


@pytest.mark.slow
def test_the_command_line_chooses_the_batched_engine_and_says_so_in_one_line(tmp_path, capsys):
    argv = [*GENDENEIA, "--games", "6", "--seed", "2"]
    assert main([*argv, "--out", str(tmp_path / "auto")]) == 0
    said = capsys.readouterr().out
    assert said.count("gendeneia: batched engine, all tables at once (--no-batched") == 1
    assert not (tmp_path / "auto" / "histories.jsonl").exists()  # recorded only when asked
    assert main([*argv, "--batched", "--record", "all", "--out", str(tmp_path / "asked")]) == 0
    assert "every table at once" not in capsys.readouterr().out  # asked for: nothing to say
    for one_at_a_time in (["--no-batched"], ["--histories"], ["--workers", "1"]):
        out = tmp_path / one_at_a_time[0].strip("-")
        assert main([*argv, *one_at_a_time, "--out", str(out)]) == 0
        assert "every table at once" not in capsys.readouterr().out, one_at_a_time
    results = {
        d: json.loads((tmp_path / d / "results.json").read_text())
        for d in ("auto", "asked", "no-batched", "histories", "workers")
    }
    recorded = {d: r.pop("recorded")["histories"] for d, r in results.items()}
    assert all(r == results["no-batched"] for r in results.values())  # the same games
    assert recorded == {"auto": 0, "asked": 6, "no-batched": 0, "histories": 6, "workers": 0}
    histories = [(tmp_path / d / "histories.jsonl").read_text() for d in ("asked", "histories")]
    assert histories[0] == histories[1] and histories[0].count("\n") == 6


def test_batched_with_histories_is_refused_naming_record(capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*GENDENEIA, "--games", "3", "--batched", "--histories"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    assert "--histories: the batched tournament records with --record all|N" in err


def test_a_game_without_a_batched_engine_is_refused_by_name(monkeypatch, capsys):
    plain = dataclasses.replace(games.INFO["gendeneia"], batched_engine=False)
    monkeypatch.setitem(games.INFO, "gendeneia", plain)
    with pytest.raises(SystemExit):
        main([*GENDENEIA, "--games", "3", "--batched"])
    assert "--batched: batched tournaments play Lith only, got gendeneia" in capsys.readouterr().err
    with pytest.raises(ValueError, match="batched tournaments play Lith only, got game 'gend"):
        run_batched_tournament(spec())
    assert main([*GENDENEIA, "--games", "3"]) == 0  # chosen: one table at a time, unsaid
    assert "every table at once" not in capsys.readouterr().out
