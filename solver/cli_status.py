"""The command line's status line: what a long job is doing, for a person at a terminal."""

from __future__ import annotations

import sys
import time


class StatusLine:
    """What a long job is doing, on one stderr line rewritten in place (with the seconds
    since the start); silent unless stderr is a terminal, so pipes and logs stay clean."""

    def __init__(self) -> None:
        self.active = sys.stderr.isatty()
        self.t0 = time.perf_counter()

    def __call__(self, text: str) -> None:
        if self.active:
            sys.stderr.write(f"\r\033[K{time.perf_counter() - self.t0:6.1f} s  {text}")
            sys.stderr.flush()

    def __enter__(self) -> StatusLine:
        return self

    def __exit__(self, *exc) -> None:
        if self.active:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
