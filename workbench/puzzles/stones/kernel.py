"""The exact search's kernel for the stepping-stones puzzle (OEIS A337663), compiled with numba.

Why this shape:
- Ones are placed lazily: number k goes on an empty cell whose sum is k - j, together with j new ones
  around it (j <= ones left). A new one may never touch a number >= 2 already placed, because it
  would have changed that number's sum.
- A number may also start a new, separate group (k placed on k new ones). Groups live in two regions of
  one grid (A left, B right, far apart), grow independently and are merged when a number touches
  both: B is rotated/reflected (8 ways) and translated next to A, and the merge is legal only when no
  cell of B touches a cell of A unless both are ones. With n <= 8 ones at most two groups can exist
  (a second group needs k >= 3 new ones, a third k >= 4 more), which is why n is capped at 8.
- Symmetry: the first group starts with 2 on one of the 6 inequivalent pairs of ones; a new group
  uses one mask per symmetry class (its orientation is tried at merge time).
- The tree is cut at a fixed value into independent tasks (`frontier`, `dedupe`); `run_chunk`
  searches some of them, and past a cap on positions hands the moves it has not tried back as
  boards of their own. search.py hands them out; the record hunt (hunt/) uses `subtree`.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...search.bits import popcount
from ...search.compiled import borrowed, canonical_codes, clock, transform
from ...search.deadline import NEVER, Deadline
from ...search.outcome import Outcome
from ...search.symmetry import at_origin, canonical
from .moves import (
    CA,
    CLOCK_EVERY,
    DC,
    DR,
    ERR_EDGE,
    ERR_MOVES,
    ERR_REST,
    HALF,
    MASKS,
    MAXC,
    MAXL,
    MAXM,
    MERGE,
    NEWB,
    PLACE,
    SHUFFLE_SEED,
    H,
    W,
    _borrowed,
    _edge_ok,
    _elig,
    _gen,
    _grow,
    _keep,
    _limit,
    _place,
    _put,
    _shuffle,
    _snapshot,
    _unplace,
    _workspace,
)
from .tail import _live_ones, _tail, _viable


@njit(cache=True)
def _dfs(ws, cells, k0, r0, hasb0, limits, masks, out):
    """Depth-first search from the board `cells` (next number k0, r0 ones left, hasb0: a group B).

    ws is a zeroed workspace (see _workspace) and is left zeroed; masks = MASKS.
    limits = (cut, floor, budget, deadline, cap, target): with cut > 0, the boards just after placing `cut`
    are written to `frontier` (as far as it has room) instead of being searched; only boards above
    `floor` are kept as best; with budget > 0 (the record hunt) the moves of each level are shuffled,
    a level with more moves than fit keeps those that fit, and the search stops after about `budget`
    positions; past the deadline (Deadline.at) the search unwinds. After `cap` positions (cap > 0)
    it hands the rest back: every move not yet tried, at every level of the current path, is written
    to `frontier` as a board of its own (so nothing searched is thrown away), and the positions leave
    those boards out, since their own searches count them as their first. With target > 0, boards
    with no ones left and one group that cannot reach `target` are not searched below (tail._viable),
    and the tail roots of a number that spends the last one are judged together, before any is
    placed (tail._live_ones): a dead one is neither placed nor counted. Boards of a value above the
    best (the limit) are always placed, so the best and the kept boards are as without it.
    out = (best_cells, frontier, stats, found): with room in `found` every board that places `target`
    is kept there (moves._keep: header [cells, value], then the cells), the count in stats[3].
    Returns (best value, cells in best board, frontier count);
    stats[0] += positions visited, stats[1] = error code, stats[2] = 1 if the deadline stopped it,
    2 if the cap did (and the deadline did not).
    """
    st, moves, walk = _borrowed(ws)
    b, sm, pl, pos, bk, bn = st
    mt, mp, mm, mo = moves
    cut, floor, budget, deadline, cap, target = limits
    best_cells, frontier, stats, found = borrowed(out[0]), borrowed(out[1]), borrowed(out[2]), borrowed(out[3])
    masks = (borrowed(masks[0]), borrowed(masks[1]), borrowed(masks[2]), borrowed(masks[3]))
    ncell = cells.shape[0]
    bb = np.empty((2, 4), dtype=np.int64)
    bb[:, 0] = H
    bb[:, 1] = -1
    bb[:, 2] = W
    bb[:, 3] = -1
    hasb = hasb0
    top = 1 if r0 + ncell > 0 else 0
    for i in range(ncell):
        _put(st, cells[i, 0], cells[i, 1], 1)
        _grow(bb, 1 if cells[i, 0] % W >= HALF else 0, cells[i, 0])
        top = max(top, cells[i, 1])
    best = max(floor, top)
    lim = _limit(best, target, found)
    nbest = _snapshot(b, bb, hasb, best_cells) if top > floor else 0
    nm = np.zeros(MAXL, dtype=np.int64)
    idx = np.zeros(MAXL, dtype=np.int64)
    kk = np.zeros(MAXL, dtype=np.int64)
    rr = np.zeros(MAXL, dtype=np.int64)
    pend = np.full(MAXL, -1, dtype=np.int64)
    bbs = np.empty((MAXL, 2, 4), dtype=np.int64)
    hbs = np.zeros(MAXL, dtype=np.int64)
    saved = np.empty((MAXL, MAXC), dtype=np.int64)    # B's cells before a merge, for the undo
    nsaved = np.zeros(MAXL, dtype=np.int64)
    bcells = np.empty(MAXC, dtype=np.int64)
    tmp = np.empty((MAXM if budget > 0 else 1, 4), dtype=np.int32)
    group = np.full(MAXL, -1, dtype=np.int64)      # by level, the cell of the tail roots judged last
    live = np.zeros(MAXL, dtype=np.int64)          # and the directions of their ones that go on
    nfront = 0
    spill = False
    kk[0] = k0
    rr[0] = r0
    mv = (mt, mp, mm, mo, nm)
    err = _gen(st, bb, hasb, k0, r0, -1, 0, mv, masks, bcells)
    L = 0
    nodes = 1
    next_clock = CLOCK_EVERY
    timed = deadline < math.inf
    while L >= 0:
        if timed and nodes >= next_clock:
            next_clock = nodes + CLOCK_EVERY
            if clock() > deadline:          # unwind: every level counts as exhausted
                stats[2] = 1
                timed = False
                nm[:L + 1] = idx[:L + 1]
        if cap > 0 and nodes >= cap and stats[2] == 0:
            stats[2] = 2
            cap = 0
            spill = True
        if budget > 0:
            if err == ERR_MOVES:
                err = 0
            if nodes >= budget:
                nm[:L + 1] = idx[:L + 1]
            else:
                _shuffle(L, mv, idx, tmp)
        if err != 0:
            break
        if idx[L] < nm[L]:
            i = idx[L]
            idx[L] += 1
            t = mt[L, i]
            p = mp[L, i]
            k = kk[L]
            bbs[L] = bb
            hbs[L] = hasb
            if t == MERGE:
                d = mm[L, i]
                o = mo[L, i]
                nb = 0
                for row in range(bb[1, 0], bb[1, 1] + 1):
                    for col in range(bb[1, 2], bb[1, 3] + 1):
                        q = row * W + col
                        if b[q] != 0:
                            saved[L, nb] = q
                            nb += 1
                nsaved[L] = nb
                for j in range(nb):
                    q = saved[L, j]
                    v = b[q]
                    _put(st, q, v, -1)
                    tr, tc = transform(o, q // W - d // W, q % W - d % W)
                    tq = (p // W + tr) * W + p % W + tc
                    _put(st, tq, v, 1)
                    _grow(bb, 0, tq)
                bb[1, 0] = H
                bb[1, 1] = -1
                bb[1, 2] = W
                bb[1, 3] = -1
                hasb = 0
                kk[L + 1] = k
                rr[L + 1] = rr[L]
                pend[L + 1] = p
            else:
                m = mm[L, i]
                if m != 0 and rr[L] == 1 and t == PLACE and hasb == 0 and target > 0 and cut == 0 and k <= lim:
                    if group[L] != p:       # a tail root, the first of p's here: one game for p's roots
                        group[L] = p        # (a lone root's own call costs as much: not played twice)
                        ones = _elig(b, pl, p)
                        live[L] = _live_ones(st, walk[3], k, target, p, ones) if popcount(ones) > 1 else ones
                    if m & live[L] == 0:    # its one's root cannot reach the window: not placed
                        continue
                g = 1 if t == NEWB or p % W >= HALF else 0
                _place(st, bb, g, p, m, k)
                if t == NEWB:
                    hasb = 1
                if not _edge_ok(bb, g):
                    err = ERR_EDGE
                    break
                kk[L + 1] = k + 1
                rr[L + 1] = rr[L] - popcount(m)
                pend[L + 1] = -1
                if k > lim:
                    lim = _keep(b, bb, hasb, k, target, found, stats)
                    if k > best:
                        best = k
                        nbest = _snapshot(b, bb, hasb, best_cells)
            nodes += 1
            L += 1
            if L >= MAXL - 1:
                err = ERR_MOVES
                break
            idx[L] = 0
            if pend[L] < 0 and (spill or cut > 0 and kk[L] == cut + 1):
                if spill:
                    nodes -= 1              # the board's own search counts it
                if nfront < frontier.shape[0]:
                    n = _snapshot(b, bb, hasb, frontier[nfront, 2:])
                    frontier[nfront, 0, 0] = n
                    frontier[nfront, 0, 1] = kk[L]
                    frontier[nfront, 1, 0] = rr[L]
                    frontier[nfront, 1, 1] = hasb
                nfront += 1
                nm[L] = 0
            elif cut == 0 and rr[L] == 0 and hasb == 0 and pend[L] < 0:
                best, nb, n, err = _tail(st, walk, kk[L], best, best_cells,
                                         max(1, budget - nodes) if budget > 0 else 0, target, found, stats)
                if nb > 0:
                    nbest = nb
                lim = _limit(best, target, found)
                nodes += n
                nm[L] = 0
            else:
                err = _gen(st, bb, hasb, kk[L], rr[L], pend[L], L, mv, masks, bcells)
                group[L] = -1
        else:
            L -= 1
            if L < 0:
                break
            i = idx[L] - 1
            t = mt[L, i]
            p = mp[L, i]
            if t == MERGE:
                d = mm[L, i]
                o = mo[L, i]
                for j in range(nsaved[L]):
                    q = saved[L, j]
                    tr, tc = transform(o, q // W - d // W, q % W - d % W)
                    tq = (p // W + tr) * W + p % W + tc
                    v = b[tq]
                    _put(st, tq, v, -1)
                    _put(st, q, v, 1)
            else:
                _unplace(st, p, mm[L, i], kk[L])
            bb[:] = bbs[L]
            hasb = hbs[L]
    for i in range(ncell - 1, -1, -1):
        _put(st, cells[i, 0], cells[i, 1], -1)
    if bn[0] != 0:
        err = ERR_MOVES
    stats[0] += nodes
    if err != 0:
        stats[1] = err
    return best, nbest, nfront


@njit(cache=True, nogil=True)
def _run_chunk(front, tasks, masks, deadline, cap, target, board, stats, rest, found):
    """Search the frontier boards front[tasks] (one thread's chunk, without the GIL); the best
    board goes to `board`. After `cap` positions in all (cap > 0) the rest of the work goes to
    `rest` as frontier boards: the moves not yet tried below the board being searched, then the
    boards not started. Returns (best value, its cell count, boards in rest); stats as in _dfs,
    and stats[1] = ERR_REST if `rest` had no room for them; `found` as in _dfs."""
    ws = _workspace()
    cells = np.empty((MAXC, 2), dtype=np.int64)
    out = (cells, rest, stats, found)
    best_here, nb_here, nrest = 0, 0, 0
    for j in range(len(tasks)):
        f = front[tasks[j]]
        n = f[0, 0]
        left = 0
        if cap > 0:
            left = max(1, cap - stats[0])
        limits = (0, best_here, 0, deadline, left, target)
        best, nb, nrest = _dfs(ws, f[2:2 + n], f[0, 1], f[1, 0], f[1, 1], limits, masks, out)
        if nb > 0 and best > best_here:
            best_here, nb_here = best, nb
            board[:nb] = cells[:nb]
        if stats[2] == 2:
            for i in tasks[j + 1:]:
                if nrest < rest.shape[0]:
                    rest[nrest, :front.shape[1]] = front[i]
                nrest += 1
            if nrest > rest.shape[0]:
                stats[1] = ERR_REST
        if stats[2]:
            break
    return best_here, nb_here, nrest


REST = 4096               # room for the boards a capped task hands back
FOUND = 4096              # room for the boards that reach the target in one chunk, when counting


def run_chunk(front: np.ndarray, tasks: np.ndarray, deadline: Deadline, cap: int = 0, target: int = 0,
              count: bool = False) -> tuple[Outcome[list[list[int]]], np.ndarray]:
    """The best board below the frontier boards front[tasks], complete unless the deadline cut it
    short; and the rest of the work as frontier boards when the cap on positions (cap > 0) cut it
    short (the outcome covers all the rest does not). With a target (> 0) the search skips boards
    that provably cannot reach it (tail._viable): the best is exact when it is >= target, and below
    it only says that nothing >= target is there. With `count`, every board of the best value is kept
    when it reaches the target, up to the 8 symmetries: the outcome's examples (canonical, sorted)
    and their number.
    Raises RuntimeError when the search's fixed limits were exceeded."""
    board, stats = np.zeros((MAXC, 2), dtype=np.int64), np.zeros(4, dtype=np.int64)
    rest = np.empty((REST if cap > 0 else 0, 2 + MAXC, 2), dtype=np.int64)   # zeroing 17 MB a chunk cost 20%
    kept = np.empty((FOUND if count and target > 0 else 0, 1 + MAXC, 2), dtype=np.int64)
    found, nb, nrest = _run_chunk(front, tasks, MASKS, deadline.at, cap, target, board, stats, rest, kept)
    if stats[1]:
        raise RuntimeError(f"search limits exceeded (code {stats[1]})")
    if stats[3] > len(kept):
        raise RuntimeError(f"more than {len(kept)} boards reach the target in one chunk: too many to keep")
    boards = sorted({tuple(map(tuple, canonical(_board(f[1:1 + f[0, 0]])))) for f in kept[:stats[3]]
                     if nb and f[0, 1] == found})             # the boards of the best value, up to symmetry
    rows = 2 + int(rest[:nrest, 0, 0].max(initial=0))
    handed_back = rest[:nrest if stats[2] == 2 else 0, :rows].copy()
    handed_back[np.arange(rows) >= 2 + handed_back[:, :1, 0]] = 0      # past each board's cells
    return (Outcome(int(found) if nb else None, _board(board[:nb]) if nb else None, count=len(boards),
                    positions=int(stats[0]), complete=stats[2] != 1, tasks=len(tasks), maximise=True,
                    examples=tuple([list(cell) for cell in b] for b in boards)), handed_back)


@njit(cache=True, nogil=True)
def _below(cells, k0, r0, budget, masks, out, stats):
    """_dfs below one board within `budget` positions, without the GIL: the hunt runs it on one
    thread while beams run on the others. The move order is shuffled from a fixed seed, so that a
    board's result does not depend on the thread or on what ran before."""
    np.random.seed(SHUFFLE_SEED)
    best, nb, _ = _dfs(_workspace(), cells, k0, r0, 0, (0, k0 - 1, budget, math.inf, 0, 0), masks,
                       (out, np.empty((0, 2, 2), dtype=np.int64), stats, np.empty((0, 1, 2), dtype=np.int64)))
    return best, nb


def subtree(n: int, board: list[list[int]], budget: int) -> Outcome[list[list[int]]]:
    """The best board below `board` (numbers 2..k and the ones they touch; the rest of the n ones
    still in hand), by the exact search's kernel within `budget` positions: best is the best value
    above k or k, the witness that board (None if none above k), complete when the whole subtree was
    searched. The record hunt uses it to make a board's tail optimal: a beam keeps too few boards
    there to find the best ending."""
    r2, c2 = next((r, c) for r, c, v in board if v == 2)
    k = max(v for _, _, v in board)
    if any(max(abs(r - r2), abs(c - c2)) > HALF // 2 - 8 for r, c, _ in board):
        return Outcome(k, complete=False, maximise=True)    # too near the edge of group A's half
    cells = np.array(sorted((((r - r2 + CA // W) * W + c - c2 + CA % W, v) for r, c, v in board),
                            key=lambda t: t[1]), dtype=np.int64)
    ones = sum(v == 1 for _, _, v in board)
    out, stats = np.empty((MAXC, 2), dtype=np.int64), np.zeros(4, dtype=np.int64)
    best, nb = _below(cells, k + 1, n - ones, max(1, budget), MASKS, out, stats)
    if stats[1]:
        return Outcome(k, complete=False, maximise=True)
    return Outcome(int(best), _board(out[:nb]) if nb else None, positions=int(stats[0]),
                   complete=int(stats[0]) < budget, maximise=True)


@njit(cache=True)
def _viable_on(ws, cells, k, target):
    st, _, walk = _borrowed(ws)             # views of ws, which the caller keeps alive
    for i in range(cells.shape[0]):
        _put(st, cells[i, 0], cells[i, 1], 1)
    n = _viable(st, walk[3], k, target, walk[0], 0)
    return walk[0][0, :n].copy()


def viable(board: list[list[int]], k: int, target: int) -> list[tuple[int, int]]:
    """The cells (row, col) where `board` (every one placed, numbers below k) may place k and still
    place every number up to the window of tail._viable: its answer, for the tests to hold against
    the rules."""
    cells, row0, col0 = _on_grid(board)
    return sorted((int(p) // W + row0, int(p) % W + col0) for p in _viable_on(_workspace(), cells, k, target))


def _on_grid(board: list[list[int]]) -> tuple[np.ndarray, int, int]:
    """A board's (cell, value) rows on the kernel's grid, well inside group A's half, and the row and
    column the grid's origin stands for."""
    row0 = min(r for r, _, _ in board) - (CA // W - 16)
    col0 = min(c for _, c, _ in board) - (CA % W - 16)
    return np.array([((r - row0) * W + c - col0, v) for r, c, v in board], dtype=np.int64), row0, col0


@njit(cache=True)
def _live_ones_on(ws, cells, k, target, p):
    st, _, walk = _borrowed(ws)
    for i in range(cells.shape[0]):
        _put(st, cells[i, 0], cells[i, 1], 1)
    return _live_ones(st, walk[3], k, target, p, _elig(st[0], st[2], p))


def live_ones(board: list[list[int]], k: int, target: int, cell: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells (row, col) next to `cell` where `board` (numbers below k, one one still in hand) may put
    its last one, with k on `cell`, and still place every number up to the window of tail._viable:
    tail._live_ones's answer, for the tests to hold against the rules."""
    cells, row0, col0 = _on_grid(board)
    live = _live_ones_on(_workspace(), cells, k, target, (cell[0] - row0) * W + cell[1] - col0)
    return sorted((cell[0] + int(DR[d]), cell[1] + int(DC[d])) for d in range(8) if live >> d & 1)


def _board(cells: np.ndarray) -> list[list[int]]:
    """Grid cells -> [row, col, value] triples with the top-left used cell at (0, 0)."""
    return at_origin([[int(p) // W, int(p) % W, int(v)] for p, v in cells])


def frontier(n: int, cut: int, deadline: Deadline = NEVER) -> tuple[np.ndarray | None, Outcome[list[list[int]]]]:
    """The boards just after placing `cut` (tasks; None when the deadline passes first), and the
    outcome of the search above the cut (its best board; complete: it covers nothing below)."""
    cells = np.empty((MAXC, 2), dtype=np.int64)
    stats = np.zeros(4, dtype=np.int64)
    empty = np.empty((0, 2), dtype=np.int64)
    probe = np.empty((0, 2, 2), dtype=np.int64)
    nothing = np.empty((0, 1, 2), dtype=np.int64)         # no boards kept
    front = probe
    for _ in range(2):        # count the boards, then store them
        stats[:] = 0
        limits = (cut, 0, 0, deadline.at, 0, 0)
        best, nb, count = _dfs(_workspace(), empty, 2, n, 0, limits, MASKS, (cells, front, stats, nothing))
        if stats[1]:
            raise RuntimeError(f"search limits exceeded (code {stats[1]})")
        above = Outcome(int(best), _board(cells[:nb]) if nb else None, positions=int(stats[0]),
                        complete=not stats[2], maximise=True)
        if stats[2]:
            return None, above
        if front is probe:
            front = np.zeros((count, 2 + n + cut, 2), dtype=np.int64)   # header rows, then the cells
    return front, above


def dedupe(front: np.ndarray, deadline: Deadline = NEVER) -> np.ndarray:
    """Drop frontier boards that are rotations/reflections of others (one group only): their
    subtrees are images of each other. This removes the residual symmetry of the symmetric starts.
    Past the deadline the boards come back as they are: fewer tasks only save time."""
    if len(front) == 0 or deadline.passed():
        return front
    one = front[:, 1, 1] == 0
    f = front[one]
    valid = np.arange(f.shape[1] - 2)[None, :] < f[:, 0, 0][:, None]
    p = f[:, 2:, 0]
    codes = canonical_codes(p // W, p % W, f[:, 2:, 1], valid)
    rows = np.ascontiguousarray(codes).view(np.dtype((np.void, codes.shape[1] * codes.itemsize)))
    _, keep = np.unique(rows.ravel(), return_index=True)     # whole rows as bytes: 6x np.unique(axis=0)
    return np.concatenate([f[np.sort(keep)], front[~one]])
