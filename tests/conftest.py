"""Suite-wide safety.

- Nothing a test starts may announce on a real network: hosts started
  without an explicit announce address read THREEUP_ANNOUNCE; tests that
  exercise discovery pass 127.255.255.255 explicitly.
- Nothing a test runs may write the user's real directories: every test
  gets its own state, config and data directories, set in the environment
  so that the subprocesses it starts use them too.
- No test is timed (Hypothesis's deadline is off): a busy machine must not
  fail a test that is right.
- Property tests run CI's sample of examples; THREEUP_HYPOTHESIS=soak runs
  the long hunt (hypothesis_budget.py).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis_budget import profile_problem

# No example may fail for taking long: speed is measured in benchmarks, not
# in tests, and Hypothesis's 200 ms deadline failed a history test (each
# example writes a real SQLite file) on a machine busy with other work.
settings.register_profile("threeup", deadline=None)
settings.load_profile("threeup")


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: three workers for two cores.  The suite mostly waits
    (real sockets, terminals, SSH sessions, turn timers, bots' think time):
    with one worker a core, clean-clone CI runs on 2 cores took 19-20.5
    minutes and used under half the cores (user + system 19 of 41
    core-minutes).  Two a core ran in 14 minutes, but one screen
    comparison (test_hidden_swaps) failed under that load."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # a count the runner chose: xdist's own hook reads it
    cores = len(os.sched_getaffinity(0))
    return cores + max(1, cores // 2)


def pytest_configure(config: pytest.Config) -> None:
    # A misspelt profile would run CI's sample while its reader thinks it soaked.
    problem = profile_problem()
    if problem:
        raise pytest.UsageError(problem)


os.environ["THREEUP_ANNOUNCE"] = "off"
# The terminal the suite's own ssh clients and apps say they are, whatever
# runs the suite: under TERM=dumb (some CI runners) or none, the app refuses
# to draw, and a door guest's app with it.  Tests of such terminals set TERM.
if os.environ.get("TERM", "").strip().lower() in ("", "dumb", "unknown"):
    os.environ["TERM"] = "xterm-256color"

DIRS = {"THREEUP_STATE_DIR": "state", "THREEUP_CONFIG_DIR": "config", "THREEUP_DATA_DIR": "data"}


@pytest.fixture(autouse=True)
def own_directories(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Path]:
    """THREEUP_STATE_DIR, _CONFIG_DIR and _DATA_DIR in a fresh temporary
    directory for this test; no test runs as a confined guest unless it says so."""
    base = tmp_path_factory.mktemp("threeup-dirs")
    paths = {name: base / leaf for name, leaf in DIRS.items()}
    for name, path in paths.items():
        monkeypatch.setenv(name, str(path))
    monkeypatch.delenv("THREEUP_GUEST", raising=False)
    return paths


@pytest.fixture
def read_only() -> Callable[[Path], AbstractContextManager[None]]:
    """``with read_only(folder):`` the folder cannot be written: by its mode
    for a user, by a read-only bind mount for root (whom no mode stops);
    the test is skipped where neither can be done."""

    @contextlib.contextmanager
    def made_read_only(folder: Path) -> Iterator[None]:
        if os.geteuid() != 0:
            folder.chmod(0o500)
            try:
                yield
            finally:
                folder.chmod(0o700)
            return
        mount = shutil.which("mount")

        def done(*args: str | Path) -> bool:
            return (
                mount is not None
                and not subprocess.run([mount, *args], capture_output=True).returncode
            )

        if not done("--bind", folder, folder):
            pytest.skip("root, and no bind mount to make a directory read-only")
        try:
            if not done("-o", "remount,bind,ro", folder, folder):
                pytest.skip("root, and no read-only remount")
            yield
        finally:
            subprocess.run(["umount", folder], check=True)

    return made_read_only


class SmallDisk:
    """A file system of 64 KiB (tmpfs) at ``path``, to be filled and freed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._filler = path / "filler"

    def fill(self) -> None:
        """Write until no byte more fits (ENOSPC)."""
        with contextlib.suppress(OSError), self._filler.open("ab") as file:
            while True:
                file.write(b"\0" * 1024)
                file.flush()

    def free(self) -> None:
        self._filler.unlink(missing_ok=True)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    """A real full disk: a 64 KiB tmpfs mounted for the test (root only;
    skipped where it cannot be mounted)."""
    where = tmp_path / "small-disk"
    where.mkdir()
    mount = shutil.which("mount")
    if os.geteuid() != 0 or mount is None:
        pytest.skip("mounting a small tmpfs needs root")
    made = subprocess.run(
        [mount, "-t", "tmpfs", "-o", "size=64k", "tmpfs", where], capture_output=True
    )
    if made.returncode:
        pytest.skip("no tmpfs could be mounted here")
    try:
        yield SmallDisk(where)
    finally:
        subprocess.run(["umount", where], check=True)
