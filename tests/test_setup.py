"""The set-up pins every package it installs, so a run reproduces at its own commit."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"constraints.txt: {line!r} is not a pin (name==version)"
            pins[canonicalize_name(name)] = version
    return pins


def _installed_closure(root: str, extras: tuple[str, ...]) -> set[str]:
    """Every distribution that installing ``root[extras]`` brings in, from installed metadata."""
    seen: set[str] = set()
    todo = [(root, extras)]
    while todo:
        name, wanted = todo.pop()
        requires = metadata.requires(name) or []
        for text in requires:
            requirement = Requirement(text)
            marker = requirement.marker
            environments = [{"extra": e} for e in wanted] or [{"extra": ""}]
            if marker is not None and not any(marker.evaluate(env) for env in environments):
                continue
            key = canonicalize_name(requirement.name)
            if key not in seen:
                seen.add(key)
                todo.append((requirement.name, tuple(requirement.extras)))
    return seen


def test_constraints_pin_every_package_the_setup_installs():
    pins = _pins()
    closure = _installed_closure("decktet-rl", ("dev",))
    assert "scipy" in closure and "torch" in closure  # the walk reaches real dependencies
    missing = sorted(closure - set(pins))
    assert not missing, f"constraints.txt lacks pins for {missing}"


def test_the_pins_are_the_installed_versions():
    for name, version in _pins().items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # pinned for an optional set-up (e.g. benchmarks) not installed here
        assert re.sub(r"\+.*", "", installed) == version, f"{name}: {installed} != pin {version}"


def test_torch_is_pinned_to_the_cpu_build_on_disk():
    assert _pins()["torch"] == "2.13.0"


@pytest.mark.slow
def test_the_wheel_holds_the_pages_assets_and_builds_without_warnings(tmp_path):
    """The report's and the browser game's files install with the package, and setuptools
    finds nothing undeclared (each such warning is some twenty lines of a first install)."""
    import subprocess
    import sys
    import zipfile

    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "absent from the `packages` configuration" not in done.stdout + done.stderr
    (wheel,) = tmp_path.glob("decktet_rl-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in (ROOT / "tournaments" / "report" / "assets", ROOT / "webplay" / "assets"):
        for path in folder.iterdir():
            assert path.relative_to(ROOT).as_posix() in names, path
