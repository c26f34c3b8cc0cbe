"""Shared fixtures, and the markers that follow from them (pyproject.toml lists the markers;
``make test-fast`` runs ``-m "not slow"``)."""

from __future__ import annotations

import pytest

# Fixtures that decide a test's markers: starting the tests' Ray takes seconds, so a test on it
# is slow as well; OpenSpiel's cross-checks build its games.
FIXTURE_MARKS = {
    "ray_cluster": ("ray", "slow"),
    "openspiel_game": ("openspiel",),
    "openspiel_tiny": ("openspiel",),
    "browser": ("browser",),
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture in getattr(item, "fixturenames", ()):
            for mark in FIXTURE_MARKS.get(fixture, ()):
                item.add_marker(mark)


@pytest.fixture(scope="session")
def ray_cluster():
    """One real local Ray for every Ray test: two CPUs, no dashboard, usage statistics off
    (``distributed.cluster.connect`` sets ``RAY_USAGE_STATS_ENABLED=0`` before Ray starts)."""
    from distributed.cluster import connect

    connect(None, num_cpus=2)
    import ray

    yield ray
    ray.shutdown()


@pytest.fixture
def one_torch_thread():
    """Torch on one thread for the test, as the exploiters train (small networks: fastest and
    repeatable), and back to what it was after."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(autouse=True, scope="session")
def sb3_log_folder(tmp_path_factory):
    """SB3 makes a folder for its logger at every ``learn()`` without ``tensorboard_log``, in
    the system's temporary folder unless ``SB3_LOGDIR`` says where: keep the tests' there."""
    import os

    folder = tmp_path_factory.mktemp("sb3-logs")
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(folder)
    yield folder
    if before is None:
        del os.environ["SB3_LOGDIR"]
    else:
        os.environ["SB3_LOGDIR"] = before
