"""Tournaments on a real local Ray: identical to one process, whatever the task sizes, through
a killed worker; clear errors for an unreachable cluster, mismatched versions and bad flags."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from pathlib import Path

import pytest

from distributed import cluster
from distributed.cluster import ClusterError, check_versions, parse_address
from distributed.files import digest_of, pack, unpack, unpacked
from tournaments import cli as tournament
from tournaments.batched_tables import run_batched_tournament
from tournaments.on_ray import blocks_per_task, run_tournament_on_ray
from tournaments.per_table import run_tournament
from tournaments.spec import TournamentSpec


def public(result: dict) -> dict:
    return {k: v for k, v in result.items() if not k.startswith("_")}


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    """An untrained (so arbitrary) PPO model file: enough to show the file travels."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import lith_env  # noqa: F401

    path = tmp_path_factory.mktemp("model") / "model.zip"
    env = gym.make("Lith-v0").unwrapped
    MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=3).save(path)
    return path


@pytest.mark.slow
def test_per_table_results_are_identical_to_one_process(ray_cluster, model):
    spec = TournamentSpec(
        game="lith",
        agents=(f"ppo:{model}:deterministic=false", "bluffer", "random"),
        players=2,
        units=120,
        seed=5,
    )
    local = run_tournament(spec)
    for task_blocks in (7, 60):  # many small tasks, or one per pairing
        on_ray = run_tournament_on_ray(spec, task_blocks=task_blocks)
        assert public(on_ray) == public(local)
        assert on_ray["_records"] == local["_records"]
        assert on_ray["_decisions"] == local["_decisions"]


def test_gendeneia_results_are_identical_to_one_process(ray_cluster):
    spec = TournamentSpec(
        game="gendeneia", agents=("greedy", "spoiler", "random"), players=3, units=6, seed=2
    )
    assert public(run_tournament_on_ray(spec, task_blocks=1)) == public(run_tournament(spec))


def test_a_search_agent_plays_the_same_games_on_ray(ray_cluster):
    spec = TournamentSpec(
        game="gendeneia", agents=("ismcts:iterations=6", "spoiler"), players=3, units=6, seed=4
    )
    assert public(run_tournament_on_ray(spec, task_blocks=1)) == public(run_tournament(spec))


def test_the_lith_search_plays_the_same_hands_on_ray(ray_cluster):
    spec = TournamentSpec(
        game="lith", agents=("ismcts:iterations=6", "tag"), players=3, units=6, seed=4
    )
    assert public(run_tournament_on_ray(spec, task_blocks=1)) == public(run_tournament(spec))


def test_a_search_guided_by_a_network_file_ships_it_and_plays_the_same_games(ray_cluster, tmp_path):
    from distributed.files import Shipment
    from training.expert_iteration import ExItConfig, new_model

    network = tmp_path / "net.zip"
    new_model(ExItConfig()).save(network)
    specs = (f"ismcts:iterations=4:prior={network}", f"ismcts:policy=ppo:{network}:c=1", "greedy")
    local = Shipment(specs, "gendeneia").local_specs()
    copy = str(unpacked(digest_of(pack(network))))
    assert local == (f"ismcts:iterations=4:prior={copy}", f"ismcts:policy=ppo:{copy}:c=1", "greedy")
    assert copy != str(network)
    spec = TournamentSpec(
        game="gendeneia", agents=(specs[0], "spoiler"), players=3, units=3, seed=1
    )
    assert public(run_tournament_on_ray(spec, task_blocks=1)) == public(run_tournament(spec))


def test_batched_results_and_records_are_identical_to_one_process(ray_cluster, model):
    spec = TournamentSpec(
        game="lith",
        agents=(f"ppo:{model}:deterministic=false", "bluffer", "tag"),
        players=2,
        units=100,
        seed=7,
        analytics=False,
    )
    # 30 tables a batch: several batches, each reseeding the random agents from its first block
    local = run_batched_tournament(spec, tables_per_batch=30, record=40)
    on_ray = run_tournament_on_ray(spec, batched=True, tables_per_batch=30, record=40)
    assert public(on_ray) == public(local)
    assert on_ray["_records"] == local["_records"] and len(local["_records"]) == 40


def _holding_the_first_result(function, folder: Path):
    """``function`` as a task whose first attempt to finish, anywhere, holds its result until
    its worker is killed (``held-PID`` tells the test whom to kill; ``released`` that the hold
    ran out unkilled). Every attempt leaves ``attempt-KEY-PID``. The tournament cannot finish
    while the result is held, so the kill lands mid-tournament on any machine. A closure, so
    Ray's cloudpickle sends it by value: the workers cannot import the tests."""

    def task(*arguments):
        import os
        import time

        key = "-".join(str(a) for a in arguments if isinstance(a, int))
        open(os.path.join(folder, f"attempt-{key}-{os.getpid()}"), "w").close()
        result = function(*arguments)
        try:
            os.close(os.open(os.path.join(folder, "held"), os.O_CREAT | os.O_EXCL))
        except FileExistsError:  # another attempt holds (or held) its result
            return result
        open(os.path.join(folder, f"held-{os.getpid()}-{key}"), "w").close()
        deadline = time.monotonic() + HOLD_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.05)
        open(os.path.join(folder, "released"), "w").close()
        return result

    return task


HOLD_SECONDS = 60  # how long a held result waits for the kill before the test fails


def _wait_for(found, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = found()
        if answer:
            return answer
        time.sleep(0.02)
    pytest.fail(f"{what} within {seconds:g} s")


@pytest.mark.slow
def test_a_worker_killed_mid_tournament_changes_nothing(ray_cluster, monkeypatch, tmp_path):
    from tournaments import on_ray

    spec = TournamentSpec(game="lith", agents=("tag", "bluffer"), players=2, units=600, seed=11)
    expected = public(run_tournament(spec))
    real_map_tasks = on_ray.map_tasks
    monkeypatch.setattr(
        on_ray,
        "map_tasks",
        lambda function, arguments, **options: real_map_tasks(
            _holding_the_first_result(function, tmp_path), arguments, **options
        ),
    )
    outcome: dict = {}

    def play() -> None:
        try:
            outcome["result"] = run_tournament_on_ray(spec, task_blocks=30)  # 10 tasks
        except BaseException as error:  # reported below, in the test's own thread
            outcome["error"] = error

    player = threading.Thread(target=play, daemon=True)
    player.start()
    held = _wait_for(
        lambda: list(tmp_path.glob("held-*")), 120, "no task's result was held for the kill"
    )
    assert player.is_alive(), "the tournament finished though a task's result was held"
    _, pid, key = held[0].name.split("-", 2)
    os.kill(int(pid), signal.SIGKILL)
    player.join(120)
    if player.is_alive():
        pytest.fail("the tournament did not finish within 120 s of the worker's death")
    assert "error" not in outcome, outcome.get("error")
    assert not (tmp_path / "released").exists(), "the held task was not killed"
    attempts = [p.name.rsplit("-", 1)[1] for p in tmp_path.glob(f"attempt-{key}-*")]
    assert pid in attempts and len(attempts) == 2  # the killed attempt and its retry
    assert public(outcome["result"]) == expected


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the socket is


def test_a_local_ray_starts_its_own_even_beside_a_running_cluster(monkeypatch):
    """Without an address a local Ray starts (docs/scale.md): Ray's own default would join a
    cluster that `ray start` left running on this machine (and refuse ``num_cpus`` there)."""
    import ray

    from distributed import cluster

    calls = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kwargs: calls.append(kwargs))
    monkeypatch.setattr(cluster, "check_versions", lambda: None)
    cluster.connect(None, num_cpus=1)
    assert calls[0]["address"] == "local" and calls[0]["num_cpus"] == 1


def test_an_unreachable_cluster_is_a_clear_error_within_seconds():
    port = _closed_port()
    outcome: dict = {}

    def attempt() -> None:
        try:
            cluster.connect(f"127.0.0.1:{port}")
        except BaseException as error:  # checked below, in the test's own thread
            outcome["error"] = error

    # a thread: a connect that hangs (Ray retries for minutes) fails the test by name
    trying = threading.Thread(target=attempt, daemon=True)
    trying.start()
    trying.join(30)
    if trying.is_alive():
        pytest.fail(f"connect('127.0.0.1:{port}') did not answer within 30 s")
    with pytest.raises(ClusterError, match=rf"127\.0\.0\.1:{port}.*nothing answers"):
        raise outcome.get("error") or AssertionError("connect raised nothing")


def test_the_tournament_command_names_an_unreachable_cluster(capsys):
    port = _closed_port()
    argv = ["--agents", "tag,rock", "--hands", "20", "--ray", f"127.0.0.1:{port}"]
    with pytest.raises(SystemExit) as stop:
        tournament.main(argv)
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert f"--ray: ray address '127.0.0.1:{port}': nothing answers there" in error
    assert "Traceback" not in error


@pytest.mark.slow
def test_a_node_with_other_library_versions_is_refused(ray_cluster):
    check_versions()  # this machine's own versions: every node matches
    expected = {**cluster.library_versions(), "numpy": "0.0.1"}
    with pytest.raises(ClusterError, match=r"has numpy \S+, this machine 0\.0\.1"):
        check_versions(expected)


def test_usage_statistics_are_off_on_the_workers(ray_cluster):
    @ray_cluster.remote(num_cpus=0)
    def usage_stats() -> str | None:
        return os.environ.get("RAY_USAGE_STATS_ENABLED")

    assert os.environ["RAY_USAGE_STATS_ENABLED"] == "0"
    assert ray_cluster.get(usage_stats.remote()) == "0"


@pytest.mark.parametrize("text", ["", "nowhere", "host:0", "host:70000", "ray://host"])
def test_bad_addresses_are_named(text):
    with pytest.raises(ClusterError, match="ray address"):
        parse_address(text)


def test_addresses_that_are_understood():
    assert parse_address(None) is None and parse_address("local") is None
    assert parse_address("auto") == "auto"
    assert parse_address("10.0.0.5:6379") == "10.0.0.5:6379"
    assert parse_address("ray://head:10001") == "ray://head:10001"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--task-blocks", "5"], "--task-blocks: only with --ray"),
        (["--ray", "auto", "--workers", "2"], "--workers: a Ray cluster has its own CPUs"),
        (["--ray", "--batched", "--task-blocks", "5"], "--task-blocks: a batched tournament"),
        (["--ray", "somewhere"], "--ray: ray address: local, auto, HOST:PORT"),
        (["--ray", "--task-blocks", "0"], "--task-blocks: must be"),
    ],
)
def test_bad_ray_flags_exit_2_naming_them(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        tournament.main(["--agents", "tag,rock", "--hands", "20", *argv])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_task_sizes_keep_the_overhead_small_and_the_load_even():
    assert blocks_per_task(100, 2) == 200  # a small tournament: one task
    assert blocks_per_task(100_000, 2) == 12_500  # four tasks a CPU
    assert blocks_per_task(100_000, 200) == 200


def test_model_files_travel_packed_and_unpack_once(tmp_path):
    folder = tmp_path / "solved"
    folder.mkdir()
    (folder / "strategy.npz").write_bytes(b"\x00\x01strategy")
    (folder / "solution.json").write_text("{}")
    copy = unpack(pack(folder))
    assert copy.name == "solved" and copy != folder
    assert (copy / "strategy.npz").read_bytes() == b"\x00\x01strategy"
    assert unpack(pack(folder)) == copy  # the same content: the same copy
    assert unpacked(digest_of(pack(folder))) == copy  # found without fetching it again
    assert unpacked("0" * 20) is None
    with pytest.raises(ValueError, match="no such file or folder"):
        pack(tmp_path / "missing.zip")


def test_a_pack_is_named_by_its_content_not_by_the_clock(tmp_path, monkeypatch):
    network = tmp_path / "net.zip"
    network.write_bytes(b"weights")
    monkeypatch.setattr(time, "time", lambda: 1_000_000_000.0)
    early = pack(network)
    monkeypatch.setattr(time, "time", lambda: 2_000_000_000.0)
    assert pack(network) == early  # a later pack finds the copy an earlier one unpacked
