"""decktet web: serve the browser game on this machine.

    decktet web [--host 127.0.0.1] [--port 8000] [--history-dir runs/web]

Open http://127.0.0.1:8000 and choose a game, its seats, rules and bots (the zoo's by default).
The server listens on the loopback address unless --host says otherwise; each table's session
is saved under --history-dir as records the engine replays, which decktet report
FOLDER --html opens in the report's replayer.
"""

from __future__ import annotations

import argparse
import errno
import socket
from collections.abc import Sequence
from pathlib import Path

from tablegame.cli import int_at_least

__all__ = ["main"]


def _port(text: str) -> int:
    port = int_at_least(1)(text)
    if port > 65535:
        raise argparse.ArgumentTypeError(f"a port from 1 to 65535, got {port}")
    return port


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (naming the flag), or None: an unknown
    host, an address not on this machine, or a port in use are errors before it starts."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        return f"--host: {host!r} is not an address of this machine ({error.strerror})"
    family, kind, _, _, address = found[0]
    with socket.socket(family, kind) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            flag = "--port" if error.errno == errno.EADDRINUSE else "--host"
            return f"{flag}: cannot listen on {host}:{port} ({error.strerror or error})"
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="decktet web",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2],
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    parser.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    parser.add_argument("--history-dir", type=Path, default=Path("runs/web"),
                        help="where the tables' records are saved (default: runs/web)")  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Serve until interrupted; a bad option exits with status 2, naming it."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.history_dir.exists() and not args.history_dir.is_dir():
        parser.error(f"--history-dir: {str(args.history_dir)!r} is a file; give a folder")
    problem = _cannot_listen(args.host, args.port)
    if problem:
        parser.error(problem)
    import uvicorn

    from webplay.app import make_app

    print(f"the browser game: http://{args.host}:{args.port}/ (Ctrl-C stops it)")
    uvicorn.run(make_app(args.history_dir), host=args.host, port=args.port, log_level="warning")
    return 0
