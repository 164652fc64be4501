"""Cube splits of enigma82's last `sat` call, in CaDiCaL conflicts against the whole call on the same
CNF (docs/notes/trigrid.md, section 11; issue 62). Each split is a word; one JSON line per split:

    python scripts/trigrid_cube_splits.py 8 whole shuffle:1 tiles:26 lookahead:3:1 activity:3:10000:1 \\
        seeded:1:32000:1 dynamic:40000

- whole: the refutation of "at most a(N) - 1 matches" in one CaDiCaL; shuffle:SEED the same with its
  clauses shuffled (the spread of the whole call's count); lex:SEED the same with the lex-leader clauses
  of the grid's 5 symmetries (as `sat:cd195+lex`), shuffled unless SEED is 0;
- tiles:PER: today's split (cubes.refine, 415 cubes over the central tile);
- lookahead:DEPTH:PER: march-style, each free match scored by the product of the literals each of its
  sides propagates, failed literals fixed, the best branched on, to DEPTH;
- activity:K:BUDGET:PER: the K matches most frequent in the lemmas of BUDGET conflicts of the whole
  call, every sign of them (2^K cubes);
- seeded:K:PROBE:PER: activity's cubes after a probe of PROBE conflicts, each task's solver seeded
  with the probe's live lemmas of at most LEMMA_MAX literals; the probe's conflicts count (it runs
  before the tasks: the wall time is the probe's and the largest task's);
- dynamic:BUDGET: a cube that is not refuted in BUDGET conflicts is split on the match most frequent
  in its own lemmas; its solver goes on with one half, a fresh one takes the other.
PER is the cubes each fresh solver (a task) refutes in turn under assumptions, 0 for all in one.
A line gives the cubes, the tasks, their conflicts in all and the largest task's; where there are
tasks, each one's CPU seconds on one core and the projected wall time on 2, 16 and 128 workers (the
probe, then the tasks longest first on the free workers: `makespan`).
"""
from __future__ import annotations

import itertools
import json
import random
import sys
import time
from collections.abc import Sequence

from pysat.solvers import Solver

from workbench.models.core import HittingSet, lex_leader
from workbench.puzzles import get
from workbench.puzzles.trigrid import cubes as tiles
from workbench.puzzles.trigrid.model import grid
from workbench.puzzles.trigrid.subgrid import proven_minima

SOLVER, SHAPES = tiles.SAT_SOLVER, ("quad",)
Clauses = list[list[int]]
Cube = tuple[int, ...]
WORKERS = (2, 16, 128)              # the projection's cluster sizes


def whole(clauses: Clauses) -> int:
    with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
        assert solver.solve() is False
        return int(solver.accum_stats()["conflicts"])


def conquer(clauses: Clauses, cubes: Sequence[Cube], per_task: int) -> tuple[list[int], list[float]]:
    """Each task's conflicts and CPU seconds: its cubes refuted one after the other in one fresh solver."""
    each, seconds = [], []
    for i in range(0, len(cubes), per_task or len(cubes)):
        began = time.process_time()
        with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
            for cube in cubes[i:i + (per_task or len(cubes))]:
                assert solver.solve(assumptions=list(cube)) is False
            each.append(int(solver.accum_stats()["conflicts"]))
        seconds.append(time.process_time() - began)
    return each, seconds


def makespan(seconds: Sequence[float], workers: int) -> float:
    """The wall time of the tasks on `workers` cores, each taking the longest task left when free
    (longest first, within 4/3 of the best schedule; the task layer hands tasks out in their own
    order, which can take longer when there are more tasks than workers)."""
    free = [0.0] * workers
    for s in sorted(seconds, reverse=True):
        free[free.index(min(free))] += s
    return max(free)


def lookahead(clauses: Clauses, matches: int, depth: int) -> list[Cube]:
    leaves: list[Cube] = []
    with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
        def branch(cube: Cube, depth: int) -> None:
            while True:
                ok, base = solver.propagate(assumptions=list(cube))
                if not ok:
                    return
                fixed, best, failed = {abs(lit) for lit in base}, (-1.0, 0), 0
                for v in (v for v in range(1, matches + 1) if v not in fixed):
                    (up, on), (down, off) = (solver.propagate(assumptions=[*cube, lit]) for lit in (v, -v))
                    if not (up or down):
                        return
                    if not (up and down):
                        failed = v if up else -v
                        break
                    best = max(best, ((len(on) - len(base) + 0.1) * (len(off) - len(base) + 0.1), -v))  # ties: the first
                if not failed:
                    break
                cube += (failed,)
            if depth == 0 or not best[1]:
                leaves.append(cube)
            else:
                branch(cube + (-best[1],), depth - 1)
                branch(cube + (best[1],), depth - 1)
        branch((), depth)
    return leaves


def most_active(solver: Solver, matches: int, cube: Cube, k: int) -> list[int]:
    """The k matches outside the cube most frequent in the solver's lemmas (it runs with a proof)."""
    return [v for v, _ in tiles.read_proof(solver.get_proof(), matches, cube)[0].most_common(k)]


def probe(clauses: Clauses, matches: int, k: int, budget: int) -> tuple[list[int], Clauses, int]:
    """BUDGET conflicts of the whole call: its k most active matches, its live lemmas of at most
    LEMMA_MAX literals (implied by the clauses, so they may seed any cube), its conflicts."""
    with Solver(name=SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
        solver.conf_budget(budget)
        solver.solve_limited()
        seen, live = tiles.read_proof(solver.get_proof(), matches)
        spent = int(solver.accum_stats()["conflicts"])
    return [v for v, _ in seen.most_common(k)], [list(c) for c in live], spent


def lex_clauses(hs: HittingSet, below: int) -> Clauses:
    """The whole call with the lex-leader clauses of `hs.symmetries` (sat:cd195+lex's formula)."""
    from workbench.certify import at_most_clauses

    base = lex_leader(hs)
    counter, _ = at_most_clauses(hs, below - 1, base.n_vars)
    return [list(c) for c in base.hard + counter]


def orbit_cubes(n: int, ranked: Sequence[int], size: int) -> list[tuple[Cube, list[list[int]]]]:
    """A representative cube of each class of assignments of the orbits of the ranked matches (until
    `size` are taken) under the grid's symmetries, with its stabiliser's permutations."""
    perms = grid(n).symmetries()
    group = [list(range(len(perms[0])))] + perms
    taken: list[int] = []
    for v in ranked:
        orbit = sorted({g[v - 1] + 1 for g in group})
        taken += [] if set(orbit) & set(taken) else orbit
        if len(taken) >= size:
            break
    classes: dict[tuple[int, ...], None] = {}
    for bits in itertools.product((1, 0), repeat=len(taken)):
        value = dict(zip(taken, bits))
        classes[min(tuple(value[g.index(v - 1) + 1] for v in taken) for g in group)] = None
    found = []
    for bits in classes:
        value = dict(zip(taken, bits))
        stabiliser = [g for g in perms if all(value[g[v - 1] + 1] == value[v] for v in taken)]
        found.append((tuple(v if b else -v for v, b in zip(taken, bits)), stabiliser))
    return found


def dynamic(clauses: Clauses, matches: int, budget: int) -> tuple[int, list[int]]:
    """The cubes refuted and each task's conflicts."""
    queue: list[Cube] = [()]
    each, refuted = [], 0
    while queue:
        cube: Cube = queue.pop()
        with Solver(name=SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
            while True:
                solver.conf_budget(budget)
                if solver.solve_limited(assumptions=list(cube)) is False:
                    refuted += 1
                    break
                (v,) = most_active(solver, matches, cube, 1)
                queue.append(cube + (-v,))
                cube += (v,)
            each.append(int(solver.accum_stats()["conflicts"]))
    return refuted, each


def measure(n: int, split: str) -> dict[str, object]:
    puzzle = get("enigma82")
    optimum = proven_minima("enigma82", lambda k, board: puzzle.check(k, board), n + 1)[n]
    clauses, matches = [list(c) for c in tiles.formula(SHAPES, n, optimum)], len(grid(n).matches)
    kind, *args = split.split(":")
    number, probed, probe_seconds, seconds, each = [int(a) for a in args], 0, 0.0, list[float](), list[int]()
    began = time.time()
    if kind == "lex":
        clauses = lex_clauses(HittingSet(matches, tiles.hitting_set(SHAPES, n).sets, symmetries=grid(n).symmetries()),
                              optimum)
    if kind in ("whole", "shuffle", "lex"):
        if number and number[0]:
            random.Random(number[0]).shuffle(clauses)
        count, each = 1, [whole(clauses)]
    elif kind == "orbit":
        probe_began = time.process_time()
        ranked, lemmas, probed = probe(clauses, matches, tiles.RANKED, number[0])
        probe_seconds = time.process_time() - probe_began
        found = orbit_cubes(n, ranked, number[1])
        top = max(abs(lit) for c in clauses + lemmas for lit in c)      # the stabilisers' lex variables go above
        for cube, stabiliser in found:
            lex = lex_leader(HittingSet(matches, [], symmetries=stabiliser)).hard
            shifted = [[lit if abs(lit) <= matches else (lit + top if lit > 0 else lit - top) for lit in c] for c in lex]
            (spent,), (took,) = conquer(clauses + lemmas + shifted, [cube], 1)
            each.append(spent)
            seconds.append(took)
        count = len(found)
    elif kind == "dynamic":
        count, each = dynamic(clauses, matches, number[0])
    elif kind in ("activity", "seeded"):
        if len(number) > 3:
            random.Random(number[3]).shuffle(clauses)
        probe_began = time.process_time()
        active, lemmas, spent = probe(clauses, matches, number[0], number[1])
        cubes = tiles.signs(tuple(active))
        probe_seconds = time.process_time() - probe_began if kind == "seeded" else 0.0     # as `probed` below
        (each, seconds), count = conquer(clauses + (lemmas if kind == "seeded" else []), cubes, number[2]), len(cubes)
        probed = spent if kind == "seeded" else 0        # the probe is the seeded split's work, not activity's
    else:
        cubes = tiles.refine(SHAPES, n, 0) if kind == "tiles" else lookahead(clauses, matches, number[0])
        (each, seconds), count = conquer(clauses, cubes, number[-1]), len(cubes)
    return {"n": n, "refute": f"at most {optimum - 1}", "split": split, "cubes": count, "tasks": len(each),
            "conflicts": probed + sum(each), "probe": probed, "largest task": max(each), "seconds": round(time.time() - began, 1),
            **({"probe seconds": round(probe_seconds, 1), "task seconds": [round(s, 1) for s in seconds],
                "projected wall": {w: round(probe_seconds + makespan(seconds, w), 1) for w in WORKERS}}
               if seconds else {})}


if __name__ == "__main__":
    for word in sys.argv[2:]:
        print(json.dumps(measure(int(sys.argv[1]), word)), flush=True)
