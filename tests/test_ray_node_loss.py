"""A node lost mid-tournament: its tasks run again on the node left, the result unchanged.

Runs in a subprocess with a Ray cluster of its own (``ray.cluster_utils.Cluster``: a head
without CPUs and two worker nodes of one CPU), apart from the session's local Ray. The node is
lost when a task on it has played its blocks and holds their result, so the loss lands
mid-tournament however fast the machine: no clock decides it."""

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
    import json, os, shutil, tempfile, threading, time
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    from ray.cluster_utils import Cluster
    from tournaments.per_table import TournamentSpec, run_tournament
    from distributed.cluster import connect
    from tournaments import on_ray
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
    doomed = worker.node_id
    folder = tempfile.mkdtemp(prefix="node-loss-")

    def holding_on_the_doomed_node(function):
        # a task on the doomed node plays its blocks, then holds its result until the node is
        # lost: the tournament cannot finish first, so the loss lands mid-tournament however
        # fast the machine (a closure in __main__: Ray sends it by value)
        def task(*arguments):
            import os, time
            import ray

            node = ray.get_runtime_context().get_node_id()
            key = "-".join(str(a) for a in arguments if isinstance(a, int))
            open(os.path.join(folder, f"attempt-{key}-{node}"), "w").close()
            result = function(*arguments)
            if node == doomed:
                open(os.path.join(folder, f"held-{key}-{os.getpid()}"), "w").close()
                deadline = time.monotonic() + 90
                while time.monotonic() < deadline:
                    time.sleep(0.05)
                open(os.path.join(folder, "released"), "w").close()
            return result

        return task

    real_map_tasks = on_ray.map_tasks
    on_ray.map_tasks = lambda function, arguments, **options: real_map_tasks(
        holding_on_the_doomed_node(function), arguments, **options
    )
    spec = TournamentSpec(game="lith", agents=("tag", "bluffer"), players=2, units=2000, seed=13)
    done, state = threading.Event(), {}

    def lose_node():
        deadline, held = time.monotonic() + 120, []
        while time.monotonic() < deadline and not done.is_set():
            held = [name for name in os.listdir(folder) if name.startswith("held-")]
            if held:
                break
            time.sleep(0.02)
        state["held"] = bool(held)
        state["mid_tournament"] = not done.is_set()
        if held:
            _, first, stop, pid = held[0].split("-")
            state["key"], state["pid"] = f"{first}-{stop}", int(pid)
            cluster.remove_node(worker, allow_graceful=False)

    loser = threading.Thread(target=lose_node)
    loser.start()
    result = run_tournament_on_ray(spec, task_blocks=50)
    done.set()
    loser.join()
    held_key = state.pop("key", None)
    retried = [
        n.split("-", 3)[3] for n in os.listdir(folder) if n.startswith(f"attempt-{held_key}-")
    ]
    state["retried_elsewhere"] = doomed in retried and len(set(retried)) == 2
    state["released"] = os.path.exists(os.path.join(folder, "released"))
    try:
        os.kill(state.pop("pid"), 0)
        state["held_worker_gone"] = False
    except (ProcessLookupError, KeyError):
        state["held_worker_gone"] = True
    local = run_tournament(spec)
    public = lambda r: {k: v for k, v in r.items() if not k.startswith("_")}
    state["same"] = public(result) == public(local)
    print("RESULT " + json.dumps(state))
    ray.shutdown()
    cluster.shutdown()
    shutil.rmtree(folder, ignore_errors=True)
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
    assert state == {
        "held": True,
        "mid_tournament": True,
        "retried_elsewhere": True,
        "released": False,
        "held_worker_gone": True,
        "same": True,
    }
