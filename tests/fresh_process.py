"""Running Python code in a fresh interpreter, for determinism tests: a second run in the
same process shares its caches, compiled kernels and module state with the first, so equal
output there proves little."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_fresh(code: str, cache: Path) -> None:
    """Run ``code`` in a new interpreter with its own empty solver cache (``cache``), from
    the repository root; fail with its stderr if it fails."""
    cache.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "TREASURE_CACHE": str(cache)}
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
