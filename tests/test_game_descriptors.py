"""One description per game (``games.GameInfo``): the packages above the engines read it and
never compare a game's name, so a third game touches one package; and each description says
what the game's own engine, env and results say."""

from __future__ import annotations

import ast
import dataclasses
import tomllib
from pathlib import Path

import gymnasium
import pytest

import gendeneia_env  # noqa: F401  (registers Gendeneia-v0)
import lith_env  # noqa: F401  (registers Lith-v0)
from games import GAMES, INFO, game_config, game_info, games_with
from tablegame.registry import agent_catalogue

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# The suite's code (not build/ copies of it); a game's name may be compared only in the
# descriptions themselves and the game packages.
PACKAGES = {name.split(".")[0] for name in PYPROJECT["tool"]["setuptools"]["packages"]}
ALLOWED = {"games", "lith_env", "gendeneia_env"}


def _names_compared(tree: ast.AST) -> list[int]:
    """Lines where a game's name is compared (``==``, ``!=``, ``in``, ``not in``)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for operand in [node.left, *node.comparators]:
            parts = (
                operand.elts if isinstance(operand, ast.Tuple | ast.List | ast.Set) else [operand]
            )
            if any(isinstance(p, ast.Constant) and p.value in GAMES for p in parts):
                found.append(node.lineno)
                break
    return found


@pytest.mark.slow
def test_no_package_above_the_engines_compares_a_game_name():
    found = []
    paths = [ROOT / "train.py"]
    for top in sorted((PACKAGES | {"benchmarks"}) - ALLOWED):
        paths += sorted((ROOT / top).rglob("*.py"))
    for path in paths:
        relative = path.relative_to(ROOT)
        for line in _names_compared(ast.parse(path.read_text())):
            found.append(f"{relative}:{line}")
    assert not found, f"read games.game_info(...) instead of comparing names: {found}"


def test_the_check_catches_every_form_of_comparison():
    sources = [
        'if game == "lith": pass',
        'if "gendeneia" != spec.game: pass',
        'x = 1 if config.game in ("lith",) else 2',
        'ok = game not in ["gendeneia"]',
    ]
    for source in sources:
        assert _names_compared(ast.parse(source)) == [1], source
    assert _names_compared(ast.parse('make_agent("tag", "lith")')) == []


@pytest.mark.parametrize("name", GAMES)
def test_each_description_matches_its_game(name):
    info = game_info(name)
    assert info.name == name
    config = game_config(name, info.min_players, {})
    assert isinstance(config, info.config_class)
    for players in (info.min_players, info.max_players):
        env = gymnasium.make(info.env_id, num_players=players)
        env.reset(seed=1)
        env.close()
    with pytest.raises(ValueError):
        game_config(name, info.max_players + 1, {})
    heuristics = agent_catalogue(name, parameters=False)
    for agent in info.heuristics:
        assert agent in heuristics
    assert info.baseline(4) == (0.0 if info.pays_chips else 0.25)
    assert info.units_flag == f"--{info.unit}s"


def test_a_result_prints_as_the_game_counts_it():
    figure = {"mean": 0.4125, "low": -0.05, "high": 0.875}
    assert INFO["lith"].interval(figure) == "+0.4 [-0.1, +0.9]"
    assert INFO["gendeneia"].interval(figure) == "0.412 [-0.050, 0.875]"


def test_a_seat_result_from_records_and_rankings():
    lith, gendeneia = INFO["lith"], INFO["gendeneia"]
    assert lith.seat_figures({"net": [3, -3]}, 0) == {"chips_per_100": 300.0}
    record = {"winners": [0, 2], "scores": [4, 9, 4]}
    assert gendeneia.seat_figures(record, 2) == {"win_rate": 0.5, "mean_score": 4.0}
    assert gendeneia.seat_figures(record, 1)["win_rate"] == 0.0
    assert lith.place_result([-5.0, 5.0], 0) == 5.0
    assert gendeneia.place_result([3.0, 1.0, 1.0], 2) == 0.5
    assert gendeneia.place_result([3.0, 1.0, 1.0], 0) == 0.0


def test_features_name_the_games_that_have_them():
    assert games_with("batched_engine") == "lith or gendeneia"
    assert games_with("shaped_rewards", titles=True) == "Gendeneía"
    with pytest.raises(ValueError, match="game: must be one of lith, gendeneia, got 'poker'"):
        game_info("poker")
    assert all(dataclasses.is_dataclass(info) for info in INFO.values())
