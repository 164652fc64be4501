"""Native depth-first search for matchstick squares (numba), after Chaffin's description.

Each row and column line of the board is one 64-bit word (bit i = the match at offset i is present);
a placement is its corner plus one mask, so the matches it adds are four popcounts. Squares are placed
largest first. The board stays mirror-symmetric about the main diagonal while every square sits on it,
and only then placements below the diagonal are skipped. A placement that adds no match is taken at
once (it can never hurt); otherwise every placement that keeps the cost under the bound is tried.
A branch is cut when some size still to place adds too many matches wherever it goes (_doomed).

One kernel serves every search: the exact one, the "diagonal" heuristic (sizes above a threshold only
on the main diagonal), the "lattice" one (large sizes only at corners a multiple of 2 or 3 from the
largest square's sides), the "runs" one (large sizes in runs of squares sharing a corner), the
"greedy" one (only the placements adding the fewest matches, ties all tried), the "2s" one (a square
of size s adds at most 2s matches) and combinations of them, the small sizes below an idealised
ladder (`ladder`), and the polishing of a solution with most of its squares held in place. Every
search is cut into prefixes, run as tasks on the task layer (search/tasks.py: threads or Dask, the
exact search journaled), sharing the best bound.
"""
from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numba
import numpy as np
from numba import njit

from ...models.core import OPTIMISE, Options, Question
from ...search import tasks
from ...search.bits import low_mask, popcount
from ...search.compiled import clock
from ...search.deadline import NEVER, Deadline
from ...search.outcome import Outcome, Progress
from ...search.tasks import Settings, Split
from ...search.threads import use_threads
from .beam import beam
from .kernel import Placements, added, exact_placements, put
from .model import Placement, square_matches

INF = 1 << 30
CLOCK_EVERY = 0xFFF                    # positions between two looks at the clock (+ 1)
HEURISTIC_PREFIXES = 256               # a heuristic's restricted search is cut into at least this many
EXACT_PREFIXES = 2048                  # the exact search's: many more than 16 cores, so the tail is short
PREFIXES_A_TASK = 4                    # prefixes a task holds at the least (shuffled: fewer, evener tasks)
LOOKAHEAD = 0                          # sizes after the next one that _lookahead tries (0: off; see there)
SPREADS = 4                            # sizes that cut whose added matches _lookahead keeps (_spread)


@njit(cache=True, inline="always")
def _shares_corner(px, py, a, b) -> bool:
    """Whether placement b (one size smaller) shares a corner with placement a."""
    dx, dy = px[b] - px[a], py[b] - py[a]
    return 0 <= dx <= 1 and 0 <= dy <= 1


@njit(cache=True, inline="always")
def _held(rows, cols, held, x, y, s) -> None:
    """Recount the matches on the four lines of the square of size s at (x, y) (for _doomed)."""
    held[0, y], held[0, y + s] = popcount(rows[y]), popcount(rows[y + s])
    held[1, x], held[1, x + s] = popcount(cols[x]), popcount(cols[x + s])


@njit(cache=True, inline="always")
def _short(held, axis, i, s):
    """The matches a square of size s must still add to its two sides on lines i and i + s of one
    axis (0: rows, 1: columns), from the lines' counts alone: a line holding h has s - h to add."""
    return max(0, s - held[axis, i]) + max(0, s - held[axis, i + s])


@njit(cache=True, inline="always")
def _fits(rows, cols, pl, d, most, held, miss_c) -> bool:
    """Whether the size of depth d has a placement adding at most `most` matches (for _doomed).

    Most of the scan is skipped without looking at a placement: the lines y and y + s leave at
    least _short(rows y) to add to a square's top and bottom, the columns x and x + s _short(columns
    x) to its sides, so a corner whose two shortfalls exceed `most` cannot fit, nor can any corner
    of a row y whose shortfall plus the least column shortfall does. miss_c is scratch space."""
    px, py, ps, _, _, pstart, pend, _, lines = pl
    s = ps[pstart[d]]
    w = lines - s                             # corners a side (the whole board's)
    least_c = 4 * s
    for x in range(w):
        miss_c[x] = _short(held, 1, x, s)
        least_c = min(least_c, miss_c[x])
    if least_c > most:
        return False
    if pend[d] - pstart[d] == w * w:          # every corner, row by row (Grid.placements' order)
        for y in range(w):
            miss_r = _short(held, 0, y, s)
            if miss_r + least_c > most:
                continue
            for x in range(w):
                if miss_r + miss_c[x] <= most and added(rows, cols, x, y, s) <= most:
                    return True
        return False
    for k in range(pstart[d], pend[d]):
        x, y = px[k], py[k]
        if _short(held, 0, y, s) + miss_c[x] <= most and added(rows, cols, x, y, s) <= most:
            return True
    return False


@njit(cache=True, inline="always")
def _doomed(rows, cols, pl, first, most, held, miss_c, hint) -> int:
    """The depth of a size still to place (depths first..) that adds more than `most` matches
    wherever it goes, or -1 when there is none. When there is one, no completion of this board can
    cost at most (cost now) + `most`.

    Why that is a proof: squares are placed largest first and a board only gains matches. In any
    completion, the square of a size still to place sits at some placement p of that size, and
    every match of p missing from the board now is on the final board, so the final cost is at
    least (cost now) + |p minus board| >= (cost now) + (the fewest matches any placement of that
    size adds now). Taking every placement of the size (not only those the search would still
    allow, such as the mirror-image rule's) keeps the minimum a lower bound. A size s adds at most
    4s matches, so only the sizes with 4s > `most` can cut; each scan (_fits) stops at the first
    placement adding at most `most`. held[0] and held[1] are the matches on each row and column
    line (_held keeps them); miss_c is scratch space.

    `hint`: a depth tried first, the one that cut the board before at the same depth (a sibling,
    mostly). Siblings differ by one square, and the size that cut one usually cuts the next: 5-9%
    less time at n = 24..26, the same positions (the order only changes which proof is found)."""
    ps, pstart, pend = pl[2], pl[5], pl[6]
    if hint >= first and pstart[hint] < pend[hint] and 4 * ps[pstart[hint]] > most \
            and not _fits(rows, cols, pl, hint, most, held, miss_c):
        return hint
    for d in range(first, pstart.shape[0]):
        if pstart[d] == pend[d] or d == hint:
            continue
        if 4 * ps[pstart[d]] <= most:
            break                             # this size and every smaller one fit
        if not _fits(rows, cols, pl, d, most, held, miss_c):
            return d
    return -1


@njit(cache=True, inline="always")
def _spread(rows, cols, pl, d, most, held, miss_c, ur, uc) -> int:
    """The fewest matches a placement of the size of depth d adds to this board, with ur and uc
    (one word per row and column line) set to every match added by one of its placements adding at
    most `most` (_lookahead)."""
    px, py, ps, _, _, pstart, pend, _, lines = pl
    s = ps[pstart[d]]
    mask = low_mask(s)
    ur[:] = 0
    uc[:] = 0
    least = INF
    for x in range(lines - s):
        miss_c[x] = _short(held, 1, x, s)
    for k in range(pstart[d], pend[d]):
        x, y = px[k], py[k]
        if _short(held, 0, y, s) + miss_c[x] > most:
            continue
        add = added(rows, cols, x, y, s)
        if add > most:
            continue
        least = min(least, add)
        hm, vm = mask << np.uint64(x), mask << np.uint64(y)
        ur[y] |= hm & ~rows[y]
        ur[y + s] |= hm & ~rows[y + s]
        uc[x] |= vm & ~cols[x]
        uc[x + s] |= vm & ~cols[x + s]
    return least


@njit(cache=True, inline="always")
def _lookahead(rows, cols, pl, d, most, held, sizes, ur, uc, lows) -> bool:
    """Whether, for one of the `sizes` sizes after the next one (depths d + 1 ..), every placement
    adding at most `most` leaves a board that _doomed cuts with what is left of `most`: then no
    completion of this board costs at most (cost now) + `most`.

    Why that is a proof: in any completion, the square of such a size t sits at some placement q.
    If q adds more than `most`, that completion is already too dear. Otherwise the completion is
    also a completion of this board with q laid on it, which costs |q minus board| more, and every
    size still to place on that board, the next one included, must fit in the rest: _doomed's proof,
    for the board with q. Taking every placement of t (not only those the search would allow, such
    as the mirror-image rule's) keeps it a proof. The next size itself is not looked ahead on: the
    search branches on it at once, and each of its children is checked the same way.

    What it buys (measured, docs/notes/squares.md): _doomed proves that one size cannot fit; most boards
    it lets through are cut one or two sizes later, after the next size has been tried in every
    place (about 25 children a board, each cut by _doomed). Looking ahead on the two sizes after
    the next one finds most of those cuts at the board itself: positions fall 5.5-fold at n = 20,
    8-fold at n = 24, 7.4-fold at n = 26, the boards whose placements are listed 14-fold at n = 24.
    But a cut costs the trial boards it lays (about 16 a call at n = 24), about as many as the
    children it spares, so the CPU time does not fall (n = 26: 8.4 s against 7.6 s): off by default.

    A cheaper proof for most placements q: once a size u has cut one, ur and uc hold every match
    that a placement r of u adding at most `most` adds to this board, and lows the fewest any r
    adds (_spread). Laying q takes off r's count only the matches q adds too, which lie in ur/uc,
    and r (of another size than q) shares at most one row line and one column line with q; an r
    adding more than `most` still adds more than `most` - |q minus board| after q. So when
    |q minus board| + lows - (the most q's new matches on one row line and on one column line
    meet ur/uc) > `most`, u cannot fit after q either, and q is dead without being laid (about
    half of them at n = 24). held[3] is this function's scratch (_doomed uses held[2])."""
    px, py, ps, _, _, pstart, pend, _, lines = pl
    miss_c = held[3]
    for e in range(d + 1, min(d + 1 + sizes, pstart.shape[0])):
        if pstart[e] == pend[e]:
            continue
        t = ps[pstart[e]]
        if 4 * t <= most:
            break                             # this size fits anywhere, and every smaller one
        for x in range(lines - t):
            miss_c[x] = _short(held, 1, x, t)
        alive, killer, known = False, -1, 0
        mask = low_mask(t)
        for k in range(pstart[e], pend[e]):
            x, y = px[k], py[k]
            if _short(held, 0, y, t) + miss_c[x] > most:
                continue
            add = added(rows, cols, x, y, t)
            if add > most:
                continue
            if add == 0:                      # free: the board does not change, so nothing is proved
                alive = True
                break
            hm, vm = mask << np.uint64(x), mask << np.uint64(y)
            dead = False
            for j in range(known):            # the sizes that cut so far, without laying q (_spread)
                shared = (max(popcount(hm & ~rows[y] & ur[j, y]), popcount(hm & ~rows[y + t] & ur[j, y + t]))
                          + max(popcount(vm & ~cols[x] & uc[j, x]), popcount(vm & ~cols[x + t] & uc[j, x + t])))
                if add + lows[j] - shared > most:
                    dead = True
                    break
            if dead:
                continue
            r0, r1, c0, c1 = rows[y], rows[y + t], cols[x], cols[x + t]
            put(rows, cols, x, y, t)
            _held(rows, cols, held, x, y, t)
            cut = _doomed(rows, cols, pl, d, most - add, held, held[2], killer)
            rows[y], rows[y + t], cols[x], cols[x + t] = r0, r1, c0, c1
            _held(rows, cols, held, x, y, t)
            if cut < 0:
                alive = True
                break
            killer = cut
            if known < ur.shape[0]:
                lows[known] = _spread(rows, cols, pl, cut, most, held, held[2], ur[known], uc[known])
                known += 1
        if not alive:
            return True
    return False


@njit(cache=True)
def _dfs(pl, prefix, stop, threshold, rules, shared, deadline, out):
    """Search below the placements `prefix` (one per leading depth) of the placement arrays `pl`
    (PlacementArrays) for solutions cheaper than `threshold` (counting: at most as cheap, and count
    those of the cheapest cost found). rules = (counting, greedy, cap, bounded, ahead) (_rules). The
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
    counting, greedy, cap, bounded, ahead = rules
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
    held = np.empty((4, lines), np.int64)     # the matches on each line, scratch (_doomed, _lookahead)
    ur = np.empty((SPREADS, lines), np.uint64)    # scratch (_lookahead)
    uc = np.empty((SPREADS, lines), np.uint64)
    lows = np.empty(SPREADS, np.int64)
    hint = np.full(depths, -1, np.int64)      # the depth whose size cut the last board at each depth
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
                cut = _doomed(rows, cols, pl, d + 1, room, held, held[2], hint[d])
                if cut >= 0:
                    hint[d] = cut
                elif ahead and _lookahead(rows, cols, pl, d, room, held, ahead, ur, uc, lows):
                    cut = d
            if cut >= 0:
                ncand[d], it[d], expand = 0, 0, False
                continue
            nc, least = 0, INF
            runs = prun[d]
            lead_ok = runs and prun[d - 1] and _shares_corner(px, py, path[d - 2], path[d - 1])
            s = ps[pstart[d]]
            for x in range(lines - s):        # as in _doomed: what the lines alone leave to add
                held[2, x] = _short(held, 1, x, s)
            for k in range(pstart[d], pend[d]):
                x, y = px[k], py[k]
                if sym and x > y:
                    continue
                if _short(held, 0, y, s) + held[2, x] > room:
                    continue
                if runs and not (lead_ok and plead[k]) and not _shares_corner(px, py, path[d - 1], k):
                    continue
                add = added(rows, cols, x, y, s)
                if add == 0:                  # free: take it and nothing else
                    cand[d, 0], cadd[d, 0], nc = k, 0, 1
                    break
                if add > cap[d] or cost + add > best or (cost + add == best and not counting):
                    continue
                if greedy[d]:
                    if add > least:
                        continue
                    if add < least:
                        least, nc = add, 0
                cand[d, nc], cadd[d, nc] = k, add
                nc += 1
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
            _held(rows, cols, held, x, y, s)
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
        _held(rows, cols, held, x, y, s)
        cost, sym = saved_cost[d], saved_sym[d]
    return best, count, best_path, aborted, nodes


@njit(cache=True, nogil=True)
def _run_prefixes(pl, prefixes, threshold, rules, shared, deadline):
    """The prefixes searched one after the other (one task), sharing the best cost found through
    `shared` with every task of the process. Returns what _dfs returns, for the task as a whole."""
    depths = pl[5].shape[0]
    best, count, aborted, nodes = threshold, 0, False, 0
    best_path = np.full(depths, -1, np.int64)
    dummy = np.zeros((0, depths), np.int64)
    for i in range(prefixes.shape[0]):
        b, c, p, a, nd = _dfs(pl, prefixes[i], 0, best, rules, shared, deadline, dummy)
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
    search in this process, so a bound found by one thread reaches the others while they run."""
    source, prefixes, threshold, rules, shared = task
    pl = source if isinstance(source, Placements) else exact_placements(*source)
    if best is not None and best < shared[0]:
        shared[0] = best
    at = Deadline.at_wall(stop_at).at
    cost, count, path, aborted, nodes = _run_prefixes(pl.arrays, prefixes, threshold, rules, shared, at)
    if not count:                             # nothing of its own under the bound
        return Outcome(positions=int(nodes), complete=not aborted, tasks=1)
    return Outcome(int(cost), pl.decode(path), int(count), int(nodes), not aborted, 1)


def ladder(n: int, margin: int, group: int, rows: int, blocks: list[tuple[int, bool]],
           above: int) -> dict[int, Placement]:
    """The sizes above `above` laid out as a ladder. Groups of `group` consecutive sizes share a
    top-left corner; a column holds `rows` groups, `group` apart downwards; block b holds
    blocks[b] = (columns, up) columns (the last entry repeats), each far enough right that its
    largest square ends on the largest square's right side; each block starts right of the one
    before, on the diagonal, or at the top edge if `up`. Why: the ladder solutions found for n = 55,
    56, 58 and 59 (triples, 2 x 2 groups a block) have the plain shape [(2, False)]; n = 57's 1250
    from the beam has blocks of 3 x 3 pairs with one column of pairs up at the top edge, and that
    variant gives n = 54 four matches below its published bound."""
    fixed: dict[int, Placement] = {}
    x, size = margin, n
    for b in itertools.count():
        cols, up = blocks[min(b, len(blocks) - 1)]
        y = margin if up else x
        for j in range(cols * rows * group):
            if size <= above:
                return fixed
            column, row = divmod(j // group, rows)
            fixed[size] = Placement(size, x + column * rows * group, y + row * group)
            size -= 1
        x += cols * rows * group
    return fixed


def search(pl: Placements, threshold: int, counting: bool = False, greedy_upto: int = 0,
           sides: int = 4, bounded: bool = True, deadline: Deadline = NEVER,
           prefixes: int = HEURISTIC_PREFIXES, lookahead: int = LOOKAHEAD) -> Outcome[list[Placement]]:
    """Exhaustive search under `threshold`, on this process's threads. Heuristic restrictions: a
    square of size <= `greedy_upto` only goes where it adds the fewest matches (ties all tried); a
    square of size s adds at most `sides` * s matches. `bounded` cuts a branch when some size still
    to place cannot fit under the bound (_doomed), and, with `lookahead` k > 0, when one of the k
    sizes after the next one cannot go anywhere without that (_lookahead). The outcome's best is
    None when no solution under the threshold was found."""
    settings = Settings(numba.get_num_threads(), journal=False, quiet=True)
    rules = _rules(pl, counting, greedy_upto, sides, bounded, lookahead)
    return _search(pl, threshold, rules, deadline, prefixes, settings)


def exact(n: int, margin: int, threshold: int, counting: bool, deadline: Deadline, settings: Settings,
          on_better: Callable[[Outcome[list[Placement]]], None] | None = None,
          lookahead: int = LOOKAHEAD) -> Outcome[list[Placement]]:
    """The exact (or counting) search of the whole board under `threshold`: cut into many more
    tasks than cores, journaled and run where `settings` say, the bound shared as it improves."""
    pl = exact_placements(n, margin)
    rules = _rules(pl, counting, lookahead=lookahead)
    return _search(pl, threshold, rules, deadline, EXACT_PREFIXES, settings, (n, margin), on_better)


def _rules(pl: Placements, counting: bool, greedy_upto: int = 0, sides: int = 4,
           bounded: bool = True, lookahead: int = LOOKAHEAD) -> tuple[bool, np.ndarray, np.ndarray, bool, int]:
    """The rules tuple _dfs takes (its docstring); the defaults are the exact search's."""
    sizes = pl.ps[pl.pstart] if len(pl.pstart) else np.zeros(0, np.int64)
    cap = sides * sizes
    cap[:1] = 4 * sizes[:1]                   # the largest square stands alone
    return counting, sizes <= greedy_upto, cap, bounded, lookahead if bounded else 0


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
    for stop in range(1, depths):             # deepen the split until there are enough prefixes
        out = np.zeros((64 * prefixes, stop), np.int64)
        _, n_out, _, aborted, nodes = _dfs(arrays, empty, stop, threshold, rules, shared, deadline.at, out)
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
                "prefixes": prefixes, "lookahead": int(rules[4])}
    split = Split("squares", identity, work, run_task, shares_best=True)
    return tasks.run(split, settings, Outcome(positions=split_nodes), on_better)


# -- the heuristics and the exact search, as the workbench calls them ---------------------------

LADDER_GROUPS = range(1, 7)  # sizes sharing a corner, in the ladders tried
LADDER_GRID = range(1, 4)    # groups a column and columns a block, in the ladders tried
LADDER_TAIL = 8              # sizes up to this searched exactly below a ladder
LADDER_UPS = 6               # blocks that may be one column up at the top edge, in the ladders tried
BEAM_WIDTHS = (1000, 4000, 16000, 64000, 256000)  # boards a beam keeps, in the beams tried
POLISH_WINDOW = 9            # sizes set free at a time (with 1..3); larger windows rarely finish
POLISH_TRY = 2.0             # seconds per neighbourhood
POLISH_PATIENCE = 40         # neighbourhoods in a row without a gain before polishing stops


def polish(n: int, margin: int, placements: list[Placement], best: int, deadline: Deadline,
           seed: int = 0) -> tuple[int, list[Placement]]:
    """Large-neighbourhood search: hold every square of a solution but a few sizes (a run of
    consecutive sizes or a random set, always with the three smallest) and search those exactly
    for a cheaper solution. Why: the heuristics fix the large squares well but often leave the
    middle and small ones a few matches short of the best fit (n = 36: 634 became 631 in 2 s)."""
    rng = random.Random(seed)
    held = {p.size: p for p in placements}
    window = min(POLISH_WINDOW, n - 2)
    fails = 0
    while fails < POLISH_PATIENCE and n > 4 and not deadline.passed():
        if rng.random() < 0.5:
            low = rng.randint(1, n - window)
            free = set(range(low, low + window))
        else:
            free = set(rng.sample(range(2, n), window))
        free |= {1, 2, 3}
        fixed = {size: p for size, p in held.items() if size not in free}
        out = search(Placements.build(n, margin, fixed=fixed), best, deadline=deadline.within(POLISH_TRY), prefixes=2)
        if out.best is not None and out.witness:
            best, held, fails = out.best, {p.size: p for p in out.witness}, 0
        else:
            fails += 1
    return best, sorted(held.values(), key=lambda p: -p.size)


@dataclass(frozen=True)
class Stage:
    """One heuristic stage of upper_bound: `run` names the _Heuristics method that tries it, with
    `share` of the time left when it starts (a stage that finishes early leaves its time to the
    next); `above` is the size threshold of its restriction, `spacing` its lattice, `sides` its
    rule that a square of size s adds at most sides * s matches (4: no rule)."""

    name: str
    share: float
    run: str
    above: int = 0
    spacing: int = 0
    sides: int = 4


STAGES = (
    # sizes above a threshold only on the main diagonal (thresholds raised 4 at a time up to
    # `diagonal_above` while the searches finish), under the 2s rule (all known optima obey it):
    # a good bound within seconds
    Stage("diagonal, 2s", 0.1, "diagonal", sides=2),
    # every idealised ladder (`ladder`) for the sizes above LADDER_TAIL, the rest searched exactly
    # (a few seconds; it beats the published bound of n = 56 by one match), then the same with some
    # of the first LADDER_UPS blocks one column up at the top edge (n = 54: 1153, the bound 1157)
    Stage("ladder", 0.1, "ladders"),
    # Chaffin's greedy rule breadth first (beam.py), widths BEAM_WIDTHS in turn while the next one
    # fits in its share; the only stage reaching n = 57's 1250
    Stage("beam", 0.25, "beams"),
    # Chaffin's greedy search (only the placements adding the fewest matches, ties all tried) with
    # the large sizes on a lattice of spacing 3: ladder-type solutions stagger groups of three
    # squares 3 apart. Finds in seconds what the plain greedy search needs many minutes for
    # (n = 44: 843 in 6 s against 743 s)
    Stage("lattice 3, greedy", 0.3, "greedy", above=20, spacing=3),
    # the large sizes in runs sharing corners, each run led on the lattice (Placements.build), under
    # the 2s rule; the only stage reaching the ladder optima of n = 36..38 (629 and 659 with spacing
    # 2 within 40 s, 684 with spacing 3 within 10 s), which Chaffin's heuristics missed too
    Stage("runs, lattice 2, 2s", 0.3, "runs", above=16, spacing=2, sides=2),
    Stage("runs, lattice 3, 2s", 0.15, "runs", above=16, spacing=3, sides=2),
    # the greedy lattice with spacing 2 (staggered pairs)
    Stage("lattice 2, greedy", 0.5, "greedy", above=20, spacing=2),
    # the diagonal thresholds without the 2s rule
    Stage("diagonal", 0.25, "diagonal"),
    # sizes above 10 on the spacing-2 lattice, under the 2s rule
    Stage("lattice 2, 2s", 0.33, "lattice", above=10, spacing=2, sides=2),
    # the best solution so far, improved a few sizes at a time (polish)
    Stage("polish", 0.25, "polish"),
    # the 2s rule alone (reaches several values otherwise found only by the exact search); when it
    # finishes, nothing after it can do better
    Stage("2s", 0.5, "plain", sides=2),
    # Chaffin's greedy search, unrestricted, to the deadline
    Stage("greedy", 1.0, "greedy"),
)
HASTY = ("diagonal, 2s", "beam")             # the stages run before an exact search (upper_bound)


class _Heuristics:
    """The state of upper_bound: the best solution so far, and one method per kind of stage, each
    returning True when the stages should stop (the bound is proven by an exhausted search)."""

    def __init__(self, n: int, margin: int, diagonal_above: int, deadline: Deadline, patient: bool = True) -> None:
        self.n, self.margin, self.deadline, self.patient = n, margin, deadline, patient
        self.best = 2 * n * (n + 1) + 1       # all squares apart, plus one
        self.found: list[Placement] = []
        self.how = ""
        self.thresholds = list(range(4, min(n, diagonal_above), 4)) + [min(n, diagonal_above)]
        self.unrestricted = Placements.build(n, margin)

    def record(self, cost: int | None, placements: list[Placement] | None, label: str) -> None:
        if cost is not None and placements and cost < self.best:
            self.best, self.found = cost, placements
            self.how = f"{label}, at {self.deadline.elapsed():.0f} s"

    def search(self, pl: Placements, label: str, until: Deadline, **kw: object) -> bool:
        out = search(pl, self.best, deadline=until, **kw)  # type: ignore[arg-type]
        self.record(out.best, out.witness, label)
        return out.complete

    def diagonal(self, stage: Stage, until: Deadline) -> bool:
        for t in self.thresholds:
            label = f"diagonal above {t}" + (", 2s" if stage.sides == 2 else "")
            if not self.search(Placements.build(self.n, self.margin, diagonal_above=t), label, until,
                               sides=stage.sides):
                break
        return False

    def ladders(self, stage: Stage, until: Deadline) -> bool:
        seen = set()
        for ups, group, rows, cols in itertools.product(range(1 << LADDER_UPS), LADDER_GROUPS,
                                                        LADDER_GRID, LADDER_GRID):
            if until.passed():
                break
            if group * rows * cols > self.n:
                continue
            up = [b for b in range(LADDER_UPS) if ups >> b & 1]   # blocks that are one column up
            blocks = [(1, True) if b in up else (cols, False) for b in range(LADDER_UPS + 1)]
            fixed = ladder(self.n, self.margin, group, rows, blocks, LADDER_TAIL)
            layout = frozenset(fixed.values())    # (an up block past the tail changes nothing)
            if layout not in seen:
                seen.add(layout)
                label = f"ladder of {group}s, {rows} x {cols} a block" + (f", up at {up}" if up else "")
                self.search(Placements.build(self.n, self.margin, fixed=fixed), label, until)
        return False

    def beams(self, stage: Stage, until: Deadline) -> bool:
        took = 0.0
        for width in BEAM_WIDTHS if self.patient else BEAM_WIDTHS[:1]:   # each 4 times the one before
            if until.passed() or until.left() < 4 * took:
                break
            began = Deadline()
            out = beam(self.unrestricted, width, self.best, until)
            self.record(out.best, out.witness, f"beam of {width}")
            if out.complete:                  # every greedy choice followed: wider adds nothing
                break
            took = began.elapsed()
        return False

    def greedy(self, stage: Stage, until: Deadline) -> bool:
        if not stage.spacing:
            self.search(self.unrestricted, stage.name, until, greedy_upto=self.n)
            return True
        pl = Placements.build(self.n, self.margin, lattice=(stage.spacing, stage.above))
        self.search(pl, f"lattice {stage.spacing} above {stage.above}, greedy", until, greedy_upto=self.n)
        return False

    def runs(self, stage: Stage, until: Deadline) -> bool:
        pl = Placements.build(self.n, self.margin, lattice=(stage.spacing, stage.above), runs_above=stage.above)
        self.search(pl, f"runs above {stage.above}, lattice {stage.spacing}, 2s", until, sides=stage.sides)
        return False

    def lattice(self, stage: Stage, until: Deadline) -> bool:
        pl = Placements.build(self.n, self.margin, lattice=(stage.spacing, stage.above))
        self.search(pl, f"lattice {stage.spacing} above {stage.above}, 2s", until, sides=stage.sides)
        return False

    def polish(self, stage: Stage, until: Deadline) -> bool:
        if self.found:
            self.record(*polish(self.n, self.margin, self.found, self.best, until), f"{self.how}, polished")
        return False

    def plain(self, stage: Stage, until: Deadline) -> bool:
        return self.search(self.unrestricted, stage.name, until, sides=stage.sides) or self.deadline.passed()


def upper_bound(n: int, margin: int = 0, deadline: Deadline = NEVER, diagonal_above: int = 20,
                patient: bool = True) -> tuple[int, list[Placement], str]:
    """The STAGES in turn, each searching under the best bound so far with its share of the time
    left, until one proves its bound or the last reaches the deadline.
    Not `patient` (before an exact search): only the HASTY stages, the beam at its narrowest width.
    Why: together they take 0.1-0.5 s for n = 20..35 and reach the optimum at n = 29..32 and 35,
    where the diagonal stage alone is 3 to 6 matches off, which costs the exact search more than
    the bound it then finds; the ladder stage (3.4 s at n = 28) costs more than the exact search
    below n = 26.
    Returns (cost, placements, which heuristic found it and when)."""
    h = _Heuristics(n, margin, diagonal_above, deadline, patient)
    for stage in STAGES if patient else [s for s in STAGES if s.name in HASTY]:
        if getattr(h, stage.run)(stage, deadline.share(stage.share)):
            break
    return h.best, h.found, h.how


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


def solve(n: int | None, params: Any, options: Options, report: Progress,
          question: Question = OPTIMISE) -> Outcome[Any]:
    """The native search: heuristics for a bound, then the exact (or counting) search.

    With `heuristic` the heuristics get the whole time limit; otherwise 20% of it, at most 60 s, and
    only the HASTY stages run. With `bound` B the exact search starts from B instead: a solution of
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
    if not params.heuristic:                  # keep most of the time for the exact search
        heuristic_deadline = deadline.within(min(60.0, 0.2 * deadline.left()))
    found: list[Placement] = []
    if params.bound and not params.heuristic:     # the journal's key then holds B, not a heuristic's value
        ub, how = params.bound, "--bound"
    else:
        ub, found, how = upper_bound(n, margin, heuristic_deadline, params.diagonal_above, patient=params.heuristic)
        if not found:
            return Outcome(complete=False, message="time limit before the heuristics found a solution")
        report(Outcome(ub, solution_json(n, margin, found), complete=False))
    if params.heuristic:
        return Outcome(ub, solution_json(n, margin, found), complete=False, message=f"heuristic bound ({how})")

    settings = Settings(options.threads, None, options.cluster, fresh=options.fresh, quiet=options.quiet)
    out = exact(n, margin, ub, counting, deadline, settings, lambda part: report(
        Outcome(part.best, solution_json(n, margin, part.witness or []), complete=False)), params.lookahead)
    if out.best is not None and out.witness:
        found = out.witness
    best = out.best if out.best is not None else ub
    sol = solution_json(n, margin, found)
    searched = f"{out.positions:,} positions searched (lookahead {params.lookahead})"
    if not found:                             # --bound B, and nothing cheaper than B found
        if out.complete:
            return Outcome(message=f"proved by exhaustive search: no board of fewer than {ub} "       # infeasible
                                   f"matches, {searched}; assumes all squares within {margin} of the largest")
        return Outcome(complete=False, message=f"time limit; nothing cheaper than {ub} found; {searched}")
    if not out.complete:
        return Outcome(best, sol, complete=False,
                       message=f"time limit; best from {'exact search' if out.witness else how}; "
                              f"{searched}")
    msg = f"proved optimal by exhaustive search, {searched} (start bound {ub} from {how}"
    msg += f"; assumes all squares within {margin} of the largest)"
    if counting:
        msg += f"; {out.count} optimal solutions (largest two share the top-left corner, "
        msg += "diagonal mirror images once, a free placement taken at once)"
    return Outcome(best, sol, count=out.count if counting else 0, message=msg)
