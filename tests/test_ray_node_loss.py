"""A node lost mid-tournament: its tasks run again on the node left, the result unchanged.

Runs in a subprocess with a Ray cluster of its own (``ray.cluster_utils.Cluster``: a head
without CPUs and two worker nodes of one CPU), apart from the session's local Ray."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.ray  # a Ray cluster of its own, in a subprocess

SCRIPT = textwrap.dedent(
    """
    import json, os, threading, time
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    from ray.cluster_utils import Cluster
    from tournaments.per_table import TournamentSpec, run_tournament
    from distributed.cluster import connect
    from tournaments.on_ray import run_tournament_on_ray

    import ray

    # the lost node is found dead after 3 missed health checks a second apart, not Ray's
    # default of 5 three seconds apart: the same recovery, some 10 seconds sooner (a 2-second
    # timeout, so a node slow to answer on a busy machine is not taken for dead)
    health_checks = {
        "health_check_initial_delay_ms": 0,
        "health_check_period_ms": 1000,
        "health_check_timeout_ms": 2000,
        "health_check_failure_threshold": 3,
    }
    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 0,
            "include_dashboard": False,
            "_system_config": health_checks,
        },
    )
    for _ in range(2):
        cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    connect(cluster.address)
    # the driver attaches to one of the machine's raylets: lose a worker node it is not on
    mine = ray._private.worker.global_worker.node._raylet_socket_name
    worker = next(
        n for n in cluster.list_all_nodes() if not n.head and n._raylet_socket_name != mine
    )
    spec = TournamentSpec(game="lith", agents=("tag", "bluffer"), players=2, units=8000, seed=13)
    done, state = threading.Event(), {}

    def lose_node():
        time.sleep(3)  # the tournament takes about ten seconds on the two nodes
        state["mid_tournament"] = not done.is_set()
        cluster.remove_node(worker, allow_graceful=False)

    threading.Thread(target=lose_node).start()
    result = run_tournament_on_ray(spec, task_blocks=200)
    done.set()
    local = run_tournament(spec)
    public = lambda r: {k: v for k, v in r.items() if not k.startswith("_")}
    state["same"] = public(result) == public(local)
    print("RESULT " + json.dumps(state))
    ray.shutdown()
    cluster.shutdown()
    """
)


@pytest.mark.slow
def test_a_node_lost_mid_tournament_changes_nothing():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"},
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    state = json.loads(lines[-1].removeprefix("RESULT "))
    assert state == {"mid_tournament": True, "same": True}
