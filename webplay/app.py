"""The browser game's server: a Starlette app of plain JSON calls and one page.

    GET  /                          the page (assets/index.html, play.js, play.css; the cards
                                    are the report's own drawing, cards.js and cards.css)
    GET  /api/options               games, seat counts, default bots (by seat count), agent
                                    names, rules, cards
    POST /api/tables                {game, players, seat?, bots?, rules?, seed?} -> a new table
    GET  /api/tables/{id}           the table as the person's seat sees it
    POST /api/tables/{id}/act       {choice, amount?, version} -> the table after the bots
    DELETE /api/tables/{id}         leave: the table is dropped, its records stay on disk

Each table is one person's game, found by an unguessable id (``secrets.token_urlsafe``), and
changed by one request at a time. Every request is checked at the door: malformed JSON, a body
that is not an object, an unknown key, a bad value, an unknown or dropped table, an action that
is not legal now, or a request made against an older state of the table (``version``, so a
replayed or doubled request does nothing) gets a 4xx with ``{"error": message}``, and the table
stays as it was. The page is sent only what the seat may see (``webplay.tables``).
"""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from games import GAMES, INFO, rule_names
from tablegame.registry import agent_names
from webplay.tables import (
    NotNowError,
    StaleError,
    WebTable,
    default_bots,
    new_table,
)

__all__ = ["MAX_BODY", "MAX_TABLES", "TableStore", "make_app", "serving"]

MAX_BODY = 16_384  # bytes of a request body
MAX_TABLES = 500  # tables kept at once; the longest idle goes first
IDLE_SECONDS = 3600.0
CREATE_KEYS = {"game", "players", "seat", "bots", "rules", "seed"}
ACT_KEYS = {"choice", "amount", "version"}
# file name -> (package, content type): the page's own assets and the report's cards
ASSETS = {
    "index.html": ("webplay", "text/html; charset=utf-8"),
    "play.js": ("webplay", "text/javascript; charset=utf-8"),
    "play.css": ("webplay", "text/css; charset=utf-8"),
    "cards.js": ("tournaments.report", "text/javascript; charset=utf-8"),
    "cards.css": ("tournaments.report", "text/css; charset=utf-8"),
}


class RequestError(Exception):
    """A request the server refuses: its HTTP status and a message naming what is wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class TableStore:
    """The live tables by id, each with its last use; the longest idle is dropped past
    ``MAX_TABLES`` or ``IDLE_SECONDS``."""

    def __init__(self, history_dir: Path) -> None:
        self.history_dir = history_dir
        self.tables: dict[str, WebTable] = {}
        self.used: dict[str, float] = {}
        self.lock = threading.Lock()

    def create(self, body: dict) -> tuple[str, WebTable]:
        table_id = secrets.token_urlsafe(16)
        game = body.get("game")
        history = self.history_dir / f"{game}-{table_id}"  # the session's report-ready folder
        table = new_table(
            game,
            body.get("players"),
            body.get("seat", 0),
            body.get("bots"),
            body.get("rules"),
            body.get("seed"),
            history=history,
        )
        with self.lock:
            self._drop_idle()
            self.tables[table_id], self.used[table_id] = table, time.monotonic()
        return table_id, table

    def get(self, table_id: str) -> WebTable:
        with self.lock:
            table = self.tables.get(table_id)
            if table is None:
                raise RequestError(404, "no such table (unknown, left, or dropped when idle)")
            self.used[table_id] = time.monotonic()
            return table

    def drop(self, table_id: str) -> WebTable:
        with self.lock:
            if table_id not in self.tables:
                raise RequestError(404, "no such table (unknown, left, or dropped when idle)")
            self.used.pop(table_id)
            return self.tables.pop(table_id)

    def _drop_idle(self) -> None:
        now = time.monotonic()
        for table_id in [t for t, used in self.used.items() if now - used > IDLE_SECONDS]:
            self.tables.pop(table_id), self.used.pop(table_id)
        while len(self.tables) >= MAX_TABLES:
            oldest = min(self.used, key=self.used.get)
            self.tables.pop(oldest), self.used.pop(oldest)


async def _body(request: Request, keys: set[str]) -> dict:
    """The request's JSON object; ``RequestError`` for a body too large, not JSON, not an
    object, or holding a key this call does not take."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise RequestError(413, f"the body is {len(raw)} bytes; at most {MAX_BODY}")
    try:
        body = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RequestError(400, f"the body is not JSON: {error}") from None
    if not isinstance(body, dict):
        raise RequestError(400, f"the body must be a JSON object, got {type(body).__name__}")
    unknown = sorted(set(body) - keys)
    if unknown:
        raise RequestError(
            400, f"unknown key(s) {', '.join(unknown)}; keys: {', '.join(sorted(keys))}"
        )
    return body


def _check_create(body: dict) -> None:
    """The types of a new table's keys (their values are checked by the table itself)."""
    for key, kind in (("players", int), ("seat", int), ("seed", int)):
        value = body.get(key)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            raise RequestError(400, f"{key}: a whole number, got {value!r}")
    if "game" not in body or "players" not in body:
        raise RequestError(400, "game and players are required")
    if body.get("seed") is not None and body["seed"] < 0:
        raise RequestError(400, f"seed: 0 or more, got {body['seed']}")
    if body.get("bots") is not None and not (
        isinstance(body["bots"], str) and body["bots"].strip()
    ):
        raise RequestError(400, f"bots: comma-separated agent specs, got {body['bots']!r}")
    rules = body.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise RequestError(400, f"rules: an object of rule names and values, got {rules!r}")
    for name, value in (rules or {}).items():
        if isinstance(value, list):
            body["rules"][name] = tuple(value)  # the configs take tuples (bet_sizes, cards)


def make_app(history_dir: Path = Path("runs/web")) -> Starlette:
    """The server's app; tables save their records under ``history_dir``."""
    history_dir.mkdir(parents=True, exist_ok=True)
    store = TableStore(history_dir)

    def page(request: Request) -> Response:
        return _asset("index.html")

    def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            raise RequestError(404, f"no asset {name!r}")
        return _asset(name)

    def options(request: Request) -> Response:
        from tournaments.report.compact import gendeneia_cards, lith_cards

        games = {
            g: {
                "players": [INFO[g].min_players, INFO[g].max_players],
                "bots": {
                    n: default_bots(g, n)
                    for n in range(INFO[g].min_players, INFO[g].max_players + 1)
                },
                "agents": agent_names(g),
                "rules": list(rule_names(g)),
            }
            for g in GAMES
        }
        cards = {"lith": lith_cards(), "gendeneia": gendeneia_cards()}
        return JSONResponse({"games": games, "cards": cards})

    async def create(request: Request) -> Response:
        body = await _body(request, CREATE_KEYS)
        _check_create(body)
        try:
            table_id, table = await _threaded(store.create, body)
        except (ValueError, TypeError) as error:
            raise RequestError(400, str(error)) from None
        return JSONResponse({"id": table_id, **table.state()}, status_code=201)

    def show(request: Request) -> Response:
        table = store.get(request.path_params["table_id"])
        with table.lock:
            return JSONResponse({"id": request.path_params["table_id"], **table.state()})

    async def act(request: Request) -> Response:
        body = await _body(request, ACT_KEYS)
        table = store.get(request.path_params["table_id"])
        if "choice" not in body or "version" not in body:
            raise RequestError(400, "choice and version are required")

        def play() -> dict:
            with table.lock:
                return table.act(body["choice"], body.get("amount"), body["version"])

        try:
            state = await _threaded(play)
        except (StaleError, NotNowError) as error:
            raise RequestError(409, str(error)) from None
        except ValueError as error:
            raise RequestError(400, str(error)) from None
        return JSONResponse({"id": request.path_params["table_id"], **state})

    def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    def leave(request: Request) -> Response:
        table = store.drop(request.path_params["table_id"])
        return JSONResponse({"left": True, "history": table.history.name})

    async def refused(request: Request, error: RequestError) -> Response:
        return JSONResponse({"error": str(error)}, status_code=error.status)

    return Starlette(
        routes=[
            Route("/", page),
            Route("/assets/{name}", asset),
            Route("/favicon.ico", no_icon),
            Route("/api/options", options),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{table_id}", show),
            Route("/api/tables/{table_id}", leave, methods=["DELETE"]),
            Route("/api/tables/{table_id}/act", act, methods=["POST"]),
        ],
        exception_handlers={RequestError: refused},
    )


async def _threaded(function: Any, *args: Any) -> Any:
    """Run ``function`` in Starlette's thread pool: bots think without holding the loop."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(function, *args)


def _asset(name: str) -> Response:
    package, content_type = ASSETS[name]
    text = resources.files(package).joinpath("assets", name).read_text(encoding="utf-8")
    return Response(text, media_type=content_type.split(";")[0])


@contextmanager
def serving(history_dir: Path, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve the app on a free port of ``host`` (loopback) in a thread, for tests and the
    load benchmark; yields its base URL and stops the server on exit."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind((host, 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(history_dir), host=host, port=port,
                                           log_level="warning"))  # fmt: skip
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the server did not start on {host}:{port}")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
