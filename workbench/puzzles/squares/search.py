"""The squares' native search method: the heuristics for a bound (heuristics.py), then the exact
or counting depth-first search under it (dfs.py, its cuts in cuts.py)."""
from __future__ import annotations

from typing import Any

from ...models.core import OPTIMISE, Options, Question
from ...search.deadline import Deadline
from ...search.outcome import Outcome, Progress
from ...search.tasks import Settings
from ...search.threads import use_threads
from .beam import beam
from .dfs import exact, pooled_for, search
from .heuristics import upper_bound
from .kernel import Placements
from .model import Placement, square_matches


def solution_json(n: int, margin: int, placements: list[Placement]) -> dict:
    """The puzzle-level solution: the matches (what counts) and the squares (labels only)."""
    matches = sorted({m for p in placements for m in square_matches(p.size, p.x, p.y)})
    return {"n": n, "margin": margin, "matches": [list(m) for m in matches],
            "squares": [[p.size, p.x, p.y] for p in placements]}


def warm_up() -> None:
    """Compile the search (numba caches it on disk)."""
    search(Placements.build(2), 11)
    search(Placements.build(2), 11, greedy_upto=2)
    beam(Placements.build(2), 2, 11)


def heuristic(n: int | None, params: Any, options: Options, report: Progress,
              question: Question = OPTIMISE) -> Outcome[Any]:
    """The heuristic method: the heuristics alone, given the whole time limit."""
    return solve(n, params, options, report, question, heuristics_only=True)


def solve(n: int | None, params: Any, options: Options, report: Progress,
          question: Question = OPTIMISE, heuristics_only: bool = False) -> Outcome[Any]:
    """The exact method: heuristics for a bound, then the exact (or counting) search.

    With `heuristics_only` the heuristics get the whole time limit; otherwise 20% of it, at most 60 s, and
    only the HASTY stages run; if that share ends before they find a board (a cold numba compile on
    a loaded machine can take it all), they go on into the rest of the limit, since a search with no
    bound has nothing to prove. With `bound` B the exact search starts from B instead: a solution of
    fewer matches is found and proven optimal, or none exists (INFEASIBLE: the proof that a(n) >= B).
    Why: the heuristics' bound can depend on the machine (their time limit), and it is part of the
    journal's key, so a run to be resumed elsewhere names its bound. Deterministic: the seed is unused.
    """
    assert n is not None
    margin = params.margin
    counting = params.all
    deadline = Deadline.after(options.time_limit or None)     # (0: no limit)
    use_threads(options.threads)

    heuristic_deadline = deadline
    if not heuristics_only:                  # keep most of the time for the exact search
        heuristic_deadline = deadline.within(min(60.0, 0.2 * deadline.left()))
    found: list[Placement] = []
    if params.bound and not heuristics_only:     # the journal's key then holds B, not a heuristic's value
        ub, how = params.bound, "--bound"
    else:
        ub, found, how = upper_bound(n, margin, heuristic_deadline, params.diagonal_above, patient=heuristics_only)
        if not found and heuristic_deadline is not deadline and not deadline.passed():
            ub, found, how = upper_bound(n, margin, deadline, params.diagonal_above, patient=heuristics_only)
        if not found:
            return Outcome(complete=False, message="time limit before the heuristics found a solution")
        report(Outcome(ub, solution_json(n, margin, found), complete=False))
    if heuristics_only:
        return Outcome(ub, solution_json(n, margin, found), complete=False, message=f"heuristic bound ({how})")

    settings = Settings.of(options)
    pooled = pooled_for(n) if params.pooled is None else params.pooled
    out = exact(n, margin, ub, counting, deadline, settings, lambda part: report(
        Outcome(part.best, solution_json(n, margin, part.witness or []), complete=False)), pooled)
    if out.best is not None and out.witness:
        found = out.witness
    best = out.best if out.best is not None else ub
    sol = solution_json(n, margin, found)
    searched = f"{out.positions:,} positions searched (pooled {pooled})"
    if not found:                             # --bound B, and nothing cheaper than B found
        if out.complete:
            return Outcome(positions=out.positions,           # infeasible: the proof that a(n) >= ub
                           message=f"proved by exhaustive search: no board of fewer than {ub} matches, "
                                   f"{searched}; assumes all squares within {margin} of the largest")
        return Outcome(positions=out.positions, complete=False,
                       message=f"time limit; nothing cheaper than {ub} found; {searched}")
    if not out.complete:
        return Outcome(best, sol, positions=out.positions, complete=False,
                       message=f"time limit; best from {'exact search' if out.witness else how}; "
                              f"{searched}")
    msg = f"proved optimal by exhaustive search, {searched} (start bound {ub} from {how}"
    msg += f"; assumes all squares within {margin} of the largest)"
    if counting:
        msg += f"; {out.count} optimal solutions (largest two share the top-left corner, "
        msg += "diagonal mirror images once, a free placement taken at once)"
    return Outcome(best, sol, count=out.count if counting else 0, positions=out.positions, message=msg)
