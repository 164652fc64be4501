"""The hard refutation of the `sat` backend ("every shape hit with at most cost - 1 matches removed")
split into cubes, each an ordinary SAT call, run as tasks on the task layer (search/tasks.py):
journaled, resumable after a kill or on a copy of the journal elsewhere, spread over threads or a
Dask cluster.

The default split starts with a probe: PROBE conflicts of the whole call, with its proof. If it
refutes the call there are no cubes; if not, the cubes are both signs of its ACTIVE match most
frequent in the lemmas (a tautology: they cover the space), a task each, and every task's solver
starts with the probe's live lemmas of at most LEMMA_MAX literals (implied by the formula, so they
hold in every cube; the first tasks carry them, and a process that runs a handed-back part
computes the probe again, once, as it is the same everywhere: no journal carries them). With
probe 0 the split is the tiles': the grid is tiled with up-pointing sub-triangles of side
REGION_SIDE (the regions, the tile nearest the centre first), and the cubes
are every assignment of region 0 that spoils the shapes lying wholly inside it (any other
assignment leaves such a shape whole), BATCH a task. Either way a task refutes its cubes one after
the other in one CaDiCaL under assumptions; past its budget of conflicts (SPLIT_AFTER for the tiles,
SEEDED_SPLIT_AFTER for the probe's cubes) it hands back the cubes it has not refuted, halved, or a
lone cube split in two on the probe's next most active match (a seeded cube), or by every such
assignment of the next region (a tile's; a partition of the cube again). `covers` checks that cubes
cover the space by a SAT call on their negation, `certify` with checked LRAT proofs. The budgets are
in conflicts, not seconds, and each task starts a fresh solver, so the tasks and their counters are
the same on every machine, in every order and after every resume. The tasks share the best cost
found (Split.shares_best): a cube refutes "a board cheaper than the best so far inside me"; one that
finds such a board descends inside itself, as `sat` does (with a probe of its own at that bound).

Why this split, measured in conflicts against the whole call on the same CNF (docs/notes/trigrid.md,
section 11; scripts/trigrid_cube_splits.py): fixing matches barely eases a counting refutation, so
every split into independent solvers costs more than the whole call: enigma82 N = 9, the tiles' 415
cubes in 16 tasks 16x, lookahead (march-style) or activity cubes in 2 tasks 2.6x and 2.15x, and
each task stays about as hard as the whole call. What pays is sharing lemmas: seeded with the
probe's, the 2 cubes cost 1.37x, 1.38x, 1.07x and 1.01x the whole call at N = 7, 8, 9, 10 (a probe
of a quarter of it), 0.82x at N = 10 with the 100k probe, the probe and the larger task about
half to two thirds of it. More cubes cost more (8 cubes 1.75x at N = 9), so ACTIVE = 1: two tasks,
one per core of the acceptance's machine. End to end, one core each beside `sat`: N = 11 1.30x,
N = 12 1.00x (1,289 against 1,295 CPU s), once the probe descends to the optimum before it splits.
"""
from __future__ import annotations

import hashlib
import itertools
import math
import threading
import time
from collections import Counter
from dataclasses import replace
from functools import lru_cache, partial
from typing import Any, NamedTuple

from ...models.core import OPTIMISE, HittingSet, Options, Question, greedy_hitting_set, hitting_set_to_maxsat
from ...search import tasks
from ...search.journal import Codec, integer, plain_in
from ...search.outcome import Outcome, Progress
from ...search.tasks import Settings, Split
from .check import _is_match, check
from .model import grid, shape_sets
from .puzzle import N_MAX, TriGridParams

SAT_SOLVER = "cd195"
REGION_SIDE = 2             # the regions' side: sub-triangles of 9 matches
BATCH = 26                  # cubes a task refutes in one solver (415 cubes: 16 tasks)
SPLIT_AFTER = 2_000_000     # conflicts after which a task of the tiles hands back what it has not refuted
SEEDED_SPLIT_AFTER = 200_000_000    # the same for a seeded cube: its conflicts are lost when it hands back, and
# enigma82's cubes grow about 6x per N (N = 12: 9M each), so N = 13's (about 60M) would each waste 40M at the old
# budget; 200M is about 4 hours of one core at N = 12's 14,500 a second, what a kill may lose of one task
STEP = 20_000               # conflicts between looks at the clock (CaDiCaL cannot be interrupted)
DESCENT = 20_000            # conflicts each whole-formula call of the descent to a good board may take
SHAPES = ("triangle", "quad")
PROBE = 400_000             # conflicts of the whole call whose short lemmas seed every cube (0: the tiles alone):
# it also descends, and enigma82 N = 11 needs 325k and 153k for its last two boards (cubes made above the
# optimum descend again in each task: 7.9M conflicts with 100k against 3.5M for the whole refutation)
ACTIVE = 1                  # the probe's most active matches split on: 2 ** ACTIVE cubes, a task each
RANKED = 32                 # the probe's most active matches kept: a seeded cube handed back splits on the next
LEMMA_MAX = 10              # the longest of the probe's lemmas a cube's solver is given

Cube = tuple[int, ...]      # the fixed literals
Seeds = tuple[int, tuple[Cube, ...]]    # the probe's lemmas and the bound they were learnt under
# (shapes, n, conflicts before a hand-back, the probe's conflicts, regions fixed, its cubes, the probe's lemmas
# when the task carries them, None in a handed-back part: its process computes them): a task of the split
Task = tuple[tuple[str, ...], int, int, int, int, tuple[Cube, ...], Seeds | None]
Board = list[list[list[int]]]


class Probe(NamedTuple):
    answer: bool | None
    active: tuple[int, ...]
    lemmas: tuple[Cube, ...]
    conflicts: int
    removed: frozenset[int]
    ranked: tuple[int, ...]


@lru_cache(maxsize=4)
def hitting_set(shapes: tuple[str, ...], n: int) -> HittingSet:
    return HittingSet(len(grid(n).matches), shape_sets(n, shapes))


@lru_cache(maxsize=4)
def formula(shapes: tuple[str, ...], n: int, below: int) -> tuple[list[int], ...]:
    """Every shape hit and at most below - 1 matches removed (the counter of certify.py, as `sat`)."""
    from ...certify import at_most_clauses

    hs = hitting_set(shapes, n)
    base = hitting_set_to_maxsat(hs)
    counter, _ = at_most_clauses(hs, below - 1, base.n_vars)
    return tuple(base.hard + counter)


@lru_cache(maxsize=16)
def regions(n: int) -> tuple[tuple[int, ...], ...]:
    """The matches of each tile (up-pointing sub-triangles of side REGION_SIDE), the tiles nearest
    the grid's centre first (their cubes were measured 3.5x cheaper than a corner's)."""
    g, side, tiles = grid(n), REGION_SIDE, []
    for y in range(0, n - side + 1, side):
        for x in range(0, n - side + 1 - y, side):
            points = {(x + i, y + j) for j in range(side + 1) for i in range(side + 1 - j)}
            matches = tuple(i for i, (a, b) in enumerate(g.matches) if a in points and b in points)
            centre = (3 * x + side - n, 3 * y + side - n)      # 3 x (the tile's centre - the grid's)
            tiles.append((centre[0] ** 2 + centre[0] * centre[1] + centre[1] ** 2, matches))
    return tuple(matches for _, matches in sorted(tiles))


def region_clauses(shapes: tuple[str, ...], n: int, regions_fixed: int) -> list[list[int]]:
    """The clauses of the shapes lying wholly inside the first `regions_fixed` regions."""
    inside = {e for region in regions(n)[:regions_fixed] for e in region}
    return [[e + 1 for e in s] for s in hitting_set(shapes, n).sets if inside.issuperset(s)]


def refine(shapes: tuple[str, ...], n: int, level: int, cube: Cube = ()) -> list[Cube]:
    """The cube (fixing `level` regions) split by every assignment of the next region that hits
    each shape lying wholly inside it: a partition of the cube, in a fixed order."""
    from pysat.solvers import Solver

    region = regions(n)[level]
    found: list[Cube] = []
    with Solver(name=SAT_SOLVER, bootstrap_with=region_clauses(shapes, n, level + 1)) as solver:
        for lit in cube:
            solver.add_clause([lit])
        while solver.solve():
            model = set(solver.get_model())
            found.append(tuple(e + 1 if e + 1 in model else -(e + 1) for e in region))
            solver.add_clause([-lit for lit in found[-1]])
    return sorted(cube + more for more in found)


def batches(shapes: tuple[str, ...], n: int, split_after: int, probe: int, level: int, cubes: list[Cube],
            size: int = BATCH, seeds: Seeds | None = None) -> list[Task]:
    return [(shapes, n, split_after, probe, level, tuple(cubes[i:i + size]), seeds)
            for i in range(0, len(cubes), size)]


@lru_cache(maxsize=4)
def probed(shapes: tuple[str, ...], n: int, below: int, probe: int) -> Probe:
    """`probe` conflicts of the whole call ("fewer than `below` matches"), with its proof: its
    answer (None: not within the budget), its ACTIVE matches most frequent in the lemmas, its live
    lemmas of at most LEMMA_MAX literals (implied by the formula, so any cube may use them), its
    conflicts, and the removed matches of the board it found. The same on every machine (a
    conflict budget), so a process computes it once."""
    from pysat.solvers import Solver

    matches = len(grid(n).matches)
    with Solver(name=SAT_SOLVER, bootstrap_with=formula(shapes, n, below), with_proof=True) as solver:
        solver.conf_budget(probe)            # one call: the lemmas of one uninterrupted run
        answer, spent = solver.solve_limited(), solver.accum_stats()["conflicts"]
        seen, live = read_proof(solver.get_proof(), matches)
        removed = frozenset(lit - 1 for lit in solver.get_model() if 0 < lit <= matches) if answer else frozenset()
    ranked = tuple(v for v, _ in seen.most_common(RANKED))
    return Probe(answer, ranked[:ACTIVE], live, spent, removed, ranked)


def read_proof(lines: list[str], matches: int, fixed: Cube = ()) -> tuple[Counter[int], tuple[Cube, ...]]:
    """How often each match outside `fixed` occurs in a DRUP proof's lemmas (its activity: the
    split variables), and the lemmas still live at its end of at most LEMMA_MAX literals."""
    seen, live, inside = Counter[int](), dict[frozenset[int], Cube](), {abs(lit) for lit in fixed}
    for line in lines:
        lemma = tuple(int(t) for t in line.split() if t not in ("d", "0"))
        if line.startswith("d"):
            live.pop(frozenset(lemma), None)
            continue
        seen.update(v for v in map(abs, lemma) if v <= matches and v not in inside)
        if 0 < len(lemma) <= LEMMA_MAX:
            live[frozenset(lemma)] = lemma
    return seen, tuple(live.values())


def signs(variables: tuple[int, ...]) -> list[Cube]:
    """Every assignment of the variables: cubes whose disjunction is a tautology."""
    return [tuple(v if bit else -v for v, bit in zip(variables, bits))
            for bits in itertools.product((True, False), repeat=len(variables))]


def covers(shapes: tuple[str, ...], n: int, level: int, cubes: list[Cube]) -> bool:
    """Whether the cubes cover every assignment that hits the shapes inside the first `level`
    regions: those clauses and the negation of every cube, refuted by one SAT call."""
    from pysat.solvers import Solver

    with Solver(name=SAT_SOLVER, bootstrap_with=region_clauses(shapes, n, level) + _negations(cubes)) as solver:
        return not solver.solve()


def _negations(cubes: list[Cube]) -> list[list[int]]:
    return [[-lit for lit in cube] for cube in cubes]


def removed_board(n: int, removed: set[int]) -> Board:
    return [[list(a), list(b)] for i, (a, b) in enumerate(grid(n).matches) if i in removed]


def run_task(task: Task, stop_at: float, best: int) -> Outcome[Board]:
    """A task's cubes, one after the other in one solver (the lemmas one cube teaches serve the
    next): a board cheaper than `best` in one of them (then cheaper ones, as `sat` descends), or
    their refutation. Past `split_after` conflicts the cubes not yet refuted come back: halved,
    or a lone cube split by the next region. positions: the conflicts spent (the same everywhere)."""
    from pysat.solvers import Solver

    shapes, n, split_after, probe, level, cubes, seeds = task
    found: tuple[int, Board] | None = None
    spent, below, i = 0, best, 0
    budget = None if not split_after or level >= len(regions(n)) else split_after
    while i < len(cubes):
        refuted, lemmas = _seeds(task, below)
        if refuted:
            break
        with Solver(name=SAT_SOLVER, bootstrap_with=formula(shapes, n, below) + lemmas) as solver:
            while i < len(cubes):
                answer, used = limited(solver, stop_at, None if budget is None else budget - spent, cubes[i])
                if answer is not False:
                    break
                i += 1
            spent += used
            if answer is None:
                if time.time() >= stop_at:
                    return Outcome(complete=False, positions=spent)
                rest = list(cubes[i:])
                parts = _further(task, rest[0], below) if len(rest) == 1 else \
                    [(shapes, n, split_after, probe, level, tuple(half), None)
                     for half in (rest[:len(rest) // 2], rest[len(rest) // 2:])]
                return _outcome(found, best, spent, tuple(parts))
            if answer:
                chosen = {lit - 1 for lit in solver.get_model() if 0 < lit <= len(grid(n).matches)}
                below, found = len(chosen), (len(chosen), removed_board(n, chosen))
    return _outcome(found, best, spent, ())


def _further(task: Task, cube: Cube, below: int) -> list[Task]:
    """A lone cube its task could not refute, split again: a seeded cube in two, on the first match
    of the probe's ranking it does not fix (a task each: measured, halving on activity costs far
    less than the tiles' 415-way split, 1.4x against 16x); a tile's cube, or a seeded one past the
    ranking, by every assignment of the next region that spoils its shapes."""
    shapes, n, split_after, probe, level, _, _ = task
    fixed = {abs(lit) for lit in cube}
    ranked = [v for v in probed(shapes, n, below, probe).ranked if v not in fixed] if probe else []
    if ranked:
        return [(shapes, n, split_after, probe, level, (cube + (lit,),), None) for lit in (ranked[0], -ranked[0])]
    return batches(shapes, n, split_after, probe, level + 1, refine(shapes, n, level, cube))


def _seeds(task: Task, below: int) -> tuple[bool, tuple[Cube, ...]]:
    """Whether the probe at `below` refuted the whole call, and its lemmas: those the task carries
    when they were learnt under `below`, else this process's probe."""
    shapes, n, _, probe, _, _, seeds = task
    if seeds and seeds[0] == below:
        return False, seeds[1]
    if not probe:
        return False, ()
    found = probed(shapes, n, below, probe)
    return found.answer is False, found.lemmas


def _outcome(found: tuple[int, Board] | None, best: int, spent: int, parts: tuple[Task, ...]) -> Outcome[Board]:
    cost, board = found or (None, None)
    return Outcome(cost, board, positions=spent, tasks=1, parts=parts, bounds=(best, cost or best))


def limited(solver: Any, stop_at: float, budget: int | None, cube: Cube = ()) -> tuple[bool | None, int]:
    """The call under the cube's assumptions, in steps of STEP conflicts, looking at the clock
    between them; None when the solver's `budget` of conflicts or the clock ran out. Returns the
    answer and the conflicts the solver has spent in all."""
    while True:
        spent = solver.accum_stats().get("conflicts", 0)
        solver.conf_budget(STEP if budget is None else max(1, min(STEP, budget - spent)))
        answer = solver.solve_limited(assumptions=list(cube))
        spent = solver.accum_stats()["conflicts"]
        if answer is not None or (budget is not None and spent >= budget) or time.time() >= stop_at:
            return answer, spent


def _task_in(raw: Any) -> Task:
    """A handed-back task from a journal, its every field checked (a journal is untrusted)."""
    raw = plain_in(raw)
    if not (isinstance(raw, tuple) and len(raw) == 7 and isinstance(raw[0], tuple) and isinstance(raw[5], tuple)
            and raw[6] is None):
        raise ValueError("a task is [shapes, n, split after, probe, level, cubes, null]")
    shapes, n, split_after, probe, level, cubes, _ = raw
    if not shapes or not set(shapes) <= set(SHAPES) or len(set(shapes)) != len(shapes):
        raise ValueError(f"a task's shapes are {shapes!r}")
    integer(n, "a task's n", 1, N_MAX + 1)
    integer(split_after, "a task's conflict budget")
    integer(probe, "a task's probe")
    integer(level, "a task's level", 0, len(regions(n)) + 1)
    matches = len(grid(n).matches)
    if not cubes or not all(isinstance(cube, tuple) and all(type(lit) is int and 0 < abs(lit) <= matches
                                                            for lit in cube) for cube in cubes):
        raise ValueError("a task's cubes hold a literal that is no match")
    return shapes, n, split_after, probe, level, cubes, None


def _board_in(raw: Any) -> Board:
    if not isinstance(raw, list) or not all(map(_is_match, raw)):
        raise ValueError("a board is a list of [[x, y], [x, y]] matches")
    return raw


def _value(n: int, shapes: tuple[str, ...], board: Board) -> int:
    """The board's number of removed matches, as the independent checker (check.py) measures it."""
    verdict = check(n, board, TriGridParams(shapes=shapes))
    if not verdict.ok or verdict.objective is None:
        raise ValueError(f"the checker rejects its board: {verdict.message}")
    return int(verdict.objective)


def codec(n: int, shapes: tuple[str, ...]) -> Codec:
    return Codec(witness_in=_board_in, part_in=_task_in,
                 value=partial(_value, n, shapes))


def descend(shapes: tuple[str, ...], n: int, stop_at: float, report: Progress) -> tuple[int, Board, int]:
    """The greedy board, then cheaper ones from whole-formula calls of at most DESCENT conflicts each,
    as long as they find one (the calls just above the optimum are cheap). Returns the cost, its
    board and the conflicts spent. An answer "none cheaper" is not taken: the cubes prove it."""
    from pysat.solvers import Solver

    chosen, spent = set(greedy_hitting_set(hitting_set(shapes, n))), 0
    while True:
        report(Outcome(len(chosen), removed_board(n, chosen), complete=False))
        with Solver(name=SAT_SOLVER, bootstrap_with=formula(shapes, n, len(chosen))) as solver:
            answer, used = limited(solver, stop_at, DESCENT)
            spent += used
            if not answer:
                return len(chosen), removed_board(n, chosen), spent
            chosen = {lit - 1 for lit in solver.get_model() if 0 < lit <= len(grid(n).matches)}


def search(n: int, shapes: tuple[str, ...], settings: Settings, report: Progress,
           split_after: int | None = None, probe: int = PROBE) -> Outcome[Board]:
    """The descent to a good board, then its refutation: the probe, then the cubes on the task
    layer; complete when the probe or every cube refuted it (or a cube gave a board it refuted
    below). probe 0: the tiles' cubes alone, BATCH a task. split_after: a task's budget of
    conflicts before it hands back (SEEDED_SPLIT_AFTER after a probe, else SPLIT_AFTER)."""
    from ...certify import packing_bound

    if split_after is None:
        split_after = SEEDED_SPLIT_AFTER if probe else SPLIT_AFTER
    stop_at = math.inf if settings.time_limit is None else time.time() + settings.time_limit
    cost, board, spent = descend(shapes, n, stop_at, report)
    if cost <= packing_bound(hitting_set(shapes, n)):
        return Outcome(cost, board, positions=spent, message="a packing of disjoint shapes bounds it: no cubes")
    if probe:
        while (found := probed(shapes, n, cost, probe)).answer:        # the descent goes on with its budget
            spent += found.conflicts
            cost, board = len(found.removed), removed_board(n, set(found.removed))
            report(Outcome(cost, board, complete=False))
            if time.time() >= stop_at:       # each probe is one call the clock cannot stop: look between
                return Outcome(cost, board, positions=spent, complete=False,
                               message="the probe's descent (time limit: incomplete)")
        spent += found.conflicts
        if found.answer is False:
            return Outcome(cost, board, positions=spent,
                           message=f"the probe refuted it ({found.conflicts:,} conflicts): no cubes")
        cubes, level, size, seeds = signs(found.active), 0, 1, (cost, found.lemmas)
        how = f"{len(cubes)} cubes on the probe's {ACTIVE} most active matches, {len(found.lemmas):,} of its " \
              "lemmas each"
    else:
        cubes, level, size, seeds = refine(shapes, n, 0), 1, BATCH, None
        how = f"{len(cubes)} cubes over region 0 of {len(regions(n))} in tasks of {BATCH}"
    split = Split("trigrid cubes", {"n": n, "shapes": list(shapes), "refute below": cost, "region side": REGION_SIDE,
                                    "batch": size, "split after": split_after, "solver": SAT_SOLVER, "probe": probe,
                                    "active": ACTIVE if probe else 0, "lemma max": LEMMA_MAX if probe else 0},
                  batches(shapes, n, split_after, probe, level, cubes, size, seeds), run_task, shares_best=True,
                  codec=codec(n, shapes))
    left = None if settings.time_limit is None else max(0.0, stop_at - time.time())
    out = tasks.run(split, replace(settings, time_limit=left), Outcome(cost, board, positions=spent),
                    lambda part: report(replace(part, complete=False)))
    return replace(out, message=f"{how}, {out.tasks} tasks in all (split after {split_after:,} conflicts), "
                                f"{out.positions:,} conflicts" + ("" if out.complete else " (time limit: incomplete)"))


def solve(n: int | None, params: Any, options: Options, report: Progress,
          question: Question = OPTIMISE) -> Outcome[Board]:
    """The `cubes` method: the search above on the task layer. python-sat holds the GIL while
    CaDiCaL solves (measured: a Python thread beside it stalls), so threads would refute one cube at
    a time: with more than one thread and no --cluster the tasks go to a local Dask cluster of that
    many worker processes."""
    assert n is not None
    cluster = options.cluster or (f"local:{options.threads}" if options.threads > 1 else None)
    settings = Settings(options.threads, options.time_limit, cluster, fresh=options.fresh, quiet=options.quiet)
    return search(n, tuple(params.shapes), settings, report)


_FORMULAS = threading.Lock()    # python-sat's formulas share one variable pool per class (Formula._vpool):
                                # two threads building a CNF at once broke it ("list modified during sort")


def certificate(clauses: list[list[int]]) -> dict[str, Any]:
    """CaDiCaL's refutation of `clauses`, checked by the LRAT checker (lrat.py) against
    exactly these clauses, whose DIMACS text's hash it keeps with the proof's size."""
    from pysat.formula import CNF

    from ...certify import check_refutation, refutation

    with _FORMULAS:
        dimacs = CNF(from_clauses=clauses).to_dimacs()
    cnf_sha256 = hashlib.sha256(dimacs.encode()).hexdigest()
    began = time.perf_counter()
    refuted = refutation(clauses)
    if refuted is None:
        return {"verdict": "SATISFIABLE", "cnf_sha256": cnf_sha256}
    solved = time.perf_counter()
    checked = check_refutation(refuted, dimacs)
    return {"verdict": "VALID" if checked.valid else "INVALID", "cnf_sha256": cnf_sha256,
            "proof_bytes": checked.proof_bytes, "solve_seconds": solved - began, "check_seconds": checked.check_seconds}


def cube_certificate(shapes: tuple[str, ...], n: int, cube: Cube, below: int) -> dict[str, Any]:
    """The certificate that no board of fewer than `below` matches lies in the cube."""
    return certificate([list(c) for c in formula(shapes, n, below)] + [[lit] for lit in cube])


def coverage_certificate(shapes: tuple[str, ...], n: int, level: int, cubes: list[Cube]) -> dict[str, Any]:
    """The certificate that the cubes cover the space (what `covers` asks, refuted and checked)."""
    return certificate(region_clauses(shapes, n, level) + _negations(cubes))


def certify(shapes: tuple[str, ...], n: int, level: int, cubes: list[Cube], below: int,
            threads: int = 2) -> dict[str, Any]:
    """Every cube's certificate and the coverage's, on `threads` threads: VALID only if all are."""
    with tasks.fan_out(threads) as mapped:
        each = list(mapped(partial(cube_certificate, shapes, n, below=below), cubes))
    cover = coverage_certificate(shapes, n, level, cubes)
    valid = cover["verdict"] == "VALID" and all(c["verdict"] == "VALID" for c in each)
    return {"verdict": "VALID" if valid else "INVALID", "cubes": len(each), "coverage": cover,
            "proof_bytes": cover.get("proof_bytes", 0) + sum(c.get("proof_bytes", 0) for c in each),
            "check_seconds": cover.get("check_seconds", 0) + sum(c.get("check_seconds", 0) for c in each),
            "cnf_sha256": [c["cnf_sha256"] for c in each]}
