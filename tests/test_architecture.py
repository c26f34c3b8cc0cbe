"""The layout of docs/architecture.md holds: the layer contract, no private names across
modules, names that say what things are, the agents' entry points, and the commands that
moved still naming their new place."""

from __future__ import annotations

import ast
import collections
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from distributed.cluster import SUITE_MODULES
from tablegame.registry import ENTRY_POINT_GROUP

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PACKAGES = sorted({name.split(".")[0] for name in PYPROJECT["tool"]["setuptools"]["packages"]})
# The commands that moved, and where to.
MOVED = {
    "agents.tournament": "tournaments",
    "agents.analyze": "tournaments.report",
    "agents.exploiter": "training.exploiter",
    "agents.exploitability": "lith_solver exploitability",
    "agents.psro": "training.psro",
    "lith_env.solve": "lith_solver solve",
}
# Module names several packages share on purpose: each package's command (cli; run for the
# documented python -m experiments.run and benchmarks.run), its Ray tasks, and
# the parts every game has.
SHARED_NAMES = {"__init__", "__main__", "cli", "on_ray", "play", "run"}
GAME_PARTS = {"aec", "cards", "encoding", "env", "game", "history", "table", "worlds"}


def _sources() -> list[Path]:
    found = [ROOT / "train.py"]
    for top in [*PACKAGES, "benchmarks", "tests"]:
        found += sorted((ROOT / top).rglob("*.py"))
    return found


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_layer_contract_holds():
    done = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-4000:]
    assert "Contracts: 4 kept, 0 broken." in done.stdout


def test_no_module_uses_another_modules_private_names():
    suite = {*PACKAGES, "benchmarks", "train", "tests"}
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text())
        imported = {}  # local name -> a suite module or a name imported from one
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.split(".")[0] not in suite:
                    continue
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.name}:{node.lineno} imports {alias.name}")
                    imported[alias.asname or alias.name] = node.module
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in suite:
                        imported[alias.asname or alias.name.split(".")[0]] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name)
                and node.value.id in imported
            ):
                found.append(f"{path.name}:{node.lineno} uses {node.value.id}.{node.attr}")
    assert not found, found


def test_no_two_modules_share_a_name_for_different_jobs():
    by_name = collections.defaultdict(list)
    for path in _sources():
        if path.parts[len(ROOT.parts)] != "tests":
            by_name[path.stem].append(_module_name(path))
    signposts = set(MOVED)
    shared = {
        name: modules
        for name, modules in by_name.items()
        if len([m for m in modules if m not in signposts]) > 1
        and name not in SHARED_NAMES
        and not (
            name in GAME_PARTS
            and {m.split(".")[0] for m in modules} <= {"lith_env", "gendeneia_env"}
        )
    }
    assert not shared, shared


def test_the_suites_modules_go_to_ray_workers():
    """Every package the suite installs is shipped to a Ray worker, and train.py with them."""
    assert sorted(SUITE_MODULES) == sorted([*PACKAGES, "train"])


def test_every_module_that_registers_agents_is_an_entry_point():
    registering = sorted(
        _module_name(path)
        for path in (ROOT / "agents").glob("*.py")
        if re.search(r"^\s*@?register\(", path.read_text(), re.M)  # a decorator or a call
    )
    declared = sorted(entry.value for entry in metadata.entry_points(group=ENTRY_POINT_GROUP))
    assert registering and declared == registering
    assert PYPROJECT["project"]["entry-points"][ENTRY_POINT_GROUP]  # declared by the project


@pytest.mark.parametrize(("old", "new"), MOVED.items())
def test_a_command_that_moved_names_its_new_place(old, new):
    done = subprocess.run(
        [sys.executable, "-m", old, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert f"python -m {old} has moved: run python -m {new}" in done.stderr
    assert done.stdout == ""
