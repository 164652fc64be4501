"""Native counter of minimal percolating sets (OEIS A146971): a row-by-row transfer-matrix count.

Why it is fast. n cells can fill the n x n board only if no infection ever loses perimeter
(the board's perimeter 4n equals the n cells' 4n, and every infection changes it by 4 - 2k <= 0).
So every prefix of a percolating set, taken row by row, must close to a union of rectangles whose
perimeter is exactly 4 x (cells so far): a "tight" closure. The closure of the cells in rows 0..r
never reaches below row r (a cell there has at most one filled neighbour), so the future only sees
that closure. The count is therefore a dynamic programme over rows whose states are closures
(row bitmasks), merged under the left-right mirror, with the prefixes leading to each state
counted rather than enumerated. Dead states are pruned by the perimeter test and by how many cells
are still needed to touch every remaining pair of adjacent rows and columns.

The last layers are the widest, so the final rows are walked depth first from each stored state
instead (walked_rows). Both cores: chunks of states go to two threads (the kernels release the GIL).
The permutation variant (one cell per row and column) adds the used columns to the state.
Example sets for `count --show K` come from a depth-first walk of the same transitions.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from ...models.core import OPTIMISE, Count, Options, Question
from ...search import tasks
from ...search.bits import Int, popcount, reverse
from ...search.deadline import NEVER, Deadline
from ...search.outcome import Outcome, Progress, Refused
from ...search.tasks import Settings, Split

EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)   # never a valid key word: rows use at most the low 63 bits
KEY_WORDS = 4                            # three words of closure rows, one of used columns
N_MAX = 12                               # 63 // 12 = 5 rows per word: three words hold 15 rows


# -- bit helpers on one board (rows as int64 masks) -------------------------------------------
@njit(cache=True)
def _close(rows: np.ndarray, last: int, w: int) -> None:
    """Fill rows[0..last] in place: any cell with >= 2 filled orthogonal neighbours, to a fixpoint.
    New cells arrive at the bottom row and growth climbs, so the sweeps go bottom-up and settle
    each row before moving on."""
    full = (1 << w) - 1
    changed = True
    while changed:
        changed = False
        for i in range(last, -1, -1):
            up = rows[i - 1] if i > 0 else 0
            dn = rows[i + 1] if i < last else 0
            x = rows[i]
            while True:
                lf = (x << 1) & full
                rt = x >> 1
                grown = x | (up & dn) | ((up | dn) & (lf | rt)) | (lf & rt)
                if grown == x:
                    break
                x = grown
                changed = True
            rows[i] = x


@njit(cache=True)
def _perimeter(rows: np.ndarray, last: int) -> int:
    p = 0
    for i in range(last + 1):
        x = rows[i]
        p += 4 * popcount(x) - 2 * popcount(x & (x >> 1))
        if i < last:
            p -= 2 * popcount(x & rows[i + 1])
    return p


@njit(cache=True)
def _cells_needed(rows: np.ndarray, r: int, h: int, w: int) -> int:
    """A lower bound on the cells still to place below row r: every pair of adjacent rows and
    columns, and the edge rows and columns, must hold a chosen cell (the closure covers those
    that already do; rows 0..r are final)."""
    cols = 0
    for i in range(r + 1):
        cols |= rows[i]
    need_c = 0
    covered_prev = True
    for e in range(w):
        cov = (cols >> e) & 1
        if not cov and (e == 0 or not covered_prev or e == w - 1):
            cov = 1
            need_c += 1
        covered_prev = cov == 1
    rem = h - 1 - r
    need_r = 0
    if rem > 0:
        need_r = (rem + 1) // 2 if rows[r] != 0 else (rem + 2) // 2
    return max(need_c, need_r)


@njit(cache=True)
def _full(rows: np.ndarray, h: int, w: int) -> bool:
    for i in range(h):
        if rows[i] != (1 << w) - 1:
            return False
    return True


@njit(cache=True)
def _rows_ok(rows: np.ndarray, r: int) -> bool:
    """Row 0 holds a cell, and no two adjacent rows up to r are both empty of the closure."""
    if rows[0] == 0:
        return False
    return not (r >= 1 and rows[r] == 0 and rows[r - 1] == 0)


# -- the state key: closure rows packed into words, plus used columns -------------------------
@njit(cache=True)
def _pack(rows: np.ndarray, last: int, w: int, used: Int, key: np.ndarray) -> None:
    per_word = 63 // w
    key[:] = 0
    for i in range(last + 1):
        key[i // per_word] |= np.uint64(rows[i]) << np.uint64((i % per_word) * w)
    key[KEY_WORDS - 1] = np.uint64(used)


@njit(cache=True)
def _unpack(key: np.ndarray, last: int, w: int, rows: np.ndarray) -> Int:
    per_word = 63 // w
    full = np.uint64((1 << w) - 1)
    for i in range(rows.shape[0]):
        rows[i] = 0
    for i in range(last + 1):
        rows[i] = np.int64((key[i // per_word] >> np.uint64((i % per_word) * w)) & full)
    return np.int64(key[KEY_WORDS - 1])


@njit(cache=True)
def _canonical(rows: np.ndarray, last: int, w: int, used: Int, key: np.ndarray,
               alt: np.ndarray, mirrored: np.ndarray) -> None:
    """Key of the state or of its mirror image, whichever is smaller: mirror images have the
    same futures, and the full board is its own mirror, so merging them keeps the count exact."""
    _pack(rows, last, w, used, key)
    for i in range(last + 1):
        mirrored[i] = reverse(rows[i], w)
    _pack(mirrored, last, w, reverse(used, w), alt)
    for w in range(KEY_WORDS - 1, -1, -1):
        if alt[w] != key[w]:
            if alt[w] < key[w]:
                key[:] = alt
            return


# -- an open-addressing hash table of states -> number of prefixes -----------------------------
@njit(cache=True)
def _slot(keys: np.ndarray, key: np.ndarray) -> Int:
    mask = keys.shape[0] - 1
    h = np.uint64(1469598103934665603)
    for w in range(KEY_WORDS):
        h = (h ^ key[w]) * np.uint64(1099511628211)
        h ^= h >> np.uint64(29)
    s = np.int64(h & np.uint64(mask))
    while True:
        if keys[s, 0] == EMPTY:
            return s
        same = True
        for w in range(KEY_WORDS):
            if keys[s, w] != key[w]:
                same = False
                break
        if same:
            return s
        s = (s + 1) & mask


@njit(cache=True)
def _add(keys: np.ndarray, counts: np.ndarray, key: np.ndarray, c: Int) -> int:
    """Add c prefixes to the state; returns 1 when the state is new."""
    s = _slot(keys, key)
    if keys[s, 0] == EMPTY:
        keys[s, :] = key
        counts[s] = c
        return 1
    counts[s] += c
    return 0


@njit(cache=True)
def _rehash(keys: np.ndarray, counts: np.ndarray, capacity: int):
    new_keys = np.full((capacity, KEY_WORDS), EMPTY, dtype=np.uint64)
    new_counts = np.zeros(capacity, dtype=np.int64)
    for s in range(keys.shape[0]):
        if keys[s, 0] != EMPTY:
            _add(new_keys, new_counts, keys[s], counts[s])
    return new_keys, new_counts


def _table(capacity: int) -> tuple[np.ndarray, np.ndarray]:
    return np.full((capacity, KEY_WORDS), EMPTY, dtype=np.uint64), np.zeros(capacity, dtype=np.int64)


# -- one row of the transfer matrix --------------------------------------------------------
def row_patterns(w: int) -> tuple[np.ndarray, np.ndarray]:
    """Every row pattern without two horizontally adjacent cells, sorted by size, and ends[k] =
    how many have at most k cells: a row with k cells left to place tries only ends[k] of them."""
    pats = sorted((p for p in range(1 << w) if p & (p >> 1) == 0), key=lambda p: (bin(p).count("1"), p))
    sizes = [bin(p).count("1") for p in pats]
    ends = np.array([sum(1 for s in sizes if s <= k) for k in range(w + 1)], dtype=np.int64)
    return np.array(pats, dtype=np.int64), ends


@njit(cache=True)
def _patterns(allowed: Int, left: int, table: np.ndarray, ends: np.ndarray, out: np.ndarray) -> int:
    """The patterns of at most `left` cells inside `allowed` (the empty one included)."""
    k = 0
    for j in range(ends[min(left, ends.shape[0] - 1)]):
        p = table[j]
        if (p & ~allowed) == 0:
            out[k] = p
            k += 1
    return k


@njit(cache=True)
def _extend(rows: np.ndarray, r: int, h: int, w: int, p: Int, placed: int, permutation: bool,
            work: np.ndarray) -> bool:
    """work = the closure after adding pattern p as row r to the closure `rows` of rows 0..r-1;
    False when that can no longer lead to a filled board."""
    k = popcount(p)
    left = (h + w) // 2 - placed
    if k > left or (permutation and k != 1):
        return False
    below = h - 1 - r          # rows still to come; row r stays empty of the closure iff p is empty
    if (below == 0 and k != left) or left - k < ((below + 1) // 2 if p else (below + 2) // 2):
        return False           # the cells left cannot touch every pair of rows below (and row n-1)
    work[:] = rows
    work[r] = p
    _close(work, r, w)
    if _perimeter(work, r) != 4 * (placed + k):
        return False                      # perimeter lost: (h + w) / 2 cells can no longer fill h x w
    if not _rows_ok(work, r) or _cells_needed(work, r, h, w) > left - k:
        return False
    return r < h - 1 or _full(work, h, w)


@njit(cache=True)
def _allowed(rows: np.ndarray, r: int, w: int, used: Int, permutation: bool) -> Int:
    """Cells of row r that may be chosen: not under the closure (no perimeter loss), and for the
    permutation variant not in a used column."""
    allowed = ((1 << w) - 1) & ~(rows[r - 1] if r > 0 else 0)
    return allowed & ~used if permutation else allowed


@njit(cache=True, nogil=True)
def _step(src, lo: int, hi: int, r: int, shape, patterns, dst):
    """Extend the states in slots lo..hi-1 of the table src = (keys, counts) by every admissible
    pattern of row r, into dst = (keys, counts, size). shape = (h, w, permutation) is the board,
    patterns = (table, ends) its row patterns (row_patterns).
    Returns the destination table (grown as needed) and its size."""
    src_keys, src_counts = src
    h, w, permutation = shape
    table, ends = patterns
    keys, counts, size = dst
    rows = np.zeros(h, dtype=np.int64)
    work = np.zeros(h, dtype=np.int64)
    key = np.zeros(KEY_WORDS, dtype=np.uint64)
    alt = np.zeros(KEY_WORDS, dtype=np.uint64)
    mirrored = np.zeros(h, dtype=np.int64)
    pats = np.zeros(table.shape[0], dtype=np.int64)
    for s in range(lo, hi):
        if src_keys[s, 0] == EMPTY:
            continue
        used = _unpack(src_keys[s], r - 1, w, rows)
        placed = _perimeter(rows, r - 1) // 4
        npat = _patterns(_allowed(rows, r, w, used, permutation), (h + w) // 2 - placed, table, ends, pats)
        for j in range(npat):
            p = pats[j]
            if not _extend(rows, r, h, w, p, placed, permutation, work):
                continue
            _canonical(work, r, w, used | p, key, alt, mirrored)
            size += _add(keys, counts, key, src_counts[s])
            if 2 * size > keys.shape[0]:
                keys, counts = _rehash(keys, counts, 2 * keys.shape[0])
    return keys, counts, size


@njit(cache=True)
def _merge(keys: np.ndarray, counts: np.ndarray, size: int, other_keys: np.ndarray,
           other_counts: np.ndarray):
    for s in range(other_keys.shape[0]):
        if other_keys[s, 0] != EMPTY:
            size += _add(keys, counts, other_keys[s], other_counts[s])
            if 2 * size > keys.shape[0]:
                keys, counts = _rehash(keys, counts, 2 * keys.shape[0])
    return keys, counts, size


class _Timeout(Exception):
    pass


def walked_rows(h: int, w: int) -> int:
    """How many final rows are walked depth first instead of stored as layers of states. The last
    layers are the widest (n = 9: 3.9 million states after row 5, 38.7 million after row 6, over
    9 GB of tables), so at most six rows are stored; walking costs little more time (n = 8:
    7.1 s CPU walking 3 rows, 10.7 s storing all). Boards of few rows are stored whole: walking
    visits every set one by one."""
    return 0 if h < 7 or w < 7 else max(2, h - 6)


def count_sets(n: int, permutation: bool = False, threads: int = 2, deadline: Deadline = NEVER,
               progress: Callable[[int, int], None] | None = None, walk: int | None = None) -> int:
    """The number of n-cell sets that fill the n x n board (permutation: one per row and column).
    Raises _Timeout when the deadline passes."""
    if not 1 <= n <= N_MAX:
        raise ValueError(f"the native counter handles 1 <= n <= {N_MAX}")
    return count_rectangle(n, n, permutation, threads, deadline, progress, walk)


def count_rectangle(h: int, w: int, permutation: bool = False, threads: int = 2,
                    deadline: Deadline = NEVER, progress: Callable[[int, int], None] | None = None,
                    walk: int | None = None) -> int:
    """The number of (h + w) / 2-cell sets that fill the h x w rectangle (h rows of width w; 0 when
    h + w is odd). Rows 0..h-walk-1 go layer by layer through hash tables of states, the last
    `walk` rows depth first from each stored state, chunk by chunk on threads (the task layer runs the
    same chunks as journaled tasks: count_task)."""
    walk = walked_rows(h, w) if walk is None else max(0, min(walk, h))
    if (h + w) % 2:
        return 0
    states = stored_states(h, w, permutation, walk, threads, deadline, progress)
    if walk == 0:
        return int(states[1].sum())
    sums = [0] * max(1, threads)

    def finish(t: int, lo: int) -> None:
        sums[t] += _finish_states(states, lo, min(lo + CHUNK, len(states[1])), (h, w, permutation), walk)

    _run_chunks(finish, len(states[1]), CHUNK, max(1, threads), deadline)
    return sum(sums)


CHUNK = 1024                    # states per chunk of work


def stored_states(h: int, w: int, permutation: bool, walk: int, threads: int = 2, deadline: Deadline = NEVER,
                  progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The states after rows 0..h-walk-1 with their prefix counts, sorted by key: the same arrays in
    every process and on every run, whatever the threads did, so that a chunk of them is a task."""
    if not (1 <= w <= 63 and 1 <= h <= (KEY_WORDS - 1) * (63 // w)) or (permutation and h != w):
        raise ValueError(f"the transfer matrix cannot hold a {h} x {w} board")
    patterns = row_patterns(w)
    keys, counts = _table(16)
    _add(keys, counts, np.zeros(KEY_WORDS, dtype=np.uint64), np.int64(1))
    for r in range(h - walk):
        keys, counts, size = _layer((keys, counts), r, (h, w, permutation), patterns, max(1, threads), CHUNK,
                                    deadline)
        if progress is not None:
            progress(r, size)
    used = keys[:, 0] != EMPTY
    keys, counts = keys[used], counts[used]
    order = np.lexsort(keys.T[::-1])
    return np.ascontiguousarray(keys[order]), np.ascontiguousarray(counts[order])


def _finish_states(states: tuple[np.ndarray, np.ndarray], lo: int, hi: int, shape: tuple[int, int, bool],
                   walk: int) -> int:
    return int(_finish(states, lo, hi, shape[0] - walk, shape, row_patterns(shape[1])))


_STATES: dict[tuple[int, bool, int], tuple[np.ndarray, np.ndarray]] = {}


def _states_here(n: int, permutation: bool, walk: int, threads: int = 1,
                 deadline: Deadline = NEVER) -> tuple[np.ndarray, np.ndarray]:
    """The stored states of the n x n count, built once per process (a Dask worker's first task)."""
    key = (n, permutation, walk)
    if key not in _STATES:
        _STATES[key] = stored_states(n, n, permutation, walk, threads, deadline)
    return _STATES[key]


def count_task(task: tuple[int, bool, int, int, int], stop_at: float) -> Outcome[None]:
    """One chunk of the walked rows of the n x n count, as a task of the task layer (it is not cut
    short: a chunk takes well under a second)."""
    n, permutation, walk, lo, hi = task
    count = _finish_states(_states_here(n, permutation, walk), lo, hi, (n, n, permutation), walk)
    return Outcome(count=count, positions=hi - lo, tasks=1)


def count_split(n: int, permutation: bool, threads: int = 2, deadline: Deadline = NEVER) -> tuple[Split, int]:
    """The count as journaled tasks (chunks of the stored states), and the part counted without
    tasks (boards whose rows are all stored: no walk). Raises _Timeout when the deadline passes."""
    walk = walked_rows(n, n)
    states = _states_here(n, permutation, walk, threads, deadline)
    if walk == 0:
        return Split("percolation", {"n": n, "permutation": permutation}, [], count_task), int(states[1].sum())
    chunks = [(n, permutation, walk, lo, min(lo + CHUNK, len(states[1]))) for lo in range(0, len(states[1]), CHUNK)]
    return Split("percolation", {"n": n, "permutation": permutation, "walk": walk, "chunk": CHUNK}, chunks,
                 count_task), 0


def _layer(src: tuple[np.ndarray, np.ndarray], r: int, shape: tuple[int, int, bool],
           patterns: tuple[np.ndarray, np.ndarray], threads: int, chunk: int,
           deadline: Deadline) -> tuple[np.ndarray, np.ndarray, int]:
    """The states after row r: chunks of the source table extended by the threads into tables of
    their own, then merged."""
    parts = [(*_table(1 << 12), 0) for _ in range(threads)]

    def extend(t: int, lo: int) -> None:
        parts[t] = _step(src, lo, min(lo + chunk, src[0].shape[0]), r, shape, patterns, parts[t])

    _run_chunks(extend, src[0].shape[0], chunk, threads, deadline)
    parts.sort(key=lambda p: -p[2])
    keys, counts, size = parts[0]
    for k, c, _ in parts[1:]:
        keys, counts, size = _merge(keys, counts, size, k, c)
    return keys, counts, size


def _run_chunks(work: Callable[[int, int], None], total: int, chunk: int, threads: int,
                deadline: Deadline) -> None:
    """work(thread, lo) for lo = 0, chunk, 2*chunk, ... < total, handed out to `threads` threads
    as they come free (the numba kernels release the GIL); errors and the deadline re-raise here."""
    lock = threading.Lock()
    starts = iter(range(0, total, chunk))

    def loop(t: int) -> None:
        while True:
            if deadline.passed():
                raise _Timeout()
            with lock:
                lo = next(starts, None)
            if lo is None:
                return
            work(t, lo)

    _run_parallel(loop, threads)


def _run_parallel(work: Callable[[int], None], threads: int) -> None:
    """Run work(0..threads-1) in threads (the numba kernels release the GIL); re-raise errors."""
    errors: list[BaseException] = []

    def guarded(t: int) -> None:
        try:
            work(t)
        except BaseException as e:
            errors.append(e)

    pool = [threading.Thread(target=guarded, args=(t,)) for t in range(1, threads)]
    for th in pool:
        th.start()
    guarded(0)
    for th in pool:
        th.join()
    if errors:
        raise errors[0]


# -- depth-first walk: the last rows of the count, example sets, and a cross-check ------------
@njit(cache=True, nogil=True)
def _dfs(start: np.ndarray, d0: int, used0: Int, shape, patterns, limit: int, count_all: bool, offset: int,
         found: np.ndarray) -> int:
    """Walk the row transitions depth first from the closure `start` of rows 0..d0-1 (shape and
    patterns as in _step), one set at a time. Returns how many completions it met (all of them when
    count_all, else it stops at `limit`) and stores the first `limit` of them in `found` as the
    chosen cells' rows d0..n-1; `offset` rotates the order in which each row's patterns are tried (a cheap seed)."""
    h, w, permutation = shape
    table, ends = patterns
    cells = (h + w) // 2
    clos = np.zeros((h + 1, h), dtype=np.int64)
    pats = np.zeros((h, table.shape[0]), dtype=np.int64)
    npat = np.zeros(h, dtype=np.int64)
    idx = np.zeros(h, dtype=np.int64)
    placed = np.zeros(h + 1, dtype=np.int64)
    used = np.zeros(h + 1, dtype=np.int64)
    chosen = np.zeros(h, dtype=np.int64)
    work = np.zeros(h, dtype=np.int64)
    clos[d0, :] = start
    placed[d0] = _perimeter(start, d0 - 1) // 4
    used[d0] = used0
    npat[d0] = _patterns(_allowed(start, d0, w, used0, permutation), cells - placed[d0], table, ends, pats[d0])
    idx[d0] = 0
    total = 0
    d = d0
    while d >= d0:
        if idx[d] == npat[d]:
            d -= 1
            continue
        p = pats[d, (idx[d] + offset) % npat[d]]
        idx[d] += 1
        if not _extend(clos[d], d, h, w, p, placed[d], permutation, work):
            continue
        chosen[d] = p
        if d == h - 1:
            if total < limit:
                found[total, :] = chosen
            total += 1
            if not count_all and total >= limit:
                break
            continue
        clos[d + 1, :] = work
        placed[d + 1] = placed[d] + popcount(p)
        used[d + 1] = used[d] | p
        d += 1
        npat[d] = _patterns(_allowed(work, d, w, used[d], permutation), cells - placed[d], table, ends, pats[d])
        idx[d] = 0
    return total


@njit(cache=True, nogil=True)
def _finish(src, lo: int, hi: int, r: int, shape, patterns) -> Int:
    """Sum over the states (closures of rows 0..r-1) in slots lo..hi-1 of src = (keys, counts) of
    their prefix counts times their completions, found depth first: the last layers are the widest,
    so they are walked instead of stored."""
    src_keys, src_counts = src
    h, w, _ = shape
    rows = np.zeros(h, dtype=np.int64)
    none = np.zeros((1, h), dtype=np.int64)
    total = np.int64(0)
    for s in range(lo, hi):
        if src_keys[s, 0] == EMPTY:
            continue
        used = _unpack(src_keys[s], r - 1, w, rows)
        total += src_counts[s] * _dfs(rows, r, used, shape, patterns, 0, True, 0, none)
    return total


def example_sets(n: int, k: int, permutation: bool = False, seed: int = 0) -> list[dict]:
    """Up to k percolating sets as puzzle solutions {"n", "cells"}."""
    if k <= 0:
        return []
    found = np.zeros((k, n), dtype=np.int64)
    got = _dfs(np.zeros(n, dtype=np.int64), 0, 0, (n, n, permutation), row_patterns(n), k, False, seed, found)
    return [{"n": n, "cells": [[r, c] for r in range(n) for c in range(n) if (m[r] >> c) & 1]}
            for m in found[:min(got, k)]]


def enumerate_count(n: int, permutation: bool = False) -> int:
    """The count by plain enumeration of every set (slow; cross-checks count_sets for small n)."""
    return int(_dfs(np.zeros(n, dtype=np.int64), 0, 0, (n, n, permutation), row_patterns(n), 0, True, 0,
                    np.zeros((1, n), dtype=np.int64)))


def warm_up() -> None:
    """Compile the counter and the example walk (numba caches them on disk)."""
    count_sets(3, threads=2)
    count_sets(3, threads=2, walk=1)    # boards of 7 rows and more walk their last rows (_finish)
    example_sets(3, 1)


def solve(n: int | None, params: Any, options: Options, report: Progress,
          question: Question = OPTIMISE) -> Outcome[Any]:
    """The transfer-matrix side of the native search (counting.solve dispatches): the exact count
    (the Count question) or one percolating set."""
    assert n is not None
    counting = isinstance(question, Count)
    permutation = params.permutation
    if not 1 <= n <= N_MAX:
        if not counting and not permutation:       # the diagonal fills any board
            return Outcome(witness={"n": n, "cells": [[i, i] for i in range(n)]}, message="the diagonal")
        raise Refused(f"the transfer-matrix counter handles 1 <= n <= {N_MAX}")
    seed = int(options.seed or 0)
    if not isinstance(question, Count):
        found = example_sets(n, 1, permutation, seed)
        return Outcome(witness=found[0] if found else None,
                       message="a percolating set" if found else "no percolating set")
    examples = example_sets(n, question.show, permutation, seed)
    deadline = Deadline.after(options.time_limit)
    try:
        split, stored = count_split(n, permutation, options.threads, deadline)
    except _Timeout:
        return Outcome(complete=False, examples=tuple(examples), message="time limit while the rows were stored")
    left = None if options.time_limit is None else deadline.left()
    settings = Settings.of(options, left)
    out = tasks.run(split, settings, Outcome(count=stored))
    if not out.complete:
        return Outcome(complete=False, examples=tuple(examples),
                       message=f"time limit: {out.tasks} tasks, the count was not finished (rerun to resume)")
    report(Outcome(count=out.count, complete=False))
    return Outcome(count=out.count, examples=tuple(examples),
                   message=f"exact row-by-row transfer-matrix count ({len(split.tasks)} journaled tasks)")

