"""How many threads a compiled search's parallel loops (numba prange) use."""
from __future__ import annotations

import numba


def use_threads(wanted: int | None) -> int:
    """Let numba's parallel loops use `wanted` threads (at least 1, at most numba's pool); returns it."""
    n = max(1, min(int(wanted or 1), numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    numba.set_num_threads(n)
    return n
