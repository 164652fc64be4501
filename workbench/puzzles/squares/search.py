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
ladder (`ladder`), and the polishing of a solution with most of its squares held in place. The
exact search is split into prefixes run in parallel (prange) sharing the best bound.
"""
from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from numba import njit, prange

from ...solvers.base import Incumbent, Options, Report, Result, Status
from .model import Grid, Placement, square_matches

INF = 1 << 30


@njit(cache=True)
def _now() -> float:
    with numba.objmode(t="float64"):
        t = time.time()
    return t


@njit(cache=True, inline="always")
def _popcount(v: np.uint64) -> int:
    c = 0
    while v:
        v &= v - np.uint64(1)
        c += 1
    return c


@njit(cache=True, inline="always")
def _added(rows, cols, x, y, s, mask) -> int:
    rm, cm = mask << np.uint64(x), mask << np.uint64(y)
    return (_popcount(rm & ~rows[y]) + _popcount(rm & ~rows[y + s])
            + _popcount(cm & ~cols[x]) + _popcount(cm & ~cols[x + s]))


@njit(cache=True, inline="always")
def _put(rows, cols, x, y, s, mask) -> None:
    """Lay the square's four sides on the board."""
    rows[y] |= mask << np.uint64(x)
    rows[y + s] |= mask << np.uint64(x)
    cols[x] |= mask << np.uint64(y)
    cols[x + s] |= mask << np.uint64(y)


@njit(cache=True, inline="always")
def _shares_corner(px, py, a, b) -> bool:
    """Whether placement b (one size smaller) shares a corner with placement a."""
    dx, dy = px[b] - px[a], py[b] - py[a]
    return 0 <= dx <= 1 and 0 <= dy <= 1


@njit(cache=True)
def _doomed(rows, cols, px, py, ps, pstart, pend, first, depths, most) -> bool:
    """Whether some size still to place (depths first..) adds more than `most` matches wherever it
    goes, so that no completion of this board can cost at most (cost now) + `most`.

    Why that is a proof: squares are placed largest first and a board only gains matches. In any
    completion, the square of a size still to place sits at some placement p of that size, and
    every match of p missing from the board now is on the final board, so the final cost is at
    least (cost now) + |p minus board| >= (cost now) + (the fewest matches any placement of that
    size adds now). Taking every placement of the size (not only those the search would still
    allow, such as the mirror-image rule's) keeps the minimum a lower bound. A size s adds at most
    4s matches, so only the sizes with 4s > `most` can cut; each scan stops at the first placement
    adding at most `most`."""
    for d in range(first, depths):
        if pstart[d] == pend[d]:
            continue
        s = ps[pstart[d]]
        if 4 * s <= most:
            break                             # this size and every smaller one fit
        mask = (np.uint64(1) << np.uint64(s)) - np.uint64(1)
        fits = False
        for k in range(pstart[d], pend[d]):
            if _added(rows, cols, px[k], py[k], s, mask) <= most:
                fits = True
                break
        if not fits:
            return True
    return False


@njit(cache=True)
def _dfs(px, py, ps, pdiag, plead, pstart, pend, prun, lines, prefix, stop, threshold, counting,
         greedy, cap, ordered, bounded, shared, deadline, out):
    """Search below the placements `prefix` (one per leading depth) for solutions cheaper than
    `threshold` (counting: at most as cheap, and count those of the cheapest cost found).
    `ordered` tries the placements adding fewest matches first (good solutions early). Heuristic
    restrictions per depth d: `greedy[d]` keeps only the placements adding the fewest matches (ties
    all tried), `cap[d]` is the most matches a placement may add, `prun[d]` applies the runs rule
    (Placements.build): a placement shares a corner with the one a size larger, or leads a new run
    (`plead`) when that one did not lead.

    With stop < depths, collect the prefixes reaching depth `stop` into `out` instead (returns their
    number in `count`, -1 on overflow). `shared[0]` is the best cost any thread has found.
    Returns (best cost or threshold, count, best placements, aborted by the deadline, nodes).
    """
    depths = pstart.shape[0]
    rows = np.zeros(lines, np.uint64)
    cols = np.zeros(lines, np.uint64)
    path = np.full(depths, -1, np.int64)
    best_path = np.full(depths, -1, np.int64)
    cost, sym = 0, True
    for d in range(prefix.shape[0]):
        k = prefix[d]
        x, y, s = px[k], py[k], ps[k]
        mask = (np.uint64(1) << np.uint64(s)) - np.uint64(1)
        cost += _added(rows, cols, x, y, s, mask)
        _put(rows, cols, x, y, s, mask)
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
    nodes = 0
    d = start
    expand = True
    while True:
        if expand:                            # list the admissible placements at depth d
            nodes += 1
            if nodes & 0xFFF == 1:           # (also at the first node)
                if _now() > deadline:
                    aborted = True
                    break
            if shared[0] < best:              # another thread found a cheaper solution:
                best = shared[0]
                if stop == 0:
                    count = 0                 # so this thread's own (if any) are not the cheapest
            if bounded and _doomed(rows, cols, px, py, ps, pstart, pend, d + 1, depths,
                                   best - cost - (0 if counting else 1)):
                ncand[d], it[d], expand = 0, 0, False
                continue
            nc, least = 0, INF
            runs = prun[d]
            lead_ok = runs and prun[d - 1] and _shares_corner(px, py, path[d - 2], path[d - 1])
            for k in range(pstart[d], pend[d]):
                if sym and px[k] > py[k]:
                    continue
                if runs and not (lead_ok and plead[k]) and not _shares_corner(px, py, path[d - 1], k):
                    continue
                s = ps[k]
                mask = (np.uint64(1) << np.uint64(s)) - np.uint64(1)
                add = _added(rows, cols, px[k], py[k], s, mask)
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
            if ordered and nc > 1:            # counting sort on the matches added
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
            mask = (np.uint64(1) << np.uint64(s)) - np.uint64(1)
            saved[d, 0], saved[d, 1], saved[d, 2], saved[d, 3] = rows[y], rows[y + s], cols[x], cols[x + s]
            saved_cost[d], saved_sym[d] = cost, sym
            _put(rows, cols, x, y, s, mask)
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
        cost, sym = saved_cost[d], saved_sym[d]
    return best, count, best_path, aborted, nodes


@njit(cache=True, parallel=True)
def _run_prefixes(px, py, ps, pdiag, plead, pstart, pend, prun, lines, prefixes, threshold,
                  counting, greedy, cap, ordered, bounded, deadline):
    """Every prefix searched independently (both cores), sharing the best cost found."""
    t = prefixes.shape[0]
    depths = pstart.shape[0]
    shared = np.full(1, threshold, np.int64)
    bests = np.full(t, threshold, np.int64)
    counts = np.zeros(t, np.int64)
    paths = np.full((t, depths), -1, np.int64)
    aborted = np.zeros(t, np.bool_)
    dummy = np.zeros((0, depths), np.int64)
    nodes = np.zeros(t, np.int64)
    for i in prange(t):
        b, c, p, a, nodes[i] = _dfs(px, py, ps, pdiag, plead, pstart, pend, prun, lines, prefixes[i],
                                    0, threshold, counting, greedy, cap, ordered, bounded, shared,
                                    deadline, dummy)
        bests[i], counts[i], aborted[i] = b, c, a
        paths[i, :] = p
    return bests, counts, paths, aborted, nodes.sum()


def _on_lattice(n: int, margin: int, spacing: int):
    """Whether a placement's corner lies a multiple of `spacing` from the largest square's near or
    far side, in both directions (ladder-type solutions stagger groups of squares that way)."""
    def ok(p: Placement) -> bool:
        return all((c - margin) % spacing == 0 or (n + margin - c - p.size) % spacing == 0
                   for c in (p.x, p.y))
    return ok


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
    fixed, x, size = {}, margin, n
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


@dataclass
class Placements:
    """The flat placement arrays of one search, depth d holding size n - d."""

    grid: Grid
    items: list[Placement]
    px: np.ndarray
    py: np.ndarray
    ps: np.ndarray
    pdiag: np.ndarray
    plead: np.ndarray
    pstart: np.ndarray
    pend: np.ndarray
    prun: np.ndarray

    @classmethod
    def build(cls, n: int, margin: int = 0, diagonal_above: int | None = None,
              lattice: tuple[int, int] | None = None, runs_above: int | None = None,
              fixed: dict[int, Placement] | None = None) -> Placements:
        """diagonal_above: sizes larger than this are only placed on the main diagonal;
        lattice (spacing, above): sizes larger than `above` only on that lattice (_on_lattice);
        runs_above: the sizes larger than this come in runs of two or more consecutive sizes, each
        square sharing a corner with the one a size larger (ladder solutions: n = 36's 629 is pairs
        and one run of three from the largest square down); the lattice then applies only to the
        squares leading a run;
        fixed: sizes held at the given placement. Mirror images are then no longer skipped, since
        a fixed square off the diagonal may follow a symmetric start."""
        g = Grid(n, margin)
        if g.side > 63:
            raise ValueError("the native search handles boards up to 63 matches wide")
        items, starts, ends = [], [], []
        on_lattice = _on_lattice(n, margin, lattice[0]) if lattice else None
        for s in range(n, 0, -1):
            ps = [fixed[s]] if fixed and s in fixed else g.placements(s)
            if diagonal_above is not None and s > diagonal_above:
                ps = [p for p in ps if p.on_diagonal]
            if on_lattice and s > lattice[1] and runs_above is None:
                ps = [p for p in ps if on_lattice(p)]
            starts.append(len(items))
            items += ps
            ends.append(len(items))
        arr = lambda f, t=np.int64: np.array([f(p) for p in items], t)
        leads = lambda p: not on_lattice or p.size <= lattice[1] or on_lattice(p)
        sizes = np.arange(n, 0, -1)                # the size at each depth
        prun = np.zeros(n, np.bool_)               # the largest square never follows
        if runs_above is not None:
            prun[1:] = sizes[1:] > runs_above
        return cls(g, items, arr(lambda p: p.x), arr(lambda p: p.y), arr(lambda p: p.size),
                   arr(lambda p: p.on_diagonal and not fixed, np.bool_), arr(leads, np.bool_),
                   np.array(starts, np.int64), np.array(ends, np.int64), prun)

    @property
    def args(self) -> tuple:
        return (self.px, self.py, self.ps, self.pdiag, self.plead, self.pstart, self.pend, self.prun,
                self.grid.side + 1)

    def decode(self, path: np.ndarray) -> list[Placement]:
        return [self.items[k] for k in path if k >= 0]


@dataclass
class Outcome:
    best: int                     # cost of the best solution found, or the threshold if none
    count: int                    # solutions of that cost (counting), else 1 if found
    placements: list[Placement]   # the best solution found, [] if none
    complete: bool                # the search space was exhausted (a proof)
    nodes: int = 0                # positions searched (boards whose placements were listed)


def search(pl: Placements, threshold: int, counting: bool = False, greedy_upto: int = 0,
           sides: int = 4, ordered: bool = True, bounded: bool = True, deadline: float = float("inf"),
           tasks: int = 256) -> Outcome:
    """Exhaustive search under `threshold`: split into at least `tasks` prefixes, run in parallel.
    Heuristic restrictions: a square of size <= `greedy_upto` only goes where it adds the fewest
    matches (ties all tried); a square of size s adds at most `sides` * s matches. `bounded` cuts a
    branch when some size still to place cannot fit under the bound (_doomed)."""
    depths = len(pl.pstart)
    sizes = pl.ps[pl.pstart] if depths else np.zeros(0, np.int64)
    greedy = sizes <= greedy_upto
    cap = sides * sizes
    cap[:1] = 4 * sizes[:1]                   # the largest square stands alone
    shared = np.full(1, threshold, np.int64)
    empty = np.zeros(0, np.int64)
    prefixes = np.zeros((1, 0), np.int64)
    split_nodes = 0                           # (the split's nodes are searched again below)
    for stop in range(1, depths):             # deepen the split until there are enough prefixes
        out = np.zeros((4 * tasks, stop), np.int64)
        _, n_out, _, aborted, nodes = _dfs(*pl.args, empty, stop, threshold, counting, greedy, cap,
                                           ordered, bounded, shared, deadline, out)
        split_nodes += nodes
        if n_out < 0 or aborted:
            break
        prefixes = out[:n_out]
        if n_out >= tasks:
            break
    numba.set_parallel_chunksize(1)
    try:
        bests, counts, paths, aborted, nodes = _run_prefixes(*pl.args, prefixes, threshold, counting,
                                                             greedy, cap, ordered, bounded, deadline)
    finally:
        numba.set_parallel_chunksize(0)
    best = int(bests.min()) if len(bests) else threshold
    winners = [i for i in range(len(bests)) if bests[i] == best and counts[i] > 0]
    count = int(sum(counts[i] for i in winners))
    found = pl.decode(paths[winners[0]]) if winners else []
    return Outcome(best, count, found, not aborted.any(), split_nodes + int(nodes))


# -- the heuristics and the exact search, as the workbench calls them ---------------------------

LADDER_GROUPS = range(1, 7)  # sizes sharing a corner, in the ladders tried
LADDER_GRID = range(1, 4)    # groups a column and columns a block, in the ladders tried
LADDER_TAIL = 8              # sizes up to this searched exactly below a ladder
LADDER_UPS = 6               # blocks that may be one column up at the top edge, in the ladders tried
BEAM_WIDTHS = (1000, 4000, 16000, 64000, 256000)  # boards a beam keeps, in the beams tried
POLISH_WINDOW = 9            # sizes set free at a time (with 1..3); larger windows rarely finish
POLISH_TRY = 2.0             # seconds per neighbourhood
POLISH_PATIENCE = 40         # neighbourhoods in a row without a gain before polishing stops


def polish(n: int, margin: int, placements: list[Placement], best: int, deadline: float,
           seed: int = 0) -> tuple[int, list[Placement]]:
    """Large-neighbourhood search: hold every square of a solution but a few sizes (a run of
    consecutive sizes or a random set, always with the three smallest) and search those exactly
    for a cheaper solution. Why: the heuristics fix the large squares well but often leave the
    middle and small ones a few matches short of the best fit (n = 36: 634 became 631 in 2 s)."""
    rng = random.Random(seed)
    held = {p.size: p for p in placements}
    window = min(POLISH_WINDOW, n - 2)
    fails = 0
    while fails < POLISH_PATIENCE and n > 4 and time.time() < deadline:
        if rng.random() < 0.5:
            low = rng.randint(1, n - window)
            free = set(range(low, low + window))
        else:
            free = set(rng.sample(range(2, n), window))
        free |= {1, 2, 3}
        fixed = {size: p for size, p in held.items() if size not in free}
        out = search(Placements.build(n, margin, fixed=fixed), best,
                     deadline=min(deadline, time.time() + POLISH_TRY), tasks=2)
        if out.placements:
            best, held, fails = out.best, {p.size: p for p in out.placements}, 0
        else:
            fails += 1
    return best, sorted(held.values(), key=lambda p: -p.size)


class _Settled(Exception):
    """The bound stopped improving (upper_bound, not patient)."""


def upper_bound(n: int, margin: int = 0, deadline: float = float("inf"), diagonal_above: int = 20,
                patient: bool = True) -> tuple[int, list[Placement], str]:
    """Heuristic searches in turn, each under the best bound so far and with a share of the time
    left (a search that finishes early leaves its time to the next):

    1. "diagonal, 2s": sizes above a threshold only on the main diagonal (threshold raised 4 at a
       time up to `diagonal_above` while the searches finish), and the rule that a square of size s
       adds at most 2s matches (all known optima obey it); a good bound within seconds;
    2. "ladder": every idealised ladder (`ladder`: groups of 1..6 sizes, up to 3 x 3 groups a
       block) for the sizes above 8, the rest searched exactly (a few seconds; it beats the
       published bound of n = 56 by one match), then the same with some of the first LADDER_UPS
       blocks replaced by one column up at the top edge (n = 54: 1153, the bound 1157);
    3. "beam": Chaffin's greedy rule breadth-first (squares_beam), widths BEAM_WIDTHS in turn while
       the next one fits in its share; the only stage reaching n = 57's 1250;
    4. "lattice 3, greedy": Chaffin's greedy search (only the placements adding the fewest matches,
       ties all tried) with the sizes above 20 on a lattice of spacing 3 (_on_lattice): ladder-type
       solutions stagger groups of three squares 3 apart. Finds in seconds what the plain greedy
       search needs many minutes for (n = 44: 843 in 6 s against 743 s);
    5. "runs, 2s": the sizes above 16 in runs sharing corners, each run led on the lattice of
       spacing 2, then 3 (Placements.build), under the 2s rule; the only stage reaching the ladder
       optima of n = 36..38 (629 and 659 with spacing 2 within 40 s, 684 with spacing 3 within
       10 s), which Chaffin's heuristics missed too;
    6. "lattice 2, greedy": stage 4 with spacing 2 (staggered pairs);
    7. "diagonal": the diagonal thresholds without the 2s rule;
    8. "lattice 2, 2s": sizes above 10 on the spacing-2 lattice, under the 2s rule;
    9. polish: the best solution so far, improved a few sizes at a time;
    10. "2s": the 2s rule alone (reaches several values otherwise found only by the exact search);
    11. "greedy": Chaffin's greedy search, unrestricted, to the deadline.
    Not `patient`: after the first stage, stop at the first search that does not improve the bound.
    Why: before an exact search the later stages rarely help (the first found the optimum at every
    n = 14..28), and at n = 24 all the stages cost 4 times the exact search; but the first stage's
    early thresholds give bounds a few matches off, which double the exact search.
    Returns (cost, placements, which heuristic found it and when)."""
    best, found, how = 2 * n * (n + 1) + 1, [], ""     # all squares apart, plus one
    start = time.time()
    thresholds = list(range(4, min(n, diagonal_above), 4)) + [min(n, diagonal_above)]
    unrestricted = Placements.build(n, margin)

    def share(fraction: float) -> float:
        return time.time() + fraction * (deadline - time.time())

    def record(cost: int, placements: list[Placement], label: str) -> None:
        nonlocal best, found, how
        if placements and cost < best:
            best, found, how = cost, placements, f"{label}, at {time.time() - start:.0f} s"
        elif found and hasty:
            raise _Settled

    def run(pl: Placements, label: str, until: float, **kw) -> bool:
        out = search(pl, best, deadline=until, **kw)
        record(out.best, out.placements, label)
        return out.complete

    def diagonal(sides: int, fraction: float) -> None:
        until = share(fraction)
        for t in thresholds:
            label = f"diagonal above {t}" + (", 2s" if sides == 2 else "")
            if not run(Placements.build(n, margin, diagonal_above=t), label, until, sides=sides):
                break

    def greedy_lattice(spacing: int, fraction: float) -> None:
        run(Placements.build(n, margin, lattice=(spacing, 20)), f"lattice {spacing} above 20, greedy",
            share(fraction), greedy_upto=n)

    def ladders(fraction: float) -> None:
        until, seen = share(fraction), set()
        for ups, group, rows, cols in itertools.product(range(1 << LADDER_UPS), LADDER_GROUPS,
                                                        LADDER_GRID, LADDER_GRID):
            if time.time() >= until:
                break
            if group * rows * cols > n:
                continue
            up = [b for b in range(LADDER_UPS) if ups >> b & 1]   # blocks that are one column up
            blocks = [(1, True) if b in up else (cols, False) for b in range(LADDER_UPS + 1)]
            fixed = ladder(n, margin, group, rows, blocks, LADDER_TAIL)
            layout = frozenset(fixed.values())    # (an up block past the tail changes nothing)
            if layout not in seen:
                seen.add(layout)
                label = f"ladder of {group}s, {rows} x {cols} a block" + (f", up at {up}" if up else "")
                run(Placements.build(n, margin, fixed=fixed), label, until)

    def beams(fraction: float) -> None:
        from .beam import beam  # (which imports this module)
        until, took = share(fraction), 0.0
        for width in BEAM_WIDTHS:            # each about 4 times the work of the one before
            if time.time() + 4 * took > until:
                break
            began = time.time()
            cost, placements, cut = beam(unrestricted, width, best, until)
            record(cost, placements, f"beam of {width}")
            if not cut:                       # every greedy choice followed: wider adds nothing
                break
            took = time.time() - began

    def runs(spacing: int, fraction: float) -> None:
        run(Placements.build(n, margin, lattice=(spacing, 16), runs_above=16),
            f"runs above 16, lattice {spacing}, 2s", share(fraction), sides=2)

    def lattice_2s(fraction: float) -> None:
        run(Placements.build(n, margin, lattice=(2, 10)), "lattice 2 above 10, 2s", share(fraction), sides=2)

    def last_resorts() -> bool:
        """Polish the best solution, then the 2s rule alone (done if it finishes), then greedy."""
        if found:
            record(*polish(n, margin, found, best, share(0.25)), f"{how}, polished")
        if run(unrestricted, "2s", share(0.5), sides=2) or time.time() >= deadline:
            return True
        run(unrestricted, "greedy", deadline, greedy_upto=n)
        return True

    stages: list[Callable[[], bool | None]] = [     # True: stop here
        lambda: diagonal(2, 0.1),
        lambda: ladders(0.1),
        lambda: beams(0.25),
        lambda: greedy_lattice(3, 0.3),
        lambda: runs(2, 0.3),
        lambda: runs(3, 0.15),
        lambda: greedy_lattice(2, 0.5),
        lambda: diagonal(4, 0.25),
        lambda: lattice_2s(0.33),
        last_resorts,
    ]
    hasty = False                             # whether a search that does not improve ends them all
    try:
        for stage in stages:
            if stage():
                break
            hasty = not patient
    except _Settled:
        pass
    return best, found, how


def solution_json(n: int, margin: int, placements: list[Placement]) -> dict:
    """The puzzle-level solution: the matches (what counts) and the squares (labels only)."""
    matches = sorted({m for p in placements for m in square_matches(p.size, p.x, p.y)})
    return {"n": n, "margin": margin, "matches": [list(m) for m in matches],
            "squares": [[p.size, p.x, p.y] for p in placements]}


def warm_up() -> None:
    """Compile the search (numba caches it on disk)."""
    search(Placements.build(2), 11)
    search(Placements.build(2), 11, greedy_upto=2)
    from .beam import beam
    beam(Placements.build(2), 2, 11)


def solve(n: int | None, params: Any, options: Options, report: Report) -> Result:
    """The native search: heuristics for a bound, then the exact (or counting) search.

    With `heuristic` the heuristics get the whole time limit; otherwise 20% of it, at most 60 s, and
    they stop at the first stage that does not improve the bound. Deterministic: the seed is unused.
    """
    assert n is not None
    margin = params.margin
    counting = params.all or options.count
    deadline = time.time() + options.time_limit if options.time_limit else float("inf")
    numba.set_num_threads(max(1, min(options.threads or 1, numba.config.NUMBA_NUM_THREADS)))

    heuristic_deadline = deadline
    if not params.heuristic:                  # keep most of the time for the exact search
        heuristic_deadline = time.time() + min(60.0, 0.2 * (deadline - time.time()))
    ub, found, how = upper_bound(n, margin, heuristic_deadline, params.diagonal_above, patient=params.heuristic)
    if not found:
        return Result(Status.UNKNOWN, message="time limit before the heuristics found a solution")
    report(Incumbent(ub, None, solution_json(n, margin, found)))
    if params.heuristic:
        return Result(Status.FEASIBLE, objective=ub, solution=solution_json(n, margin, found),
                      message=f"heuristic bound ({how})")

    exact = search(Placements.build(n, margin), ub, counting=counting, deadline=deadline)
    if exact.placements:
        found = exact.placements
    best = exact.best if exact.placements else ub
    sol = solution_json(n, margin, found)
    searched = f"{exact.nodes:,} positions searched"
    if not exact.complete:
        return Result(Status.FEASIBLE, objective=best, solution=sol,
                      message=f"time limit; best from {'exact search' if exact.placements else how}; "
                              f"{searched}")
    msg = f"proved optimal by exhaustive search, {searched} (start bound {ub} from {how}"
    msg += f"; assumes all squares within {margin} of the largest)"
    if counting:
        msg += f"; {exact.count} optimal solutions (largest two share the top-left corner, "
        msg += "diagonal mirror images once, a free placement taken at once)"
    return Result(Status.OPTIMAL, objective=best, bound=best, solution=sol,
                  count=exact.count if counting else None, message=msg)
