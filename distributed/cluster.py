"""Connecting to Ray: a local Ray or a cluster, with usage statistics off and versions checked.

``connect(None)`` starts a local Ray on this machine; ``connect("auto")`` joins the cluster
this machine belongs to (started with ``ray start``); ``connect("HOST:PORT")`` joins the cluster
whose head listens there; ``connect("ray://HOST:PORT")`` goes through Ray Client. The suite's
own packages travel to every worker with the job (Ray's ``runtime_env`` ``py_modules``), so
the nodes need only the same Python libraries, not a copy of this checkout; so do the modules
of ``module:Name`` agent specs built before connecting, unless they are installed packages
(which the nodes must have installed too). Identical results
need identical numerics, so a node whose Python, numpy or torch version differs from this
machine's is refused at connect.

Ray's usage statistics (a report it would otherwise send out) are off in every process the
suite starts: ``RAY_USAGE_STATS_ENABLED=0`` is set before Ray is imported and passed to the
workers.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import socket
from pathlib import Path
from typing import Any

from tablegame.provenance import COMMIT_VARIABLE, git_commit
from tablegame.registry import AGENT_MODULES_VARIABLE, imported_modules, load_agents

__all__ = [
    "SUITE_MODULES",
    "ClusterError",
    "cluster_cpus",
    "connect",
    "disable_usage_stats",
    "library_versions",
    "package_paths",
    "parse_address",
]

CONNECT_TIMEOUT = 10.0  # seconds to reach a cluster's head before giving up
USAGE_STATS = "RAY_USAGE_STATS_ENABLED"
_connected: str | None = None  # the address this process connected to (None: a local Ray)


class ClusterError(ValueError):
    """The cluster asked for cannot be used: unreachable, or its nodes differ from this one."""


def disable_usage_stats() -> None:
    """Turn Ray's usage statistics off for this process and every process it starts."""
    os.environ[USAGE_STATS] = "0"


def parse_address(text: str | None) -> str | None:
    """A Ray address as the command lines take it: None or ``local`` (a local Ray), ``auto``,
    ``HOST:PORT`` or ``ray://HOST:PORT``; ``ClusterError`` names anything else."""
    if text is None or text == "local":
        return None
    if not isinstance(text, str) or not text.strip():
        raise ClusterError(f"ray address: local, auto, HOST:PORT or ray://HOST:PORT, got {text!r}")
    text = text.strip()
    if text == "auto":
        return text
    host, port = _host_port(text)
    if not host or port is None:
        raise ClusterError(f"ray address: local, auto, HOST:PORT or ray://HOST:PORT, got {text!r}")
    return text


def _host_port(address: str) -> tuple[str, int | None]:
    bare = address.removeprefix("ray://")
    host, _, port = bare.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        return host, None
    return host, int(port)


def library_versions() -> dict[str, str]:
    """The versions that decide the results: Python (major.minor), numpy and torch."""
    import numpy
    import torch

    return {
        "python": ".".join(platform.python_version_tuple()[:2]),
        "numpy": numpy.__version__,
        "torch": torch.__version__,
    }


# The suite's own top-level packages and modules, shipped to every worker. Named here rather
# than imported: distributed sits below the packages that use it (docs/architecture.md).
SUITE_MODULES = (
    "tablegame",
    "lith_env",
    "gendeneia_env",
    "games",
    "lith_solver",
    "distributed",
    "tournaments",
    "agents",
    "training",
    "experiments",
    "webplay",
    "decktet_rl",
    "train",
)


def package_paths() -> list[str]:
    """Where this process imports each of ``SUITE_MODULES`` from: a package's folder or a
    module's file, as Ray's ``py_modules`` takes them; then the top-level packages of the
    user's own agents (:func:`tablegame.registry.imported_modules`) that are not installed."""
    paths = []
    for name in SUITE_MODULES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise ClusterError(f"the suite's module {name!r} is not importable here")
        paths.append(_module_path(spec.origin))
    for name in dict.fromkeys(m.partition(".")[0] for m in imported_modules()):
        spec = importlib.util.find_spec(name)
        if name in SUITE_MODULES or spec is None or spec.origin is None:
            continue
        path = _module_path(spec.origin)
        if not any(part in ("site-packages", "dist-packages") for part in Path(path).parts):
            paths.append(path)
    return paths


def _module_path(origin: str) -> str:
    """A package's folder (from its ``__init__.py``) or a module's file."""
    path = Path(origin)
    return str(path.parent if path.name == "__init__.py" else path)


def cluster_cpus() -> int:
    """The CPUs of the cluster this process is connected to."""
    import ray

    return int(ray.cluster_resources().get("CPU", 1))


def connect(address: str | None = None, num_cpus: int | None = None) -> None:
    """Connect this process to Ray (see the module's docstring for ``address``); a local Ray
    gets ``num_cpus`` CPUs (default: all of this machine's). Already connected: nothing to do
    (``address`` None takes the connection as it is; another address is an error).

    ``ClusterError`` when the head does not answer within ``CONNECT_TIMEOUT`` seconds or a
    node's versions differ from this machine's (the error names the node and the library)."""
    global _connected
    disable_usage_stats()
    import ray

    address = parse_address(address)
    if num_cpus is not None and address is not None:
        raise ClusterError("num_cpus: only a local Ray is sized here; a cluster has its own")
    if address not in (None, "auto"):
        _probe(address)
    if ray.is_initialized():
        if address is not None and address != _connected:
            raise ClusterError(
                f"ray address {address!r}: this process is connected to {_connected!r} already"
            )
        return
    runtime_env = {
        "py_modules": package_paths(),
        "excludes": ["__pycache__", "*.pyc"],
        "env_vars": _worker_variables(),
    }
    options: dict[str, Any] = {
        "runtime_env": runtime_env,
        "log_to_driver": False,
        "logging_level": "WARNING",
        "configure_logging": True,
    }
    if address is None:
        options.update(num_cpus=num_cpus, include_dashboard=False)
    try:
        # "local" starts a Ray of this process's own: with None, Ray would join any cluster a
        # `ray start` left running on this machine.
        ray.init(address="local" if address is None else address, **options)
    except ConnectionError as error:
        hint = ""
        if address not in (None, "auto") and os.environ.get("RAY_AUTH_MODE") != "token":
            hint = (
                " (a cluster started by `ray start` checks a token: set RAY_AUTH_MODE=token "
                "and copy its ~/.ray/auth_token here; docs/scale.md)"
            )
        raise ClusterError(f"ray address {address!r}: {error}{hint}") from None
    try:
        check_versions()
    except ClusterError:
        ray.shutdown()
        raise
    _connected = address


def _worker_variables() -> dict[str, str]:
    """Usage statistics off, the commit of the code sent (what runs record), and the agent
    modules this process loaded (so a worker's registry knows the same agents)."""
    variables = {USAGE_STATS: "0", AGENT_MODULES_VARIABLE: ",".join(load_agents())}
    commit = git_commit()
    if commit:
        variables[COMMIT_VARIABLE] = commit
    return variables


def _probe(address: str) -> None:
    """Fail fast on a head that does not answer: Ray itself retries for minutes."""
    host, port = _host_port(address)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as error:
        raise ClusterError(
            f"ray address {address!r}: nothing answers there ({error.strerror or error}); "
            "start a head with `ray start --head --disable-usage-stats` or give its address"
        ) from None


def check_versions(expected: dict[str, str] | None = None) -> None:
    """Ask every live node for :func:`library_versions`; ``ClusterError`` naming the first
    node and library that differ from ``expected`` (default: this machine's)."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    expected = expected or library_versions()
    probe = ray.remote(num_cpus=0)(library_versions)
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    answers = ray.get(
        [
            probe.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)
            ).remote()
            for node in nodes
        ]
    )
    for node, versions in zip(nodes, answers, strict=True):
        for library, version in expected.items():
            if versions.get(library) != version:
                raise ClusterError(
                    f"node {node.get('NodeManagerAddress', node['NodeID'])} has {library} "
                    f"{versions.get(library)}, this machine {version}: identical results need "
                    "identical versions; install the same ones there"
                )
