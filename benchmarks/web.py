"""The browser (``report``, ``web``): report.html of a recorded tournament opened and
filtered in headless Chromium, and the browser game's server under many people at once."""

from __future__ import annotations

import contextlib
import json
import statistics
import time
from typing import Any

import numpy as np
from rich.console import Console

from benchmarks.common import new_table

__all__ = ["REPORT_FILTERS", "bench_report", "bench_web", "print_report", "print_web"]


# The filters a user changes, applied one after another (each timed: its median is reported).
REPORT_FILTERS = (
    ("filter-agent", "1"),
    ("filter-bluff", True),
    ("filter-showdown", "yes"),
    ("filter-pot-min", "10"),
    ("filter-exchanged", "yes"),
)

_FILTER_SCRIPT = """
const [id, value] = arguments;
const element = document.getElementById(id);
if (element.type === 'checkbox') element.checked = value; else element.value = value;
const start = performance.now();
const matches = window.reportFilter();
return [performance.now() - start, matches];
"""


def _report_folder(hands: int, out) -> tuple[Any, float]:
    """A recorded heads-up tournament of ``hands`` hands and its report.html; the seconds
    ``tournaments.report.cli --html`` took."""
    from tournaments import cli as tournament
    from tournaments.report import write_report

    folder = out / f"report-{hands}"
    tournament.main(
        [
            *("--game", "lith", "--players", "2", "--agents", "tag,bluffer", "--seed", "1"),
            *("--hands", str(hands), "--batched", "--record", "all", "--out", str(folder)),
        ]
    )
    start = time.perf_counter()
    write_report(folder, progress=True)
    return folder / "report.html", time.perf_counter() - start


def bench_report(hands: int, repeat: int) -> dict:
    """Opening and filtering report.html of ``hands`` and of 1,000 hands in headless Chromium
    (medians over ``repeat`` fresh loads)."""
    import tempfile
    from pathlib import Path

    from tournaments.report.browser import chromium, open_report

    result: dict[str, Any] = {"hands": hands, "pages": {}}
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp, chromium() as driver:
        for n in (1_000, hands):
            page, build_seconds = _report_folder(n, Path(tmp))
            opens, parses, filters = [], [], []
            for _ in range(repeat):
                timing = open_report(driver, page, timeout=120)
                opens.append(timing["ready_ms"])
                parses.append(timing["parse_ms"])
                for element, value in REPORT_FILTERS:
                    filters.append(driver.execute_script(_FILTER_SCRIPT, element, value)[0])
            result["pages"][n] = {
                "bytes": page.stat().st_size,
                "bytes a hand": page.stat().st_size / n,
                "build seconds": build_seconds,
                "open ms": statistics.median(opens),
                "parse ms": statistics.median(parses),
                "filter ms": statistics.median(filters),
                "filter ms (slowest)": max(filters),
            }
    small, large = result["pages"][1_000], result["pages"][hands]
    result["open ratio"] = large["open ms"] / small["open ms"]
    result["filter ratio"] = large["filter ms"] / small["filter ms"] if small["filter ms"] else None
    return result


def print_report(result: dict, console: Console) -> None:
    table = new_table(
        "report.html in headless Chromium (medians over fresh loads)",
        (
            *("hands", "page MB", "bytes a hand", "built in s", "open ms", "parse ms"),
            "filter ms (median / slowest)",
        ),
        left=(),
    )
    for n, figures in result["pages"].items():
        table.add_row(
            f"{int(n):,}",
            f"{figures['bytes'] / 1e6:.1f}",
            f"{figures['bytes a hand']:.0f}",
            f"{figures['build seconds']:.1f}",
            f"{figures['open ms']:.0f}",
            f"{figures['parse ms']:.0f}",
            f"{figures['filter ms']:.1f} / {figures['filter ms (slowest)']:.1f}",
        )
    console.print(table)
    console.print(
        f"  {result['hands']:,} hands against 1,000: opening {result['open ratio']:.1f}x"
        + (f", filtering {result['filter ratio']:.1f}x" if result["filter ratio"] else "")
    )


def bench_web(sessions: int, moves: int, bots: str = "tag") -> dict:
    """The browser game's server under load: ``sessions`` people at once on the loopback
    address, each making up to ``moves`` moves in heads-up Lith against ``bots``; the round
    trip of a move (the request, the bots' replies, the answer) at p50/p95. Bounded: every
    session stops after its moves or 120 s."""
    import tempfile
    import threading
    import urllib.error
    import urllib.request
    from pathlib import Path

    def post(url: str, body: dict) -> dict:
        request = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def person(base: str, k: int) -> None:
        state = post(f"{base}/api/tables", {"game": "lith", "players": 2, "bots": bots, "seed": k})
        deadline = time.perf_counter() + 120
        for move in range(moves):
            if state["over"] or time.perf_counter() > deadline:
                break
            body = {"choice": move % len(state["choices"]), "version": state["version"]}
            start = time.perf_counter()
            try:
                state = post(f"{base}/api/tables/{state['id']}/act", body)
            except urllib.error.URLError as error:
                with lock:
                    errors.append(str(error))
                return
            with lock:
                times.append(time.perf_counter() - start)

    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp, _web_server(Path(tmp)) as base:
        threads = [threading.Thread(target=person, args=(base, k)) for k in range(sessions)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=150)
        wall = time.perf_counter() - start
    ms = np.array(times) * 1000
    return {
        "sessions": sessions,
        "bots": bots,
        "moves": len(times),
        "errors": errors,
        "seconds": wall,
        "p50 ms": float(np.percentile(ms, 50)) if len(ms) else None,
        "p95 ms": float(np.percentile(ms, 95)) if len(ms) else None,
        "max ms": float(ms.max()) if len(ms) else None,
        "moves a second": len(times) / wall,
    }


@contextlib.contextmanager
def _web_server(history_dir: Any) -> Any:
    """``decktet web`` on a free loopback port in a process of its own (the load's
    threads would share the server's interpreter lock in this one); its base URL."""
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [sys.executable, "-m", "webplay", "--port", str(port), "--history-dir", str(history_dir)]
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.perf_counter() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/api/options", timeout=5).close()
                break
            except OSError:
                if time.perf_counter() > deadline or server.poll() is not None:
                    error = server.stderr.read().decode()
                    raise RuntimeError(f"decktet web did not start: {error}") from None
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def print_web(result: dict, console: Console) -> None:
    table = new_table(
        "The browser game's server on loopback: a move's round trip",
        ("sessions", "bots", "moves", "p50 ms", "p95 ms", "max ms", "moves/s", "errors"),
        left=(),
    )
    table.add_row(
        str(result["sessions"]),
        result["bots"],
        f"{result['moves']:,}",
        f"{result['p50 ms']:.1f}",
        f"{result['p95 ms']:.1f}",
        f"{result['max ms']:.1f}",
        f"{result['moves a second']:.0f}",
        str(len(result["errors"])),
    )
    console.print(table)
    console.print("  goal: p95 under 50 ms with heuristic bots, 20 sessions at once")
