"""A ``hold`` on the command line imports only what its answer needs: none of the heavy
libraries (numba, matplotlib, OR-Tools, SciPy, networkx, SymPy, python-flint, the web stack),
whose imports cost a warm answer most of its start-up (numba alone 0.8 s). Each command runs
in a fresh interpreter, with an empty cache of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("numba", "llvmlite", "matplotlib", "ortools", "scipy", "networkx", "sympy", "flint",
         "fastapi", "starlette", "pydantic", "uvicorn")
ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import contextlib, io, json, sys
from solver.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main(sys.argv[1:])
    except SystemExit as stop:
        assert not stop.code, stop.code
import solver.armada.advice, solver.armada.tables, solver.cache  # a warm table's path
print(json.dumps({"modules": sorted({m.split(".")[0] for m in sys.modules}),
                  "answer": out.getvalue()}))
"""


def heavy_imports(args: list[str], cache: Path) -> tuple[list[str], str]:
    env = {**os.environ, "TREASURE_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    return [m for m in HEAVY if m in found["modules"]], found["answer"]


@pytest.mark.parametrize("args", [
    ["sabords", "hold", "--card", "captain", "CCDMPSXX"],
    ["sabords", "hold", "--card", "captain", "--me", "5400", "--opponent", "5900",
     "CCDMPSXX"],  # the shipped whole-game table
    ["armada", "hold", "--objective", "turn", "--rolls-left", "1", "CCMMA"],
])
def test_a_hold_imports_no_heavy_library(args, tmp_path):
    heavy, answer = heavy_imports(args, tmp_path)
    assert answer.strip()
    assert heavy == []
