"""The checker: every edge of the cycle has a chosen end (no use of the generator)."""
from __future__ import annotations

from typing import Any

from workbench.puzzles.base import Verdict


def check(n: int | None, solution: Any, params: Any = None) -> Verdict:
    if n is None or not isinstance(solution, list) or not all(isinstance(v, int) for v in solution):
        return Verdict(False, "malformed solution: a list of vertices")
    chosen = set(solution)
    if len(chosen) != len(solution) or not chosen <= set(range(n)):
        return Verdict(False, "vertices must be distinct, from 0 to n - 1")
    bare = [i for i in range(n) if n > 1 and i not in chosen and (i + 1) % n not in chosen]
    if bare:
        return Verdict(False, f"edge {bare[0]}-{(bare[0] + 1) % n} is not covered", len(chosen))
    return Verdict(True, f"{len(chosen)} vertices cover the cycle", len(chosen))
