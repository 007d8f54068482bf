"""Running the ``threeup`` command in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent


def run(
    *args: str, timeout: float = 120, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m threeup_tui ARGS`` in ``cwd`` or a fresh empty directory:
    a command that should have failed at once and did not (a host, say,
    which writes its journal where it runs) writes nothing into the checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory(prefix="threeup-cli-") as workdir:
        return subprocess.run(
            [sys.executable, "-m", "threeup_tui", *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            cwd=cwd or workdir,
            env=env,
            stdin=subprocess.DEVNULL,
        )


def write(path: Path, record: Any) -> Path:
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def assert_no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stdout, proc.stdout


def assert_usage_error(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    """Exit 2, a clear message on stderr, nothing on stdout, no traceback."""
    assert_no_traceback(proc)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    err = proc.stderr.strip()
    assert err
    for word in words:
        assert word.lower() in err.lower(), (word, err)
    return err
