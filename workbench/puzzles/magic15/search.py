"""Optimal native search for the 15-puzzle-to-magic-square challenge.

Moves are reversible, so the search runs backwards: IDA* from every reachable magic square towards
the one start board, where a classical admissible heuristic exists. The heuristic is an additive
pattern database over a 5-5-5 split of the tiles by their home cell in the start board; each
database counts the moves of its own tiles in a relaxation that lets a tile slide into any cell not
held by another tile of its group (so the three sums add up and never overestimate). Bound B is
searched for every target of the right parity before B + 1, so the first hit is optimal over the
whole target set. Targets of the other permutation parity are unreachable and skipped.
"""
from __future__ import annotations

import functools
import time
from typing import Any

import numpy as np
from numba import njit, prange

from ...models.core import OPTIMISE, Options, Question
from ...search.deadline import Deadline
from ...search.outcome import Outcome, Progress
from ...search.threads import use_threads
from .model import CELLS, SORTED, SORTED_SWAPPED, lines, neighbours

NB = np.full((CELLS, 4), -1, dtype=np.int64)
NN = np.zeros(CELLS, dtype=np.int64)
for _c in range(CELLS):
    _ns = neighbours(_c)
    NN[_c] = len(_ns)
    NB[_c, :len(_ns)] = _ns

SPLIT = (5, 5, 5)     # pattern sizes: 16**5 bytes each, built in a fraction of a second. A 6-6-3
                      # split saved a third of the nodes but took seconds more to build (measured)
MAX_DEPTH = 128


# -- magic squares -----------------------------------------------------------------------------

ORDER = (0, 5, 10, 15, 3, 6, 9, 12, 1, 2, 13, 14, 4, 7, 8, 11)   # diagonals first: many values forced


@njit(cache=True)
def _enumerate_squares(line_cells: np.ndarray, total: int, order: np.ndarray) -> np.ndarray:
    """All boards on 0..15 whose listed lines sum to `total`: a depth-first fill in `order`. A cell
    that completes a line takes the one value the line leaves; every line's partial sum is checked."""
    n_lines = line_cells.shape[0]
    rank = np.empty(CELLS, dtype=np.int64)
    for i in range(CELLS):
        rank[order[i]] = i
    done_at = np.zeros(n_lines, dtype=np.int64)               # the fill step that completes a line
    for li in range(n_lines):
        for k in range(4):
            done_at[li] = max(done_at[li], rank[line_cells[li, k]])
    forced = np.full(CELLS, -1, dtype=np.int64)              # a line completed at this step
    for li in range(n_lines):
        forced[done_at[li]] = li
    out = np.zeros((8192, CELLS), dtype=np.int8)
    count = 0
    board = np.full(CELLS, -1, dtype=np.int64)
    used = np.zeros(CELLS, dtype=np.bool_)
    nxt = np.zeros(CELLS + 1, dtype=np.int64)
    step = 0
    while step >= 0:
        if step == CELLS:
            if count == out.shape[0]:
                out = np.concatenate((out, np.zeros_like(out)))
            out[count] = board.astype(np.int8)
            count += 1
            step -= 1
            continue
        cell = order[step]
        if board[cell] >= 0:                  # take back this cell's value before trying the next
            used[board[cell]] = False
            board[cell] = -1
        v, stop = nxt[step], CELLS
        if forced[step] >= 0:                 # only the value that completes the line
            rest = total
            for k in range(4):
                c = line_cells[forced[step], k]
                if c != cell:
                    rest -= board[c]
            v, stop = (rest, rest + 1) if v <= rest else (CELLS, CELLS)
        while v < stop and v < CELLS:
            if v >= 0 and not used[v]:
                board[cell] = v
                ok = True
                for li in range(n_lines):
                    if done_at[li] == step:
                        s = 0
                        for k in range(4):
                            s += board[line_cells[li, k]]
                        ok = ok and s == total
                board[cell] = -1
                if ok:
                    break
            v += 1
        if v >= stop or v >= CELLS:
            nxt[step] = 0
            step -= 1
            continue
        nxt[step] = v + 1
        board[cell] = v
        used[v] = True
        step += 1
    return out[:count]


@functools.lru_cache(maxsize=2)
def magic_squares(pandiagonal: bool = False) -> np.ndarray:
    """Every magic square on 0..15 (7040, or 384 pandiagonal), one board per row (read-only)."""
    squares = _enumerate_squares(np.array(lines(pandiagonal), dtype=np.int64), 30,
                                 np.array(ORDER, dtype=np.int64))
    squares.flags.writeable = False
    return squares


def reachable(start, target) -> bool:
    """A board is reachable iff its permutation parity (hole included) equals the parity of the
    hole's taxicab distance: every move is one transposition and moves the hole one cell."""
    where = {v: c for c, v in enumerate(target)}
    perm = [where[v] for v in start]          # cell in start -> cell of the same number in target
    seen, swaps = [False] * CELLS, 0
    for first in range(CELLS):                # a cycle of length L is L - 1 transpositions
        c, length = first, 0
        while not seen[c]:
            seen[c] = True
            c = perm[c]
            length += 1
        swaps += max(length - 1, 0)
    a, b = list(start).index(0), list(target).index(0)
    hole = abs(a // 4 - b // 4) + abs(a % 4 - b % 4)
    return swaps % 2 == hole % 2


# -- pattern databases ---------------------------------------------------------------------------

@njit(cache=True)
def _pattern_database(homes: np.ndarray) -> np.ndarray:
    """Fewest moves of the pattern tiles from each placement (4 bits per tile) to `homes`, when a tile
    may slide into any neighbouring cell not held by another pattern tile. Breadth-first."""
    k = homes.shape[0]
    dist = np.full(1 << (4 * k), 255, dtype=np.uint8)
    size = 1
    for i in range(k):
        size *= CELLS - i
    queue = np.empty(size, dtype=np.int64)
    goal = 0
    for i in range(k):
        goal |= homes[i] << (4 * i)
    dist[goal] = 0
    queue[0] = goal
    head, tail = 0, 1
    pos = np.empty(k, dtype=np.int64)
    while head < tail:
        state = queue[head]
        head += 1
        d = dist[state]
        occupied = 0
        for i in range(k):
            pos[i] = (state >> (4 * i)) & 15
            occupied |= 1 << pos[i]
        for i in range(k):
            p = pos[i]
            for j in range(NN[p]):
                q = NB[p, j]
                if occupied & (1 << q):
                    continue
                nxt = state + ((q - p) << (4 * i))
                if dist[nxt] == 255:
                    dist[nxt] = d + 1
                    queue[tail] = nxt
                    tail += 1
    return dist


@functools.lru_cache(maxsize=16)
def pattern_database(homes: tuple[int, ...]) -> np.ndarray:
    """Memoised: a database depends only on its home cells, which both sorted starts share."""
    return _pattern_database(np.array(homes, dtype=np.int64))


class Heuristic:
    """The additive databases for one start board, flattened into one table for the njit search."""

    def __init__(self, start: tuple[int, ...]):
        homes = [c for c in range(CELLS) if start[c] != 0]
        self.group = np.zeros(CELLS, dtype=np.int64)    # tile -> pattern
        self.slot = np.zeros(CELLS, dtype=np.int64)     # tile -> its 4-bit field in the pattern key
        self.group[0] = -1
        tables, offset, first = [], [], 0
        for g, k in enumerate(SPLIT):
            cells = homes[first:first + k]
            for i, c in enumerate(cells):
                self.group[start[c]], self.slot[start[c]] = g, i
            tables.append(pattern_database(tuple(cells)))
            offset.append(sum(len(t) for t in tables[:-1]))
            first += k
        self.table = np.concatenate(tables)
        self.offset = np.array(offset, dtype=np.int64)


# -- IDA* ------------------------------------------------------------------------------------------

@njit(cache=True)
def _keys(board: np.ndarray, group: np.ndarray, slot: np.ndarray, offset: np.ndarray) -> np.ndarray:
    keys = offset.copy()
    for c in range(CELLS):
        t = board[c]
        if t != 0:
            keys[group[t]] += c << (4 * slot[t])
    return keys


@njit(cache=True)
def _h(keys: np.ndarray, table: np.ndarray) -> int:
    h = 0
    for g in range(keys.shape[0]):
        h += table[keys[g]]
    return h


@njit(cache=True)
def _dfs(target: np.ndarray, bound: int, group: np.ndarray, slot: np.ndarray, offset: np.ndarray,
         table: np.ndarray, stop: np.ndarray, path: np.ndarray) -> tuple[int, int]:
    """Depth-first search from `target` for the start board within `bound` moves, pruning on
    g + h > bound and never undoing the previous move. Returns (moves or -1, nodes); `path` gets the
    hole's cells. Gives up early when another thread has set stop[0]."""
    board = target.astype(np.int64)
    keys = _keys(board, group, slot, offset)
    h = _h(keys, table)
    hole = 0
    for c in range(CELLS):
        if board[c] == 0:
            hole = c
    if h > bound:
        return -1, 0
    if h == 0:
        path[0] = hole
        return 0, 1
    cells = np.empty(bound + 1, dtype=np.int64)
    branch = np.zeros(bound + 1, dtype=np.int64)
    cells[0] = hole
    g = 0
    nodes = 0
    while g >= 0:
        c = cells[g]
        if branch[g] == NN[c]:                       # exhausted: slide the tile back
            if g == 0:
                break
            if stop[0]:
                return -1, nodes
            p = cells[g - 1]
            t = board[p]
            board[c], board[p] = t, 0
            h -= table[keys[group[t]]]
            keys[group[t]] += (c - p) << (4 * slot[t])
            h += table[keys[group[t]]]
            g -= 1
            continue
        q = NB[c, branch[g]]
        branch[g] += 1
        if g > 0 and q == cells[g - 1]:
            continue
        t = board[q]                                 # the tile at q slides into the hole at c
        k = keys[group[t]]
        k2 = k + ((c - q) << (4 * slot[t]))
        h2 = h - table[k] + table[k2]
        nodes += 1
        if g + 1 + h2 > bound:
            continue
        board[c], board[q] = t, 0
        keys[group[t]] = k2
        h = h2
        g += 1
        cells[g] = q
        branch[g] = 0
        if h == 0:
            path[:g + 1] = cells[:g + 1]
            return g, nodes
    return -1, nodes


@njit(parallel=True, cache=True)
def _round(targets: np.ndarray, bound: int, group: np.ndarray, slot: np.ndarray, offset: np.ndarray,
           table: np.ndarray, paths: np.ndarray, lengths: np.ndarray, nodes: np.ndarray) -> None:
    """One IDA* bound over many targets, spread over the threads; the first hit stops the rest."""
    stop = np.zeros(1, dtype=np.int64)
    for i in prange(targets.shape[0]):
        length, n = _dfs(targets[i], bound, group, slot, offset, table, stop, paths[i])
        lengths[i] = length
        nodes[i] = n
        if length >= 0:
            stop[0] = 1


class _Problem:
    """One start board, its heuristic and the magic squares it can reach (in a seeded order)."""

    def __init__(self, start: tuple[int, ...], squares: np.ndarray, rng: np.random.Generator):
        self.start = start
        self.heuristic = hh = Heuristic(start)
        ok = [sq for sq in squares if reachable(start, tuple(sq))]
        self.targets = np.array(ok, dtype=np.int8).reshape(-1, CELLS)[rng.permutation(len(ok))]
        hole = start.index(0)
        self.parity = np.array([(abs(hole // 4 - c // 4) + abs(hole % 4 - c % 4)) % 2
                                for c in np.argmin(self.targets, axis=1)], dtype=np.int64)
        self.h = np.array([_h(_keys(t.astype(np.int64), hh.group, hh.slot, hh.offset), hh.table)
                           for t in self.targets], dtype=np.int64)
        self.h += (self.h - self.parity) % 2          # a path's length has the hole's parity

    def search(self, bound: int) -> Outcome[tuple[int, np.ndarray]]:
        """Bound `bound` over every target that needs it: the witness is (target index, the hole's
        path) of a solution of `bound` moves, if any."""
        todo = np.flatnonzero((self.h <= bound) & (self.parity == bound % 2))
        hh = self.heuristic
        paths = np.zeros((len(todo), bound + 1), dtype=np.int64)
        lengths = np.full(len(todo), -1, dtype=np.int64)
        counts = np.zeros(len(todo), dtype=np.int64)
        _round(self.targets[todo], bound, hh.group, hh.slot, hh.offset, hh.table, paths, lengths, counts)
        hits = np.flatnonzero(lengths >= 0)
        if not len(hits):
            return Outcome(positions=int(counts.sum()), tasks=len(todo))
        i = hits[0]
        return Outcome(bound, (int(todo[i]), paths[i, :lengths[i] + 1]), 1, int(counts.sum()), tasks=len(todo))


def replay(start: tuple[int, ...], holes: np.ndarray) -> list[int]:
    """The tiles moved from `start`, given the hole's cells from the target back to the start."""
    board, moves = list(start), []
    for c in holes[::-1][1:]:
        tile = board[c]
        here = board.index(0)
        board[here], board[c] = tile, 0
        moves.append(int(tile))
    return moves


def warm_up() -> None:
    """Compile every numba function on a board one move from a magic square (cached on disk)."""
    square = [int(v) for v in magic_squares()[0]]
    hole = square.index(0)
    square[hole], square[neighbours(hole)[0]] = square[neighbours(hole)[0]], 0
    from .puzzle import Magic15Params
    solve(None, Magic15Params(start=" ".join(map(str, square))), Options(time_limit=None, threads=1), lambda _: None)


def solve(n: int | None, params: Any, options: Options, report: Progress,
          question: Question = OPTIMISE) -> Outcome[Any]:
    """Fewest moves from the start board(s) to any (pandiagonal) magic square, proven by IDA*."""
    starts = [params.start_board] if params.start else [SORTED, SORTED_SWAPPED]
    pandiagonal = params.pandiagonal
    use_threads(options.threads)
    deadline = Deadline.after(options.time_limit)
    t0 = deadline.start
    rng = np.random.default_rng(options.seed)
    squares = magic_squares(pandiagonal)
    problems = [p for p in (_Problem(s, squares, rng) for s in starts) if len(p.targets)]
    t1 = time.monotonic()

    def result(found: int | None, bound: int, message: str, solution: Any = None) -> Outcome[Any]:
        return Outcome(found, solution, complete=found is not None, bound=bound, build_seconds=t1 - t0,
                       message=f"{message}; {nodes} nodes")

    if not problems:
        return Outcome(message="no magic square is reachable from this start")    # complete: none
    bound, nodes = min(int(p.h.min()) for p in problems), 0
    while bound <= MAX_DEPTH:
        if deadline.passed():
            return result(None, bound, f"time limit: no solution under {bound} moves")
        for p in problems:
            out = p.search(bound)
            nodes += out.positions
            if out.witness is not None:
                hit, holes = out.witness
                moves = replay(p.start, holes)
                solution = dict(start=list(p.start), moves=moves,
                                end=[int(v) for v in p.targets[hit]], pandiagonal=pandiagonal)
                report(Outcome(len(moves), solution, complete=False, bound=bound))
                return result(len(moves), bound, f"IDA* proved {bound}", solution)
        report(Outcome(complete=False, bound=bound + 1))
        bound += 1
    return result(None, bound, f"gave up past {MAX_DEPTH} moves")
