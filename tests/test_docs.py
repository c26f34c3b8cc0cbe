"""Every example in the README and docs/ runs as written.

Each ```python block runs alone in a fresh interpreter (in an empty folder, under a minute).
Each ```sh block runs command by command in one fresh folder: a command listed in ``SMALL``
runs for real with the small sizes given there; any other runs with ``--help`` appended, so its
program and every flag before it are still checked (argparse converts each value as it reads it).
``make`` and ``pip`` lines are the set-up, which CI runs itself.

The suite's own commands (``decktet ...``, ``python -m MODULE ...``) run in this process, as
``MODULE.main(ARGS)`` in the block's folder: a fresh interpreter would import torch and compile
the solvers' kernels again for each of some 130 commands. A small command with ``--ray`` runs on
the tests' one local Ray (the ``ray_cluster`` fixture); in a process of its own each would start
a Ray of its own, some fifteen seconds apiece. Other programs (``ray start``, ``python
SCRIPT``, ``python -c``) run in a process of their own. ``tests/test_command.py`` runs the
installed ``decktet`` itself.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# Seconds a block or command may take: a guard against an example that runs at full size, with
# room for the slower runs of two test workers sharing the cores.
TIMEOUT = 120

# Commands run for real, with the substitutions that make them small: a command is matched by
# the first listed prefix it starts with (after "decktet" or "python"), longest first.
SMALL: dict[str, list[tuple[str, str]]] = {
    "hands": [],
    "tournament": [
        ("--hands 20000", "--hands 40"),
        ("--hands 4000", "--hands 40"),
        ("--hands 2000", "--hands 40"),
        ("--games 600", "--games 6"),
        ("--games 300", "--games 6"),
        ("--hands 1000000", "--hands 40"),
        ("--hands 200000", "--hands 40"),
        ("--record 20000", "--record 10"),
        ("--record 2000", "--record 10"),
        ("--ray auto", "--ray"),  # a local Ray: the examples' cluster is not here
    ],
    # the search takes a third of a second a move: ten hands, and a seven-card deck to measure
    "tournament --game lith --players 2 --agents ismcts": [("--hands 2000", "--hands 10")],
    "tournament --game gendeneia --players 3 --agents ismcts": [("--games 300", "--games 3")],
    "exploitability ismcts": [("cards=0,1,2,3,4,5,6,7,8", "cards=0,1,2,3,4,5,6")],
    "report": [],
    "aivat": [("--hands 10000", "--hands 20")],
    "lbr": [("--hands 20000", "--hands 4"), ("--hands 2000", "--hands 4")],
    "exploitability": [],
    "abstract": [
        # two rounds of 20 cards run long (docs/equilibrium_methods.md): 8 cards, 4 iterations
        (
            "cards=0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38 --buckets 1140",
            "cards=0,2,4,6,8,10,12,14 --buckets 56",
        ),
        (
            "--iterations 540000 --traversals 100 --check-every 135000",
            "--iterations 4 --traversals 2 --check-every 2",
        ),
        # the full game: 10 buckets, 4 iterations
        (
            "--buckets 50 --iterations 16000 --traversals 100",
            "--buckets 10 --iterations 4 --traversals 2",
        ),
        ("--check-every 4000", "--check-every 2"),
        ("--iterations 10000 --check-every 2000", "--iterations 20 --check-every 10"),
        ("--iterations 10000", "--iterations 20 --check-every 10"),
    ],
    "solve": [
        ("--target 0.0001", "--iterations 5 --check-every 5"),
        # twenty cards take half a minute to build: twelve
        (
            "cards=0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38 ",
            "cards=0,2,4,6,8,10,12,14,16,18,20,22 ",
        ),
        # the checkpoint example: the smallest three-round game, stopped and resumed
        ("cards=0,2,4,6,8,10,12,14,16 ", "cards=0,5,9,14,20,26,31,38 --rule max_raises=0 "),
        ("--iterations 3000 --check-every 200", "--iterations 4 --check-every 2"),
        ("--iterations 6000 --check-every 200", "--iterations 8 --check-every 2"),
        ("--ray auto", "--ray"),
    ],
    "exploit": [
        ("--timesteps 700000", "--timesteps 256 --n-envs 4 --eval-every 0 --final-units 40"),
        # the Gendeneía protocol's budget, as the results page runs it
        (
            "--timesteps 1000000 --eval-every 100000 --final-units 1500",
            "--timesteps 256 --n-envs 4 --eval-every 0 --final-units 60",
        ),
        ("--ray auto", "--ray"),
        # the protocol's own budget is fixed (tests/test_exploiter.py runs a tiny protocol)
        (
            "--protocol heads-up",
            "--seeds 1-2 --timesteps 256 --n-envs 4 --eval-every 0 --final-units 40",
        ),
    ],
    "train --game": [("--timesteps 200000", "--timesteps 256 --n-steps 128 --eval-every 0")],
    "train --resume": [("--timesteps 400000", "--timesteps 2048")],
}


# What a block needs in its folder before it runs, made by the real programs: (page, a line of
# the block) -> commands, each with the answers typed at its prompts.
SETUP: dict[tuple[str, str], list[tuple[list[str], str]]] = {
    ("docs/tournaments.md", "decktet report results/lith"): [
        (
            [
                "-m",
                "tournaments",
                "--agents",
                "tag,bluffer",
                "--hands",
                "40",
                "--out",
                "results/lith",
            ],
            "",
        ),
    ],
    ("docs/play.md", "decktet report runs/web/lith-ID --html"): [
        (
            [
                "-c",
                "from pathlib import Path\n"
                "from webplay.tables import new_table\n"
                "folder = Path('runs/web/lith-ID')\n"
                "t = new_table('lith', 2, bots='caller', seed=1, history=folder)\n"
                "s = t.state()\n"
                "while not s['finished']:\n"
                "    s = t.act(1, None, s['version'])\n",
            ],
            "",
        ),
    ],
    ("docs/play.md", "from lith_env.history import load_records, replay_hand"): [
        (
            [
                "-m",
                "lith_env.play",
                "--seed",
                "1",
                "--hands",
                "3",
                "--history",
                "runs/play/lith-20261129-170000.jsonl",
            ],
            "1\n" * 200,
        ),
        (
            [
                "-m",
                "gendeneia_env.play",
                "--seed",
                "1",
                "--rounds",
                "2",
                "--history",
                "runs/play/gendeneia-20261129-170000.json",
            ],
            "1\n" * 400,
        ),
    ],
}


def _blocks(language: str) -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        text = page.read_text()
        for match in re.finditer(rf"^```{language}\n(.*?)^```", text, re.S | re.M):
            line = text[: match.start()].count("\n") + 1
            found.append((f"{page.relative_to(ROOT)}:{line}", match.group(1)))
    return found


# Real runs that take a fraction of a second: every other command run for real trains, solves
# or plays for seconds, and marks its block slow (``make test-fast`` leaves those out).
QUICK_PROGRAMS = ("hands",)


def _runs_long(language: str, block: str) -> bool:
    """Whether a block trains a network (python) or starts a program that is not one of the
    quick ones (sh): the first command of a worker to import torch or compile a kernel takes
    seconds, even for --help."""
    if language == "python":
        return ".learn(" in block
    return any(not _arguments(command).startswith(QUICK_PROGRAMS) for command in _commands(block))


def _params(language: str) -> list:
    return [
        pytest.param(*b, id=b[0], marks=[pytest.mark.slow] if _runs_long(language, b[1]) else [])
        for b in _blocks(language)
    ]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)  # train.py and the packages, from any folder
    env["MPLBACKEND"] = "Agg"
    return env


def _commands(block: str) -> list[str]:
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        line = line.split("  #", 1)[0].strip()
        if line and not line.startswith(("#", "make ", "pip ", "export ")):
            commands.append(line)
    return commands


def _variables(command: str) -> tuple[dict[str, str], list[str]]:
    """A command's ``VAR=value`` prefixes, and its words after them."""
    words, variables = shlex.split(command), {}
    while re.fullmatch(r"[A-Z_]+=\S*", words[0]):
        name, value = words.pop(0).split("=", 1)
        variables[name] = value
    return variables, words


def _program(command: str) -> list[str]:
    words = _variables(command)[1]
    if words[0] in ("ray", ".venv/bin/ray"):  # Ray's own command line, from the set-up
        return [str(Path(sys.executable).parent / "ray"), *words[1:]]
    if words[0] in ("decktet", ".venv/bin/decktet"):  # the suite's command, as its module
        return [sys.executable, "-m", "decktet_rl", *words[1:]]
    assert words[0] in ("python", ".venv/bin/python"), f"not a python command: {command}"
    if words[1] == "train.py":
        words[1] = str(ROOT / "train.py")
    return [sys.executable, *words[1:]]


def _arguments(command: str) -> str:
    """A command without its ``VAR=value`` prefixes and its program (``decktet``, ``python``)."""
    return re.sub(r"^(?:[A-Z_]+=\S*\s+)+", "", command).split(" ", 1)[1]


def _small(command: str) -> str | None:
    command = re.sub(r"^(?:[A-Z_]+=\S*\s+)+", "", command)
    rest = _arguments(command)
    for prefix in sorted(SMALL, key=len, reverse=True):
        # a whole word: "exploitability" is no prefix of "exploitability-curve"
        if re.match(re.escape(prefix) + r"(?![\w-])", rest):
            for old, new in SMALL[prefix]:
                # a whole value only: "--hands 20000" is no part of "--hands 200000"
                end = "" if old.endswith(" ") else r"(?!\S)"
                command = re.sub(re.escape(old) + end, lambda _, new=new: new, command)
            return command
    return None


# Files a block needs in its folder that the page shows as a python block: (page, a line of the
# block) -> (file name, a line of the python block that is the file).
FILES: dict[tuple[str, str], tuple[str, str]] = {
    ("docs/tournaments.md", "--agents mybots:Stubborn"): ("mybots.py", "class Stubborn:"),
}


def _set_up(where: str, block: str, folder: Path) -> None:
    """Write the ``FILES`` of a block and run its ``SETUP`` commands, in its folder."""
    page = where.rsplit(":", 1)[0]
    for (file_page, line), (name, file_line) in FILES.items():
        if page == file_page and line in block:
            (code,) = [c for w, c in _blocks("python") if w.startswith(page) and file_line in c]
            (folder / name).write_text(code)
    for (setup_page, line), commands in SETUP.items():
        if page == setup_page and line in block:
            for argv, answers in commands:
                subprocess.run(
                    [sys.executable, *argv],
                    cwd=folder,
                    env=_environment(),
                    input=answers,
                    capture_output=True,
                    text=True,
                    timeout=TIMEOUT,
                    check=True,
                )


@pytest.mark.parametrize("where,code", _params("python"))
def test_python_block_runs(where, code, tmp_path):
    _set_up(where, code, tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, f"{where}:\n{done.stderr[-3000:]}"


def _in_process(argv: list[str]) -> bool:
    """Whether a command is one of the suite's own, run here (``python -m MODULE ARGS``)."""
    return argv[0] == sys.executable and argv[1] == "-m"


@contextlib.contextmanager
def _deadline(seconds: int, command: str):
    """Stop a command run in this process that takes longer than ``seconds``, as the
    subprocesses' ``timeout`` does (an example left at full size would run for hours)."""

    def stop(*_):
        raise TimeoutError(f"{command} ran over {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _run_here(
    command: str, argv: list[str], folder: Path, on_ray: bool, monkeypatch, capsys
) -> tuple:
    """Run ``python -m MODULE ARGS`` as ``MODULE.main(ARGS)`` (a package's: its ``cli``'s) in
    ``folder``, with the command's ``VAR=value`` prefixes set; its exit status and output.
    ``on_ray``: no deadline, as Ray's workers start slowly on a busy machine."""
    capsys.readouterr()
    with monkeypatch.context() as patch:  # the folder and variables, for this command only
        for name, value in _variables(command)[0].items():
            patch.setenv(name, value)
        patch.setenv("MPLBACKEND", "Agg")
        patch.chdir(folder)
        patch.syspath_prepend(str(folder))  # as python -m would: the folder's own modules
        module = importlib.import_module(argv[2])
        if not hasattr(module, "main"):  # a package run as python -m PACKAGE: its cli module
            module = importlib.import_module(f"{argv[2]}.cli")
        try:
            with contextlib.nullcontext() if on_ray else _deadline(TIMEOUT, command):
                code = module.main(argv[3:])
        except SystemExit as stop:
            code = stop.code
    out, err = capsys.readouterr()
    return code or 0, out, err


@pytest.mark.parametrize("where,block", _params("sh"))
def test_sh_block_runs(where, block, tmp_path, request, monkeypatch, capsys):
    _set_up(where, block, tmp_path)
    for command in _commands(block):
        small = _small(command)
        argv = _program(small) if small else [*_program(command), "--help"]
        on_ray = bool(small) and "--ray" in argv
        if on_ray:
            request.getfixturevalue("ray_cluster")  # --ray without an address: the Ray here
        if _in_process(argv):
            code, out, err = _run_here(
                small or command, argv, tmp_path, on_ray, monkeypatch, capsys
            )
        else:
            done = subprocess.run(
                argv,
                cwd=tmp_path,
                env=_environment(),
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
            )
            code, out, err = done.returncode, done.stdout, done.stderr
        assert code == 0, f"{where}: {' '.join(argv[1:])}\n{err[-3000:]}"
        if not small:
            assert "usage:" in out.lower(), f"{where}: {command} --help printed no usage"


def test_every_page_with_examples_is_read():
    assert len(_blocks("python")) >= 10 and len(_blocks("sh")) >= 10
