"""The layout of docs/architecture.md holds: the layer contract, no import circle between
modules, no private names across modules, names that say what things are, the agents' entry
points, and every module named in the document."""

from __future__ import annotations

import ast
import collections
import itertools
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
# Module names several packages share on purpose: each package's command (cli; run for the
# documented python -m experiments.run and benchmarks.run), its Ray tasks, and
# the parts every game has.
SHARED_NAMES = {"__init__", "__main__", "cli", "on_ray", "play", "run"}
GAME_PARTS = {
    "aec",
    "batched",
    "cards",
    "encoding",
    "env",
    "game",
    "history",
    "table",
    "vector",
    "words",
    "worlds",
}


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


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _is_main_block(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def _running_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run when the module is imported, at any depth (in
    functions too). Left out: ``if TYPE_CHECKING:`` bodies, which never run, and
    ``if __name__ == "__main__":`` bodies, which run only in the module named ``__main__``
    (``python -m``), a module object of its own that nothing imports and that no import
    waits on."""
    found = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and (_is_type_checking(node.test) or _is_main_block(node.test)):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _import_graph() -> dict[str, dict[str, int]]:
    """Each module of the suite (its packages, benchmarks and train.py; not the tests): the
    suite modules its import statements name, each with the line of its first import.

    ``from a.b import x`` names the module ``a.b.x`` if there is one, else ``a.b``. Importing
    ``a.b`` also runs ``a/__init__.py``, but that is no arrow here: a package is in
    ``sys.modules`` before its modules run, so a package whose ``__init__`` imports its own
    modules closes no circle through them."""
    modules = {
        _module_name(path): path for path in _sources() if path.parts[len(ROOT.parts)] != "tests"
    }

    def module_of(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        arrows: dict[str, int] = {}
        for node in _running_imports(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                named = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                named = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in filter(None, map(module_of, named)):
                if target != name:
                    arrows.setdefault(target, node.lineno)
        graph[name] = arrows
    return graph


def _circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One circle of each strongly connected group of modules (Tarjan), as the modules in
    import order with the first repeated at the end."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = {stack.pop()}
            while module not in group:
                group.add(stack.pop())
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    circles = []
    for group in groups:
        start = min(group)
        paths = {start: [start]}
        queue = collections.deque([start])
        while queue:  # the shortest way round from start, inside the group
            module = queue.popleft()
            for target in sorted(graph[module]):
                if target == start:
                    circles.append([*paths[module], start])
                    queue.clear()
                    break
                if target in group and target not in paths:
                    paths[target] = [*paths[module], target]
                    queue.append(target)
    return sorted(circles)


def test_no_import_circle_between_modules():
    """The arrows between modules run one way, imports inside functions included: a circle
    closed by an import in a function still ties the two modules into one."""
    graph = _import_graph()
    assert "training.exploiter" in graph and graph["lith_solver.cli"]  # the graph was read
    circles = [
        " -> ".join(f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(circle))
        + f" -> {circle[-1]}"
        for circle in _circles(graph)
    ]
    assert not circles, "import circles:\n" + "\n".join(circles)


@pytest.mark.slow
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
    shared = {
        name: modules
        for name, modules in by_name.items()
        if len(modules) > 1
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


def test_the_architecture_page_names_every_module_and_no_other():
    """docs/architecture.md lists each module by its path, so a module added, moved or removed
    is one the page must follow."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    modules = [
        path.relative_to(ROOT).as_posix()
        for path in _sources()
        if path.parts[len(ROOT.parts)] != "tests"
        and path.stem not in ("__init__", "__main__")
        and path.parts[len(ROOT.parts)] != "games"  # a package of one module: games/
    ]
    missing = [m for m in modules if m not in page]
    assert not missing, f"docs/architecture.md does not name {missing}"
    named = set(re.findall(r"\b[a-z_]+(?:/[a-z_]+)*/[a-z_]+\.py\b", page))
    gone = sorted(n for n in named if not (ROOT / n).is_file())
    assert not gone, f"docs/architecture.md names modules that are not there: {gone}"
