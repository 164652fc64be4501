"""The depth-first search kernel for matchstick squares (numba), after Chaffin's description.

Each row and column line of the board is one 64-bit word (bit i = the match at offset i is present);
a placement is its corner plus one mask, so the matches it adds are four popcounts. Squares are placed
largest first. The board stays mirror-symmetric about the main diagonal while every square sits on it,
and only then placements below the diagonal are skipped. A placement that adds no match is taken at
once (it can never hurt); otherwise every placement that keeps the cost under the bound is tried.
A branch is cut when some size still to place adds too many matches wherever it goes (cuts.py).

One kernel serves every search: the exact one, the "diagonal" heuristic (sizes above a threshold only
on the main diagonal), the "lattice" one (large sizes only at corners a multiple of 2 or 3 from the
largest square's sides), the "runs" one (large sizes in runs of squares sharing a corner), the
"greedy" one (only the placements adding the fewest matches, ties all tried), the "2s" one (a square
of size s adds at most 2s matches) and combinations of them (heuristics.py). Every search is cut
into prefixes, run as tasks on the task layer (search/tasks/: threads or Dask, the exact search
journaled), sharing the best bound.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import numba
import numpy as np
from numba import njit

from ...search import tasks
from ...search.bits import popcount
from ...search.compiled import borrowed, clock, keep_alive
from ...search.deadline import NEVER, Deadline
from ...search.journal import Codec, integer
from ...search.outcome import Outcome
from ...search.tasks import Settings, Split
from .check import check
from .cuts import (
    MOST_POOLED,
    column_shortfalls,
    doomed,
    drop_pooled,
    held_lines,
    short,
)
from .kernel import Placements, added, exact_placements, put
from .model import Placement, square_matches

CLOCK_EVERY = 0xFFF                    # positions between two looks at the clock (+ 1)
HEURISTIC_PREFIXES = 256               # a heuristic's restricted search is cut into at least this many
EXACT_PREFIXES = 2048                  # the exact search's: many more than 16 cores, so the tail is short
PREFIXES_A_TASK = 4                    # prefixes a task holds at the least (shuffled: fewer, evener tasks)
POOLED = 3                             # sizes cuts.drop_pooled spreads for the children's test (0: off)
POOLED_ONE_UPTO = 33                   # up to this n (included) one size pooled is faster (pooled_for)


@njit(cache=True, inline="always")
def _shares_corner(px, py, a, b) -> bool:
    """Whether placement b (one size smaller) shares a corner with placement a."""
    dx, dy = px[b] - px[a], py[b] - py[a]
    return 0 <= dx <= 1 and 0 <= dy <= 1


@njit(cache=True)
def _dfs(pl, prefix, stop, threshold, rules, pool, shared, deadline, out):
    """Search below the placements `prefix` (one per leading depth) of the placement arrays `pl`
    (PlacementArrays) for solutions cheaper than `threshold` (counting: at most as cheap, and count
    those of the cheapest cost found). rules = (counting, greedy, cap, bounded); `pool` is the pooled
    test's sizes, None when off (_kernel_rules): numba then prunes its branches and compiles a kernel
    apart for each rule set, so a search carries no code of the rules it does not use (issue 63). The
    placements adding fewest matches are tried first (good solutions early). Heuristic
    restrictions per depth d: `greedy[d]` keeps only the placements adding the fewest matches (ties
    all tried), `cap[d]` is the most matches a placement may add, `prun[d]` applies the runs rule
    (Placements.build): a placement shares a corner with the one a size larger, or leads a new run
    (`plead`) when that one did not lead.

    With stop < depths, collect the prefixes reaching depth `stop` into `out` instead (returns their
    number in `count`, -1 on overflow). `shared[0]` is the best cost any thread has found.
    `deadline` is on the monotonic clock (Deadline.at).
    Returns (best cost or threshold, count, best placements, aborted by the deadline, nodes).
    """
    px, py, ps, pdiag, plead, pstart, pend, prun, lines = pl
    counting, greedy, cap, bounded = rules
    depths = pstart.shape[0]
    rows = np.zeros(lines, np.uint64)
    cols = np.zeros(lines, np.uint64)
    path = np.full(depths, -1, np.int64)
    best_path = np.full(depths, -1, np.int64)
    cost, sym = 0, True
    for d in range(prefix.shape[0]):
        k = prefix[d]
        x, y, s = px[k], py[k], ps[k]
        cost += added(rows, cols, x, y, s)
        put(rows, cols, x, y, s)
        sym = sym and pdiag[k]
        path[d] = k
    best, count, aborted = threshold, 0, False
    start = prefix.shape[0]
    if start == depths:                       # nothing left to place
        if cost < best or (counting and cost == best):
            best, count, best_path[:] = cost, 1, path
        return best, count, best_path, aborted, 1
    width = 0
    for d in range(start, depths):
        width = max(width, pend[d] - pstart[d])
    cand = np.empty((depths, width), np.int64)
    cadd = np.empty((depths, width), np.int64)
    tmp = np.empty(width, np.int64)
    tmpa = np.empty(width, np.int64)
    bucket = np.zeros(4 * lines + 2, np.int64)
    ncand = np.zeros(depths, np.int64)
    it = np.zeros(depths, np.int64)
    saved = np.empty((depths, 4), np.uint64)
    saved_cost = np.zeros(depths, np.int64)
    saved_sym = np.zeros(depths, np.bool_)
    held = np.empty((3, lines), np.int64)     # the matches on each line, scratch (cuts)
    pools = (pool, np.empty(MOST_POOLED, np.int64), np.empty((2, lines), np.uint64),    # (drop_pooled)
             np.empty((2, lines), np.int64))
    hint = np.full(depths, -1, np.int64)      # the depth whose size cut the last board at each depth
    owners = (rows, cols, cand, cadd, tmp, tmpa, bucket, ncand, it, saved, saved_cost, saved_sym, held, hint,
              pools[1], pools[2], pools[3])
    rows, cols, cand, cadd, tmp, tmpa = (borrowed(rows), borrowed(cols), borrowed(cand), borrowed(cadd),
                                         borrowed(tmp), borrowed(tmpa))
    bucket, ncand, it, saved = borrowed(bucket), borrowed(ncand), borrowed(it), borrowed(saved)
    saved_cost, saved_sym, held, hint = borrowed(saved_cost), borrowed(saved_sym), borrowed(held), borrowed(hint)
    pools = (pools[0], borrowed(pools[1]), borrowed(pools[2]), borrowed(pools[3]))
    px, py, ps, pdiag, plead = borrowed(px), borrowed(py), borrowed(ps), borrowed(pdiag), borrowed(plead)
    pstart, pend, prun = borrowed(pstart), borrowed(pend), borrowed(prun)
    pl = (px, py, ps, pdiag, plead, pstart, pend, prun, lines)
    for i in range(lines):
        held[0, i], held[1, i] = popcount(rows[i]), popcount(cols[i])
    nodes = 0
    d = start
    expand = True
    while True:
        if expand:                            # list the admissible placements at depth d
            nodes += 1
            if nodes & CLOCK_EVERY == 1:     # (also at the first node)
                if clock() > deadline:
                    aborted = True
                    break
            if shared[0] < best:              # another thread found a cheaper solution:
                best = shared[0]
                if stop == 0:
                    count = 0                 # so this thread's own (if any) are not the cheapest
            room = best - cost - (0 if counting else 1)    # the most a placement may add
            cut = -1
            if bounded:
                cut = doomed(rows, cols, pl, d + 1, room, held, held[2], hint[d])
                if cut >= 0:
                    hint[d] = cut
            if cut >= 0:
                ncand[d], it[d], expand = 0, 0, False
                continue
            nc = 0
            runs = prun[d]
            lead_ok = runs and prun[d - 1] and _shares_corner(px, py, path[d - 2], path[d - 1])
            s = ps[pstart[d]]
            column_shortfalls(held, held[2], lines, s)    # what the lines alone leave to add
            for k in range(pstart[d], pend[d]):
                x, y = px[k], py[k]
                if sym and x > y:
                    continue
                if short(held, 0, y, s) + held[2, x] > room:
                    continue
                if runs and not (lead_ok and plead[k]) and not _shares_corner(px, py, path[d - 1], k):
                    continue
                add = added(rows, cols, x, y, s)
                if add == 0:                  # free: take it and nothing else
                    cand[d, 0], cadd[d, 0], nc = k, 0, 1
                    break
                if add > cap[d] or cost + add > best or (cost + add == best and not counting):
                    continue
                cand[d, nc], cadd[d, nc] = k, add
                nc += 1
            if pool is not None and nc and cadd[d, 0] and d + 1 < depths:
                # the children the pooled sizes prove dead dropped: spread only for a board that has
                # children to test (9% less time at n = 23 than spreading before the loop)
                nc = drop_pooled(rows, cols, pl, d, room, held, hint[d + 1], pools, (cand[d], cadd[d]), nc)
            if greedy[d] and nc > 1:          # only the fewest matches added (ties all kept)
                least = cadd[d, :nc].min()
                kept = 0
                for i in range(nc):
                    if cadd[d, i] == least:
                        cand[d, kept], cadd[d, kept] = cand[d, i], least
                        kept += 1
                nc = kept
            if nc > 1:                        # counting sort on the matches added
                bucket[:] = 0
                for i in range(nc):
                    bucket[cadd[d, i] + 1] += 1
                for a in range(1, bucket.shape[0]):
                    bucket[a] += bucket[a - 1]
                for i in range(nc):
                    j = bucket[cadd[d, i]]
                    tmp[j], tmpa[j] = cand[d, i], cadd[d, i]
                    bucket[cadd[d, i]] += 1
                cand[d, :nc], cadd[d, :nc] = tmp[:nc], tmpa[:nc]
            ncand[d], it[d] = nc, 0
            expand = False
        if it[d] < ncand[d]:
            i = it[d]
            it[d] += 1
            k, add = cand[d, i], cadd[d, i]
            if cost + add > best or (cost + add == best and not counting):
                continue
            x, y, s = px[k], py[k], ps[k]
            saved[d, 0], saved[d, 1], saved[d, 2], saved[d, 3] = rows[y], rows[y + s], cols[x], cols[x + s]
            saved_cost[d], saved_sym[d] = cost, sym
            put(rows, cols, x, y, s)
            held_lines(rows, cols, held, x, y, s)
            cost += add
            sym = sym and pdiag[k]
            path[d] = k
            if d + 1 == depths:               # a complete solution
                if cost < best:
                    best, count = cost, 1
                    best_path[:] = path
                    if cost < shared[0]:
                        shared[0] = cost
                elif counting and cost == best:
                    count += 1
            elif d + 1 == stop:               # a prefix for the parallel phase
                if count < out.shape[0]:
                    out[count, :stop] = path[:stop]
                    count += 1
                else:
                    count = -1
                    break
            else:
                d += 1
                expand = True
                continue
        else:
            if d == start:
                break
            d -= 1
        # undo the placement at depth d
        k = path[d]
        x, y, s = px[k], py[k], ps[k]
        rows[y], rows[y + s], cols[x], cols[x + s] = saved[d, 0], saved[d, 1], saved[d, 2], saved[d, 3]
        held_lines(rows, cols, held, x, y, s)
        cost, sym = saved_cost[d], saved_sym[d]
    keep_alive(owners)
    return best, count, best_path, aborted, nodes


@njit(cache=True, nogil=True)
def _run_prefixes(pl, prefixes, threshold, rules, pool, shared, deadline):
    """The prefixes searched one after the other (one task), sharing the best cost found through
    `shared` with every task of the process. Returns what _dfs returns, for the task as a whole."""
    depths = pl[5].shape[0]
    best, count, aborted, nodes = threshold, 0, False, 0
    best_path = np.full(depths, -1, np.int64)
    dummy = np.zeros((0, depths), np.int64)
    for i in range(prefixes.shape[0]):
        b, c, p, a, nd = _dfs(pl, prefixes[i], 0, best, rules, pool, shared, deadline, dummy)
        nodes += nd
        aborted = aborted or a
        if c and (b < best or count == 0):
            best, count, best_path[:] = b, c, p
        elif c and b == best:
            count += c
        if a:
            break
    return best, count, best_path, aborted, nodes


Source = Placements | tuple[int, int]     # the placements, or (n, margin): the exact search's, rebuilt where it lands


def run_task(task: tuple[Source, np.ndarray, int, tuple, np.ndarray], stop_at: float,
             best: int | None = None) -> Outcome[list[Placement]]:
    """One task of the task layer: prefixes searched under the bound (the threshold, or the best
    cost found so far, whichever is lower). `shared` is the same array for every task of one
    search in this process, so a bound found by one thread reaches the others while they run; the
    outcome says the bound the task started and ended under (its journal keeps them)."""
    source, prefixes, threshold, rules, shared = task
    pl = source if isinstance(source, Placements) else exact_placements(*source)
    if best is not None and best < shared[0]:
        shared[0] = best
    began = int(shared[0])
    at = Deadline.at_wall(stop_at).at
    cost, count, path, aborted, nodes = _run_prefixes(pl.arrays, prefixes, threshold, *_kernel_rules(rules), shared, at)
    bounds = began, int(shared[0])
    if not count:                             # nothing of its own under the bound
        return Outcome(positions=int(nodes), complete=not aborted, tasks=1, bounds=bounds)
    return Outcome(int(cost), pl.decode(path), int(count), int(nodes), not aborted, 1, bounds=bounds)


def alone(task: tuple[Source, np.ndarray, int, tuple, np.ndarray]) -> tuple[Source, np.ndarray, int, tuple, np.ndarray]:
    """The task with a bound of its own (its threshold), shared with no other task: a re-check."""
    source, prefixes, threshold, rules, _ = task
    return source, prefixes, threshold, rules, np.full(1, threshold, np.int64)


def _placement_in(raw: Any) -> Placement:
    size, x, y = raw
    return Placement(integer(size, "size", 1), integer(x, "x"), integer(y, "y"))


def _cost(n: int, placements: list[Placement]) -> int | None:
    """The matches the placements use, by the independent checker (check.py), which finds the squares;
    None for no placements (a count's task that found only boards of the threshold keeps none)."""
    if not placements:
        return None
    matches = sorted({m for p in placements for m in square_matches(p.size, p.x, p.y)})
    verdict = check(n, {"matches": [list(m) for m in matches]})
    if not verdict.ok or verdict.objective is None:
        raise ValueError(f"the checker rejects its board: {verdict.message}")
    return int(verdict.objective)


def codec(n: int, threshold: int | None) -> Codec:
    """How a squares journal stores a board (its placements as [size, x, y]) and measures it; a
    count's rows of the threshold may have none."""
    return Codec(witness_out=lambda board: [[p.size, p.x, p.y] for p in board],
                 witness_in=lambda raw: [_placement_in(p) for p in raw], value=partial(_cost, n), given=threshold)


def search(pl: Placements, threshold: int, counting: bool = False, greedy_upto: int = 0,
           sides: int = 4, bounded: bool = True, deadline: Deadline = NEVER,
           prefixes: int = HEURISTIC_PREFIXES, pooled: int = POOLED) -> Outcome[list[Placement]]:
    """Exhaustive search under `threshold`, on this process's threads. Heuristic restrictions: a
    square of size <= `greedy_upto` only goes where it adds the fewest matches (ties all tried); a
    square of size s adds at most `sides` * s matches. `bounded` cuts a branch when some size still
    to place cannot fit under the bound (cuts.doomed); `pooled` sizes cut a board's children before
    they are laid (cuts.drop_pooled). The outcome's best is None when no
    solution under the threshold was found."""
    settings = Settings(numba.get_num_threads(), journal=False, quiet=True)
    rules = _rules(pl, counting, greedy_upto, sides, bounded, pooled)
    return _search(pl, threshold, rules, deadline, prefixes, settings)


def pooled_for(n: int) -> int:
    """The pooled sizes the exact search uses by default at n. Measured (one pinned core, a(n) from
    a(n) + 1, docs/notes/squares.md): one size is 1.07-1.17x faster than three at n = 28..33; above
    33 three stay (a(34), a(35) and the journaled proofs ran with three, and one was not measured
    there)."""
    return 1 if n <= POOLED_ONE_UPTO else POOLED


def exact(n: int, margin: int, threshold: int, counting: bool, deadline: Deadline, settings: Settings,
          on_better: Callable[[Outcome[list[Placement]]], None] | None = None,
          pooled: int | None = None) -> Outcome[list[Placement]]:
    """The exact (or counting) search of the whole board under `threshold`: cut into many more
    tasks than cores, journaled and run where `settings` say, the bound shared as it improves.
    `pooled` None: pooled_for(n)."""
    pl = exact_placements(n, margin)
    rules = _rules(pl, counting, pooled=pooled_for(n) if pooled is None else pooled)
    return _search(pl, threshold, rules, deadline, EXACT_PREFIXES, settings, (n, margin), on_better)


def _rules(pl: Placements, counting: bool, greedy_upto: int = 0, sides: int = 4,
           bounded: bool = True, pooled: int = POOLED) -> tuple[bool, np.ndarray, np.ndarray, bool, int]:
    """The rules tuple _dfs takes (its docstring); the defaults are the exact search's."""
    sizes = pl.ps[pl.pstart] if len(pl.pstart) else np.zeros(0, np.int64)
    cap = sides * sizes
    cap[:1] = 4 * sizes[:1]                   # the largest square stands alone
    return counting, sizes <= greedy_upto, cap, bounded, pooled if bounded else 0


def _kernel_rules(rules: tuple) -> tuple[tuple, int | None]:
    """The rules tuple (_rules) as _dfs takes it: (counting, greedy, cap, bounded), then the pooled
    test's sizes, None when it is off (its code is pruned)."""
    return rules[:4], rules[4] or None


def _search(pl: Placements, threshold: int, rules: tuple, deadline: Deadline, prefixes: int, settings: Settings,
            source: tuple[int, int] | None = None,
            on_better: Callable[[Outcome[list[Placement]]], None] | None = None) -> Outcome[list[Placement]]:
    """Cut the tree into at least `prefixes` prefixes (where it has that many), group them into
    tasks and run them on the task layer. `source` names the placements where a Dask worker can
    rebuild them ((n, margin)); without it the tasks carry the placements (threads only)."""
    depths = len(pl.pstart)
    arrays = pl.arrays
    shared = np.full(1, threshold, np.int64)
    empty = np.zeros(0, np.int64)
    cut = np.zeros((1, 0), np.int64)
    split_nodes = 0                           # (the split's nodes are searched again below)
    kernel_rules = _kernel_rules(rules)
    for stop in range(1, depths):             # deepen the split until there are enough prefixes
        out = np.zeros((64 * prefixes, stop), np.int64)
        _, n_out, _, aborted, nodes = _dfs(arrays, empty, stop, threshold, *kernel_rules, shared, deadline.at, out)
        split_nodes += nodes
        if n_out < 0 or aborted:
            break
        cut = out[:n_out]
        if n_out >= prefixes:
            break
    settings = replace(settings, time_limit=None if deadline.at == math.inf else deadline.left())
    chunk = max(1, -(-len(cut) // max(1, prefixes // PREFIXES_A_TASK)))
    order = np.random.default_rng(0).permutation(len(cut))   # big and small subtrees mixed
    work = [(source or pl, cut[order[i:i + chunk]], threshold, rules, shared) for i in range(0, len(cut), chunk)]
    identity = {"board": list(source) if source else [depths], "threshold": threshold, "counting": bool(rules[0]),
                "prefixes": prefixes, "pooled": int(rules[4])}
    split = Split("squares", identity, work, run_task, shares_best=True,
                  codec=codec(depths, threshold if rules[0] else None), alone=alone)
    return tasks.run(split, settings, Outcome(positions=split_nodes), on_better)
