"""Independent checker for matchstick squares: reads only the set of matches.

It does not use the generator: it measures, from every point, how far unbroken runs of matches go
right and down, and a square of size s with top-left corner (x, y) exists exactly when the four runs
leaving (x, y) right and down and (x+s, y) down and (x, y+s) right are all at least s long.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..base import Verdict

Match = tuple[str, int, int]


def parse_matches(raw: Iterable[Any]) -> list[Match]:
    """["h"|"v", x, y] items -> tuples; raises ValueError on anything else."""
    out: list[Match] = []
    for item in raw:
        kind, x, y = item
        if kind not in ("h", "v") or not all(isinstance(c, int) and not isinstance(c, bool) for c in (x, y)):
            raise ValueError(f"bad match {item!r}")
        out.append((kind, x, y))
    return out


def _runs(matches: set[Match], kind: str) -> dict[tuple[int, int], int]:
    """Length of the unbroken run of `kind` matches that starts at each point (0 if none)."""
    step = (1, 0) if kind == "h" else (0, 1)
    run: dict[tuple[int, int], int] = {}
    # walk each run from its far end backwards so every length is computed once
    ours = sorted((m for m in matches if m[0] == kind), key=lambda m: -(m[1] * step[0] + m[2] * step[1]))
    for _, x, y in ours:
        run[(x, y)] = 1 + run.get((x + step[0], y + step[1]), 0)
    return run


def find_squares(matches: Iterable[Match]) -> dict[int, list[tuple[int, int]]]:
    """Every square the matches form: size -> top-left corners (sorted)."""
    ms = set(matches)
    right, down = _runs(ms, "h"), _runs(ms, "v")
    found: dict[int, list[tuple[int, int]]] = {}
    for (x, y), r in right.items():
        for s in range(1, min(r, down.get((x, y), 0)) + 1):
            if down.get((x + s, y), 0) >= s and right.get((x, y + s), 0) >= s:
                found.setdefault(s, []).append((x, y))
    return {s: sorted(c) for s, c in sorted(found.items())}


def check(n: int | None, solution: Any, params: Any = None) -> Verdict:
    """All squares 1x1..nxn must be present; the objective is the number of matches."""
    if not isinstance(solution, dict) or n is None:
        return Verdict(False, "malformed solution: not an object")
    try:
        matches = parse_matches(solution["matches"])
    except (KeyError, TypeError, ValueError) as e:
        return Verdict(False, f"malformed solution: {e}")
    if len(set(matches)) != len(matches):
        return Verdict(False, "a match is listed twice")
    found = find_squares(matches)
    missing = [s for s in range(1, n + 1) if s not in found]
    if missing:
        return Verdict(False, f"no square of size {', '.join(map(str, missing))}", len(matches))
    return Verdict(True, f"all squares 1..{n} present with {len(matches)} matches", len(matches))
