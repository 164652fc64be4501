"""Record hunt for stepping stones, on the method behind the published best-known boards
(J.-C. Meyrignac's beam for Al Zimmermann's 2022 contest; the ideas, in our own code).

Why each part:
- One beam serves every n up to `nmax`: ones are placed lazily, one at a time, on a cell that touches
  no number yet (so no earlier sum changes), next to the number that needs it. The beam keeps the
  best board per number of ones used, so one run gives a record for every n <= nmax.
- Children are ranked by a lexicographic score: ones still in hand, then how many distinct sums
  above the last value the empty cells offer, how many cells carry such a sum (a sum equal to the
  last value counts while ones remain), the small sums, a random tie-break. Restarts recombine the
  keys with random coefficients (ones in hand stay first).
- The beam is a hash table of prime size near the width, indexed by a Zobrist hash canonical under
  the 8 symmetries about the 2; on a collision the higher score stays. That removes duplicate
  boards and thins the beam at random in one step; every surviving board is expanded.
- A placement filter for new ones: none at offsets from an existing one that the published record
  boards never show (see forbidden_offsets).
- Post-processing: the best board is cut back to its first M numbers and the beam re-run from there.
- Our addition, the lookahead beam (half the hunt's worker time): a narrow beam whose children are
  ranked by the exact kernel's best value with one more one in hand. It sees record boards from
  about 10 numbers in, where the counting keys see nothing until 20 to 30 (docs/notes/stones-record.md).
"""
from __future__ import annotations

import concurrent.futures as cf
import csv
import fcntl
import heapq
import json
import math
import queue
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from ...models.core import OPTIMISE, Options, Question
from ...search.compiled import transform
from ...search.deadline import NEVER, Deadline
from ...search.outcome import Outcome, Progress
from ...search.tasks import Settings, executor, journals
from .check import check, draw
from .kernel import subtree

G = 128                          # grid side; cell p = row * G + col, the 2 at the centre
MID = G // 2
CENTRE = MID * G + MID
EDGE = 4                         # numbers closer than this to the border are not placed
ONE = 1 << 14                    # a one in a placement sequence: ONE + cell (cells < 2 ** 14)
MAXS = 4096                      # neighbour sums kept in the histogram (8 * 400 < 4096)
REACH = 11                       # the filter's reach along a row or column
DIRS = np.array([-G - 1, -G, -G + 1, -1, 1, G - 1, G, G + 1], dtype=np.int64)
LEXICOGRAPHIC = np.array([512.0 ** 3, 512.0 ** 2, 512.0, 1.0, 1.0])   # ones, distinct, large, small, noise


def published_boards() -> dict[int, list[list[int]]]:
    """Published best-known boards (data/record-boards.csv, with their source): reference data for
    deriving the filter and for tests, never reported as found here."""
    with (Path(__file__).parent / "data" / "record-boards.csv").open() as f:
        return {int(r["n"]): json.loads(r["board"]) for r in csv.DictReader(f)}


def forbidden_offsets(kind: str) -> np.ndarray:
    """The placement filter as a (2 REACH + 1)^2 table, True where a new one may not sit relative to
    a one already placed. "near": the 5 x 5 square less its corners, the offsets absent from the
    published record boards for n = 7..10 (data/record-boards.csv; measured there, every larger offset
    occurs or is too sparse to call); "wide": the record method's own blob (7 x 7 less its corners,
    plus the row and the column up to 11 cells; one published n = 7 board breaks it); "off"."""
    d = np.abs(np.arange(-REACH, REACH + 1))
    dr, dc = d[:, None], d[None, :]
    if kind == "near":
        return (np.maximum(dr, dc) <= 2) & ~((dr == 2) & (dc == 2))
    if kind == "wide":
        return ((np.maximum(dr, dc) <= 3) & ~((dr == 3) & (dc == 3))) | (dr == 0) | (dc == 0)
    if kind == "off":
        return np.zeros_like(dr + dc, dtype=np.bool_)
    raise ValueError(f"unknown filter {kind!r} (near, wide, off)")


FILTERS = {kind: forbidden_offsets(kind) for kind in ("near", "wide", "off")}


def value_cap(nmax: int) -> int:
    """No beam places a number this large (every known record is below 10 n + 2)."""
    return 10 * nmax + 15


def score_cap(nmax: int) -> int:
    """Sums at or above this do not count in the score: a board is not rewarded for sums it will
    never use (measured at width 5e4, 5 seeds of random weights: n = 8 mean 72.8 against 71.4 with
    the value cap, n = 7 66.0 against 65.6)."""
    return 10 * nmax + 5


@njit(cache=True, inline="always")
def _mix(x):
    """A 64-bit mixer (wrapping int64 arithmetic): the Zobrist key of a (cell, value) code."""
    x = (x ^ (x >> 31)) * 0x5851F42D4C957F2D
    x = (x ^ (x >> 29)) * 0x2545F4914F6CDD1D
    return x ^ (x >> 32)


@njit(cache=True)
def _zobrist(h8, p, v):
    """XOR the key of value v at cell p into the board's 8 hashes, one per symmetry about the centre."""
    for o in range(8):
        dr, dc = transform(o, p // G - MID, p % G - MID)
        h8[o] ^= _mix(((dr + MID) * G + dc + MID) * 1024 + v + 0x1234567)


@njit(cache=True, inline="always")
def _put(val, sm, nadj, cnt, p, v, sign):
    """Place (sign 1) or lift (sign -1) value v at p, keeping neighbour sums, the count of adjacent
    numbers >= 2 (nadj) and the histogram of empty cells per sum (cnt) up to date."""
    if sign > 0:
        if sm[p] > 0:
            cnt[sm[p]] -= 1
        val[p] = v
    for j in range(8):
        q = p + DIRS[j]
        empty = val[q] == 0
        if empty and sm[q] > 0:
            cnt[sm[q]] -= 1
        sm[q] += sign * v
        if v >= 2:
            nadj[q] += sign
        if empty and sm[q] > 0:
            cnt[sm[q]] += 1
    if sign < 0:
        val[p] = 0
        if sm[p] > 0:
            cnt[sm[p]] += 1


@njit(cache=True)
def _keys(cnt, k, rem, cap):
    """The score's keys after k was placed with rem ones in hand: distinct sums in (k, cap) on empty
    cells, cells carrying them (plus cells at sum k while ones remain), cells with small sums (below k
    and still able to reach a value below cap)."""
    distinct = 0
    large = 0
    for s in range(k + 1, min(cap, MAXS)):
        if cnt[s] > 0:
            distinct += 1
            large += cnt[s]
    if rem > 0:
        large += cnt[k]
    small = 0
    for s in range(1, min(k, cap - k)):
        small += cnt[s]
    return distinct, large, small


@njit(cache=True)
def _switch(seq, n, ncur, grid, ones):
    """Turn the grid holding the placement sequence cur[:ncur] into one holding seq[:n]: only the
    entries after their common prefix are lifted and placed (the beam is kept in the order of its
    parents, so neighbours in it share all but their last moves). grid = (val, sm, nadj, cnt, cur,
    before, box): before[i] = (numbers, ones) among the first i entries, box[i] their bounding box;
    ones[j] is the j-th one's cell. Returns n."""
    val, sm, nadj, cnt, cur, before, box = grid
    d = 0
    while d < ncur and d < n and cur[d] == seq[d]:
        d += 1
    for i in range(ncur - 1, d - 1, -1):
        e = cur[i]
        if e >= ONE:
            _put(val, sm, nadj, cnt, e - ONE, 1, -1)
        else:
            _put(val, sm, nadj, cnt, e, before[i, 0] + 2, -1)
    for i in range(d, n):
        e = seq[i]
        cur[i] = e
        before[i + 1] = before[i]
        if e >= ONE:
            p = e - ONE
            _put(val, sm, nadj, cnt, p, 1, 1)
            ones[before[i, 1]] = p
            before[i + 1, 1] += 1
        else:
            p = e
            _put(val, sm, nadj, cnt, p, before[i, 0] + 2, 1)
            before[i + 1, 0] += 1
        r, c = p // G, p % G
        box[i + 1, 0] = min(box[i, 0], r)
        box[i + 1, 1] = max(box[i, 1], r)
        box[i + 1, 2] = min(box[i, 2], c)
        box[i + 1, 3] = max(box[i, 3], c)
    return n


@njit(cache=True)
def _allowed(q, ones, nones, filt):
    """The placement filter: q keeps clear of every one by the forbidden offsets."""
    for i in range(nones):
        dr = q // G - ones[i] // G
        dc = q % G - ones[i] % G
        if abs(dr) <= REACH and abs(dc) <= REACH and filt[dr + REACH, dc + REACH]:
            return False
    return True


@njit(cache=True, nogil=True)
def _level(k, nmax, cap, seed, rules, beam, nb, table, grid, rec):
    """Place k on the nb boards of the beam (seq, nseq, h8); rules = (weights, filter). Children go
    into the hash table (t_*: prime size, the higher score stays on a collision; the weight of ones
    in hand must dominate the others, since a child with fewer ones in hand than a slot's holder is
    dropped unscored). Each first board reaching k with u ones is kept in rec = (rec_k, rec_seq,
    rec_n). Returns the number of children made."""
    w, filt = rules
    seq, nseq, h8 = beam
    t_score, t_left, t_par, t_p, t_q, t_h8 = table
    val, sm, nadj, cnt, cur, before, box = grid
    rec_k, rec_seq, rec_n = rec
    np.random.seed(seed)
    t_score[:] = -np.inf
    t_left[:] = -1
    prime = t_score.shape[0]
    ones = np.empty(nmax + 1, dtype=np.int64)
    hc = np.empty(8, dtype=np.int64)
    made = 0
    ncur = 0
    for b in range(nb):
        n = nseq[b]
        ncur = _switch(seq[b], n, ncur, grid, ones)
        nones = before[n, 1]
        r0, r1, c0, c1 = box[n, 0], box[n, 1], box[n, 2], box[n, 3]
        rem = nmax - nones
        for r in range(max(EDGE, r0 - 1), min(G - EDGE, r1 + 2)):
            for c in range(max(EDGE, c0 - 1), min(G - EDGE, c1 + 2)):
                p = r * G + c
                if val[p] != 0 or sm[p] < k - 1 or sm[p] > k:
                    continue
                for j in range(-1, 8):
                    if j < 0:
                        if sm[p] != k:
                            continue
                        q = -1
                    else:
                        if sm[p] != k - 1 or rem == 0:
                            break
                        q = p + DIRS[j]
                        if val[q] != 0 or nadj[q] != 0 or not _allowed(q, ones, nones, filt):
                            continue
                    made += 1
                    left = rem - (q >= 0)
                    u = nmax - left
                    if k > rec_k[u]:
                        rec_k[u] = k
                        rec_seq[u, :n] = seq[b, :n]
                        m = n
                        if q >= 0:
                            rec_seq[u, m] = ONE + q
                            m += 1
                        rec_seq[u, m] = p
                        rec_n[u] = m + 1
                    hc[:] = h8[b]
                    _zobrist(hc, p, k)
                    if q >= 0:
                        _zobrist(hc, q, 1)
                    slot = hc.min() % prime
                    if t_left[slot] > left:
                        continue            # ones in hand come first: this child cannot win the slot
                    if q >= 0:
                        _put(val, sm, nadj, cnt, q, 1, 1)
                    _put(val, sm, nadj, cnt, p, k, 1)
                    distinct, large, small = _keys(cnt, k, left, cap)
                    score = (w[0] * left + w[1] * distinct + w[2] * large + w[3] * small
                             + w[4] * np.random.random())
                    _put(val, sm, nadj, cnt, p, k, -1)
                    if q >= 0:
                        _put(val, sm, nadj, cnt, q, 1, -1)
                    if score > t_score[slot]:
                        t_score[slot] = score
                        t_left[slot] = left
                        t_par[slot] = b
                        t_p[slot] = p
                        t_q[slot] = q
                        t_h8[slot] = hc
    _switch(seq[0], 0, ncur, grid, ones)     # the grid empty again
    return made


@njit(cache=True, nogil=True)
def _gather(table, beam, nb, out, score):
    """The table's boards become the next beam `out` (their scores in `score`), in the order of their
    parents in `beam` (so that neighbours share long prefixes); returns its size."""
    t_score, _, t_par, t_p, t_q, t_h8 = table
    seq, nseq, _ = beam
    out_seq, out_nseq, out_h8 = out
    start = np.zeros(nb + 1, dtype=np.int64)
    for slot in range(t_score.shape[0]):
        if t_score[slot] != -np.inf:
            start[t_par[slot] + 1] += 1
    for b in range(nb):
        start[b + 1] += start[b]
    for slot in range(t_score.shape[0]):
        if t_score[slot] == -np.inf:
            continue
        b = t_par[slot]
        i = start[b]
        start[b] += 1
        m = nseq[b]
        out_seq[i, :m] = seq[b, :m]
        if t_q[slot] >= 0:
            out_seq[i, m] = ONE + t_q[slot]
            m += 1
        out_seq[i, m] = t_p[slot]
        out_nseq[i] = m + 1
        out_h8[i] = t_h8[slot]
        score[i] = t_score[slot]
    return start[nb]


def prime_below(n: int) -> int:
    """The largest prime <= n (at least 2): the hash table's size."""
    for m in range(max(n, 2), 1, -1):
        if all(m % d for d in range(2, math.isqrt(m) + 1)):
            return m
    return 2


def to_board(seq: np.ndarray) -> list[list[int]]:
    """A placement sequence as [row, col, value] triples, top-left cell at (0, 0)."""
    rows, v = [], 2
    for e in map(int, seq):
        if e >= ONE:
            rows.append([(e - ONE) // G, (e - ONE) % G, 1])
        else:
            rows.append([e // G, e % G, v])
            v += 1
    r0, c0 = min(r for r, _, _ in rows), min(c for _, c, _ in rows)
    return sorted(([r - r0, c - c0, x] for r, c, x in rows), key=lambda t: t[2])


def to_sequence(board: list[list[int]], upto: int, kept: frozenset[tuple[int, int]] = frozenset()) -> list[int]:
    """The lazy placement sequence of a legal board's numbers 2..upto, the 2 at the centre: the ones
    in `kept` first, then each other one just before the first number it touches (ones touching
    none of them and not kept stay in hand)."""
    where = {v: (r, c) for r, c, v in board if v >= 2}
    ones = {(r, c) for r, c, v in board if v == 1}
    r2, c2 = where[2]
    seq = [ONE + (r - r2 + MID) * G + (c - c2 + MID) for r, c in sorted(kept & ones)]
    ones -= kept
    for v in range(2, upto + 1):
        r, c = where[v]
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (r + dr, c + dc) in ones:
                    ones.discard((r + dr, c + dc))
                    seq.append(ONE + (r + dr - r2 + MID) * G + (c + dc - c2 + MID))
        seq.append((r - r2 + MID) * G + (c - c2 + MID))
    if any(not (EDGE <= (e % ONE) // G < G - EDGE and EDGE <= e % G < G - EDGE) for e in seq):
        raise ValueError("board too large for the grid")
    return seq


def starts() -> list[list[int]]:
    """Every first move: the 2 at the centre with two ones beside it (symmetric ones merge)."""
    return [[ONE + CENTRE + int(a), ONE + CENTRE + int(b), CENTRE]
            for i, a in enumerate(DIRS) for b in DIRS[i + 1:]]


def score_keys(nmax: int, board: list[list[int]]) -> tuple[int, int, int, int]:
    """The score's keys for a legal board (its last number k, the ones it uses): ones in hand,
    distinct sums above k, cells carrying them, small sums. For tests and notes."""
    k = max(v for _, _, v in board)
    seq = np.array(to_sequence(board, k), dtype=np.int16)
    grid = _grid(len(seq))
    _switch(seq, len(seq), 0, grid, np.empty(nmax + 1, dtype=np.int64))
    cnt = grid[3]
    left = nmax - sum(1 for *_, v in board if v == 1)
    distinct, large, small = _keys(cnt, k, left, score_cap(nmax))
    return left, int(distinct), int(large), int(small)


def board_hash(board: list[list[int]]) -> int:
    """The canonical Zobrist hash the beam files a board under (the same for its 8 symmetric images)."""
    h8 = np.zeros(8, dtype=np.int64)
    for e in to_sequence(board, max(v for _, _, v in board)):
        if e >= ONE:
            _zobrist(h8, e - ONE, 1)
    v = 2
    for e in to_sequence(board, max(v for _, _, v in board)):
        if e < ONE:
            _zobrist(h8, e, v)
            v += 1
    return int(h8.min())


def _grid(length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """An empty grid and the bookkeeping of _switch for sequences up to `length` entries."""
    box = np.zeros((length + 1, 4), dtype=np.int64)
    box[0] = (G, -1, G, -1)
    return (np.zeros(G * G, dtype=np.int64), np.zeros(G * G, dtype=np.int64), np.zeros(G * G, dtype=np.int64),
            np.zeros(MAXS, dtype=np.int64), np.zeros(length, dtype=np.int16),
            np.zeros((length + 1, 2), dtype=np.int64), box)


Boards = tuple[np.ndarray, np.ndarray, np.ndarray]


def _pack(sequences: list[Any], size: int, length: int) -> Boards:
    """Placement sequences as a beam (seq, nseq, h8) with room for `size` boards."""
    seq, nseq, h8 = (np.zeros((size, length), dtype=np.int16), np.zeros(size, dtype=np.int64),
                     np.zeros((size, 8), dtype=np.int64))
    for b, s in enumerate(sequences):
        seq[b, :len(s)] = s
        nseq[b] = len(s)
        v = 2
        for e in s:
            _zobrist(h8[b], e - ONE if e >= ONE else e, 1 if e >= ONE else v)
            v += e < ONE
    return seq, nseq, h8


def _table(prime: int) -> tuple[np.ndarray, ...]:
    """An empty hash table of children (score, ones left, parent, cell, one's cell, hashes)."""
    return (np.empty(prime), np.empty(prime, dtype=np.int64), np.empty(prime, dtype=np.int64),
            np.empty(prime, dtype=np.int64), np.empty(prime, dtype=np.int64), np.empty((prime, 8), dtype=np.int64))


def _records(nmax: int, length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first board reaching the highest value per ones count (rec_k, rec_seq, rec_n)."""
    return (np.ones(nmax + 1, dtype=np.int64), np.zeros((nmax + 1, length), dtype=np.int16),
            np.zeros(nmax + 1, dtype=np.int64))


@dataclass
class Records:
    """The best board per number of ones used (value, board), kept by the hunt's driver."""

    nmax: int
    value: list[int] = field(default_factory=list)
    board: list[list[list[int]] | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.value = [1] * (self.nmax + 1)
        self.board = [None] * (self.nmax + 1)

    def best(self, n: int) -> tuple[int, list[list[int]] | None]:
        """The best board using at most n ones."""
        u = max(range(n + 1), key=lambda i: (self.value[i], -i))
        return self.value[u], self.board[u]

    def offer(self, ones: int, value: int, board: list[list[int]]) -> bool:
        """Keep the board if it beats the one held for its ones count; True if it does."""
        if ones > self.nmax or value <= self.value[ones]:
            return False
        self.value[ones], self.board[ones] = value, board
        return True


# (k, scores, boards kept), best first; a true answer stops the beam
LevelHook = Callable[[int, list[float], list[np.ndarray]], bool | None]


def beam(nmax: int, width: int, weights: np.ndarray, seed: int, filt: np.ndarray = FILTERS["near"],
         start: list[int] | None = None, deadline: Deadline = NEVER,
         on_record: Callable[[int, int, list[list[int]]], None] | None = None,
         horizon: int = 1 << 20, on_level: LevelHook | None = None) -> dict[int, int]:
    """One beam run up to nmax ones, from the first moves or from a placement sequence `start`.
    After k, only sums below k + horizon (and below the cap) count as distinct or large sums.
    Calls on_record(ones, value, board) for each first board reaching a value with that many ones,
    and on_level(k, scores, boards) with the boards kept after each level, best first (a true answer
    stops the run); returns {ones: largest value reached}."""
    prime = prime_below(width)
    length = value_cap(nmax) + nmax + 2
    firsts = [start] if start else starts()
    boards = _pack(firsts, max(prime, len(firsts)), length)
    k = sum(1 for e in firsts[0] if e < ONE) + 1
    spare = _pack([], len(boards[1]), length)
    table = _table(prime)
    rec_k, rec_seq, rec_n = rec = _records(nmax, length)
    grid = _grid(length)
    scores = np.empty(len(boards[1]))
    rules = (weights, filt)
    nb = len(firsts)
    reached: dict[int, int] = {}
    rng = np.random.default_rng(seed)
    while nb and k + 1 < value_cap(nmax) and not deadline.passed():
        k += 1
        known = rec_k.copy()
        _level(k, nmax, min(score_cap(nmax), k + horizon), int(rng.integers(1 << 31)), rules, boards, nb,
               table, grid, rec)
        nb = _gather(table, boards, nb, spare, scores)
        boards, spare = spare, boards
        for u in np.flatnonzero(rec_k > known):
            reached[int(u)] = int(rec_k[u])
            if on_record is not None:
                on_record(int(u), int(rec_k[u]), to_board(rec_seq[u, :rec_n[u]]))
        if on_level is not None:
            best = np.argsort(-scores[:nb], kind="stable")
            if on_level(k, scores[best].tolist(), [boards[0][i, :boards[1][i]].copy() for i in best]):
                break
    return reached


ONE_WORTH = 10.0        # numbers a one in hand is worth in the lookahead's potential (about a(n) / n)
WORTHS = (10.0, 13.0)   # the hunt draws it from this range (n = 5, width 300: 8 and 9.1 gave 47, 10 and 12 gave 49)
LOOKAHEAD_POSITIONS = 50_000    # the exact kernel's budget per child of a lookahead beam
LOOKAHEAD_WIDTH = 300   # the hunt's first lookahead beam (n = 5: 49 at 300 in 4 min, 47 at 150)


def _look(seq: np.ndarray, nmax: int, budget: int) -> tuple[list[list[int]], int, int, Outcome[list[list[int]]]]:
    """A child's board, its ones, the extra one its lookahead may place, and that lookahead."""
    board = to_board(seq)
    ones = sum(1 for *_, v in board if v == 1)
    extra = min(1, nmax - ones)
    return board, ones, extra, subtree(ones + extra, board, budget)


def lookahead(nmax: int, width: int, seed: int, filt: np.ndarray = FILTERS["near"], start: list[int] | None = None,
              deadline: Deadline = NEVER, on_record: Callable[[int, int, list[list[int]]], None] | None = None,
              worth: float = ONE_WORTH, threads: int = 1, on_level: LevelHook | None = None) -> dict[int, int]:
    """A narrow beam ranked by an exact lookahead. Each child is scored by its potential: the best
    value the exact kernel reaches from it with one more one (v1), plus `worth` per further one in
    hand. Why: the known best boards look ordinary to the counting keys until 20 to 30 numbers in,
    and a wide beam drops them at 15 to 22; on v1 they rank in the top percent from about 10 on
    (docs/notes/stones-record.md). Every lookahead also yields a whole board (its witness), so a run
    reports records for u and u + 1 ones as it goes. The lookaheads of a level run on `threads`
    threads (the kernel releases the GIL). Calls on_record(ones, value, board) for each
    improvement, and on_level(k, potentials, boards) with the boards kept after each level (best
    first: what docs/stones_synergy.py traces a known board against); returns {ones: largest value
    reached}."""
    length = value_cap(nmax) + nmax + 2
    parents: list[np.ndarray] = [np.array(s, dtype=np.int16) for s in ([start] if start else starts())]
    k = sum(1 for e in parents[0] if e < ONE) + 1
    rng = np.random.default_rng(seed)
    grid = _grid(length)
    reached: dict[int, int] = {}

    def offer(ones: int, value: int, board: list[list[int]]) -> None:
        if ones <= nmax and value > reached.get(ones, 1):
            reached[ones] = value
            if on_record is not None:
                on_record(ones, value, board)

    potential = [float("inf")] * len(parents)
    batch = 1 if threads == 1 else 64 * threads     # children scored between two looks at the cut-off
    with cf.ThreadPoolExecutor(threads) as pool:
        while parents and k + 1 < value_cap(nmax) and not deadline.passed():
            k += 1
            nb = len(parents)
            boards, prime = _pack(parents, nb, length), prime_below(40 * nb + 100)
            table, rec = _table(prime), _records(nmax, length)
            _level(k, nmax, score_cap(nmax), int(rng.integers(1 << 31)), (LEXICOGRAPHIC, filt), boards, nb, table,
                   grid, rec)
            children, keys = _pack([], prime, length), np.empty(prime)
            made = _gather(table, boards, nb, children, keys)
            parent_of = {p.tobytes(): b for b, p in enumerate(parents)}
            kept: list[tuple[float, float, int, np.ndarray]] = []      # a min-heap of the best `width`
            for first in range(0, made, batch):
                if deadline.passed():
                    break
                todo = []
                for i in range(first, min(made, first + batch)):
                    seq = children[0][i, :children[1][i]].copy()
                    spends = seq[-2] >= ONE          # a parent ends with a number, so this entry is a new one
                    bound = float("inf") if spends else potential[parent_of[seq[:-1].tobytes()]]
                    if len(kept) < width or bound > kept[0][0]:    # else it cannot beat its parent's potential
                        todo.append((i, seq))
                looks = pool.map(lambda t: _look(t[1], nmax, LOOKAHEAD_POSITIONS), todo)
                for (i, seq), (board, ones, extra, out) in zip(todo, looks):
                    offer(ones, k, board)
                    if out.witness is not None:
                        offer(sum(1 for *_, v in out.witness if v == 1), out.best or k, out.witness)
                    item = ((out.best or k) + worth * (nmax - ones - extra), float(keys[i]), -i, seq)
                    if len(kept) < width:
                        heapq.heappush(kept, item)
                    elif item[:3] > kept[0][:3]:
                        heapq.heapreplace(kept, item)
            kept.sort(key=lambda t: t[:3], reverse=True)
            parents, potential = [t[3] for t in kept], [t[0] for t in kept]
            if on_level is not None:
                on_level(k, potential, parents)
    return reached


def random_weights(rng: np.random.Generator) -> np.ndarray:
    """A restart's recombination of the keys, ones in hand always first. Half the restarts keep the
    keys lexicographic with distinct sums and cells in a random order, jittered (measured at width
    2e4: n = 7 mean 65.2, n = 8 70.0); the others weigh them at random (mean 60.3 and 69.3, but
    more spread: the best n = 8 run, 74, was one of these)."""
    if rng.random() < 0.5:
        first, second = rng.permutation([512.0 ** 2, 512.0])
        return np.array([512.0 ** 3, first * rng.uniform(0.5, 2), second * rng.uniform(0.5, 2),
                         rng.uniform(-1, 1), 1.0])
    return np.array([1e6, *np.maximum(0.0, rng.uniform(-20, 80, 3)), 1.0])


def prefix(board: list[list[int]], k: int) -> list[list[int]]:
    """The part of a board that exists just after k was placed: numbers 2..k and the ones they
    touch (other ones go back into hand)."""
    loose = loose_ones(board, k)
    return [[r, c, v] for r, c, v in board if 2 <= v <= k or (v == 1 and (r, c) not in loose)]


def loose_ones(board: list[list[int]], k: int) -> set[tuple[int, int]]:
    """The ones that touch no number up to k: a re-run from k may move one of them."""
    nums = {(r, c) for r, c, v in board if 2 <= v <= k}
    return {(r, c) for r, c, v in board
            if v == 1 and not any((r + dr, c + dc) in nums for dr in (-1, 0, 1) for dc in (-1, 0, 1))}


EXACT_DEPTH = 10        # the first exhaustive ending re-searches the best board's last 10 numbers
POSITIONS_PER_SECOND = 2.5e6    # the exact kernel's speed here (measured: 5e7 positions in 19.5 s), for budgets


def finish(n: int, board: list[list[int]], seconds: float) -> tuple[int, list[list[int]]]:
    """The best board's ending searched exhaustively by the exact search's kernel (a beam keeps too
    few boards near the end). First its whole layout: with every one fixed, the numbers from the 2
    on are searched to the end in 0.02 to 3 s (n = 6..9; the published layouts give 60, 71, 80, 90),
    so the board becomes the best for its ones. Then with the later ones back in hand: 10 numbers
    back, 5 more each time that ending is searched to the end without a better one, again from 10
    after an improvement; each call within 10 s. Returns the best value and board found (the input
    when nothing better)."""
    stop = Deadline.after(seconds)
    best = max(v for *_, v in board)
    layout = subtree(n, [[r, c, v] for r, c, v in board if v <= 2], int(POSITIONS_PER_SECOND * min(seconds, 10.0)))
    if layout.witness is not None and (layout.best or 0) > best:
        best, board = layout.best or 0, layout.witness
    depth = EXACT_DEPTH
    while best >= 10 and (left := stop.left()) > 0.5:
        cut = max(3, best - depth)
        out = subtree(n, prefix(board, cut), int(POSITIONS_PER_SECOND * min(left, 10.0)))
        if out.witness is not None and (out.best or 0) > best:
            best, board, depth = out.best or 0, out.witness, EXACT_DEPTH
        elif out.complete and cut > 3:
            depth += 5
        else:
            break
    return best, board


SWEEP_SHARE = 0.9         # the worker time for the class sweep while it has work (0.5: 10 boards finished in 14.5 min)
SWEPT_BY_DEFAULT = (6,)   # counts swept unless told: at 7 and 8 a width-1e5 beam loses the records' prefixes first
SWEEP_WIDTH = 100_000     # the counting beam a sweep draws its boards from
SWEEP_RANKED = 1000       # boards with the best v1 that get a v2
SWEEP_FINISHED = 200      # boards, best v2 first, that a sweep finishes with a lookahead beam
SWEEP_LOOKAHEAD = 100     # that beam's width (from the 60 board's prefix: 60 at 100, 57 at 30 and 50)
V2_POSITIONS = 1_000_000  # the exact kernel's budget for a v2 (about 60 ms a board at n = 6)


def fresh_class(u: int, width: int, seed: int, filt: np.ndarray, deadline: Deadline = NEVER) -> list[np.ndarray]:
    """The boards of a lexicographic counting beam for u ones that hold u - 3 ones, the last of
    them spent on the number before the board's last: one board per line of play, taken just as
    its latest one shows what it buys, at whatever level that happens (so no level is chosen)."""
    down = u - 3
    held: list[np.ndarray] = []

    def level(k: int, scores: list[float], kept: list[np.ndarray]) -> bool:
        ones = [int((seq >= ONE).sum()) for seq in kept]
        held.extend(seq for seq, m in zip(kept, ones) if m == down and len(seq) >= 3 and seq[-3] >= ONE)
        return min(ones, default=u) > down or deadline.passed()     # no board can join the class any more

    beam(u, width, LEXICOGRAPHIC, seed, filt, on_level=level)
    return held


def sweep_order(u: int, seed: int, filt: np.ndarray, threads: int = 1, deadline: Deadline = NEVER,
                width: int = SWEEP_WIDTH, ranked: int = SWEEP_RANKED) -> list[tuple[int, ...]]:
    """A class sweep's order: the boards of fresh_class ranked by v1 (the exact best with one more
    one), the best `ranked` of them by v2 (two more ones; ties by v1), best first, the first
    SWEEP_FINISHED kept. Why: the record boards hide from every score of a beam until nearly all
    their ones are down, so a beam drops them; ranked on their own, without a beam's competition,
    the 60 board's prefix comes 51st of about 10,800 boards (docs/notes/stones-record.md)."""
    seqs = fresh_class(u, width, seed, filt, deadline)
    order, _, _ = rank_by_lookahead([to_board(seq) for seq in seqs], u - 3, threads, deadline, ranked)
    return [tuple(int(e) for e in seqs[i]) for i in order[:SWEEP_FINISHED]]


def rank_by_lookahead(boards: list[list[list[int]]], down: int, threads: int = 1, deadline: Deadline = NEVER,
                      ranked: int = SWEEP_RANKED) -> tuple[list[int], list[int], dict[int, int]]:
    """Boards with `down` ones ranked as a sweep ranks them: all by v1, the best `ranked` of those by
    v2 (ties by v1). Returns their indices best first, v1 of every board, v2 of the ranked ones."""

    def value(extra: int, budget: int) -> Callable[[int], int]:
        return lambda i: 0 if deadline.passed() else subtree(down + extra, boards[i], budget).best or 0

    with cf.ThreadPoolExecutor(threads) as pool:
        v1 = list(pool.map(value(1, LOOKAHEAD_POSITIONS), range(len(boards))))
        order = sorted(range(len(boards)), key=lambda i: -v1[i])[:ranked]
        v2 = dict(zip(order, pool.map(value(2, V2_POSITIONS), order)))
    order.sort(key=lambda i: (-v2[i], -v1[i]))
    return order, v1, v2


@dataclass(frozen=True)
class Restart:
    """One beam run of the hunt, picklable so that the task layer can run it on any worker. `start`
    is a placement sequence (empty: every first move); `origin` says where it comes from (log).
    With `worth` > 0 it is a lookahead beam (that worth per one in hand) and `weights` and `horizon`
    are unused."""

    nmax: int
    width: int
    weights: tuple[float, ...]
    seed: int
    filter: str = "near"
    horizon: int = 1 << 20
    start: tuple[int, ...] = ()
    origin: str = ""
    ones: int = 0             # the ones count it serves (its log line reports that count's best)
    worth: float = 0.0
    threads: int = 1          # a lookahead beam's threads (they score its children)
    swept: bool = False       # a lookahead finishing a board of a class sweep (its time is the sweep's)


@dataclass(frozen=True)
class Ending:
    """The exhaustive ending of a board (finish), as a job of the hunt."""

    n: int
    board: list[list[int]]
    seconds: float
    origin: str = "exhaustive ending"


@dataclass(frozen=True)
class Sweep:
    """The ranking half of a class sweep (sweep_order) as a job of the hunt; the hunt then finishes
    each board it returns with a lookahead beam, one job each."""

    ones: int
    seed: int
    filter: str = "near"
    threads: int = 1
    width: int = SWEEP_WIDTH
    origin: str = "class sweep"


Job = Restart | Ending | Sweep


def kind(job: Job) -> str:
    """Whose share of the worker time a job spends."""
    if isinstance(job, Sweep) or (isinstance(job, Restart) and job.swept):
        return "sweep"
    if isinstance(job, Restart):
        return "lookahead" if job.worth else "counting"
    return "ending"


def book(totals: dict[str, float], job: Job, seconds: float) -> None:
    """Add a job's wall time, times the threads it holds, to its kind's worker-seconds (endings are
    not counted)."""
    if (what := kind(job)) in totals:
        totals[what] += seconds * (1 if isinstance(job, Ending) else job.threads)


Found = dict[int, tuple[int, list[list[int]]]]     # ones used -> (value, board)
Ranked = list[tuple[int, ...]]                      # a sweep's boards to finish, as placement sequences


def run_job(job: Job, stop_at: float,
            stream: Callable[[int, int, list[list[int]]], None] | None = None) -> Found | Ranked:
    """The hunt's kernel on the task layer's executor (threads or Dask workers): a beam run, an
    exhaustive ending or a sweep's ranking, cut at the wall-clock instant stop_at. Returns the best
    board per ones count (a sweep: its boards in order); a beam run on threads also passes each
    board to `stream` as it finds it (a lookahead job takes minutes)."""
    if isinstance(job, Sweep):
        return sweep_order(job.ones, job.seed, FILTERS[job.filter], job.threads, Deadline.at_wall(stop_at), job.width)
    if isinstance(job, Ending):
        value, board = finish(job.n, job.board, min(job.seconds, max(0.0, stop_at - time.time())))
        return {sum(1 for *_, v in board if v == 1): (value, board)}
    found: Found = {}

    def keep(ones: int, value: int, board: list[list[int]]) -> None:
        found[ones] = (value, board)
        if stream is not None:
            stream(ones, value, board)

    if job.worth > 0:
        lookahead(job.nmax, job.width, job.seed, FILTERS[job.filter], list(job.start) or None,
                  Deadline.at_wall(stop_at), keep, job.worth, threads=job.threads)
    else:
        beam(job.nmax, job.width, np.array(job.weights), job.seed, FILTERS[job.filter], list(job.start) or None,
             Deadline.at_wall(stop_at), keep, job.horizon)
    return found


def store_path() -> Path:
    """Where hunts keep their best boards: beside the task layer's journals."""
    return journals() / "hunts" / "stones.json"


class BrokenStore(Exception):
    """The hunt's store is not a store (garbage, or edited into something else): it is left as it is."""


def read_store(path: Path) -> dict[str, Any]:
    """The store's entries as saved; BrokenStore, with the path and the way out, when it cannot be read."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        data = e
    if not isinstance(data, dict):
        why = str(data).splitlines()[0] if isinstance(data, Exception) else "not a JSON object"
        raise BrokenStore(f"the hunt's store {path} cannot be read ({why}); move it away (a hunt then "
                          f"starts a new one) or mend it")
    return data


def replayed(key: str, entry: Any) -> tuple[int, int, list[list[int]]] | None:
    """(ones, value, board) of a stored entry whose board the checker replays to its value; None
    for any other entry (a hand edit, a bad board), which then neither counts nor blocks a record."""
    try:
        ones, value, board = int(key), entry["value"], entry["board"]
        verdict = check(ones, board)
    except (ValueError, TypeError, KeyError):
        return None
    return (ones, value, board) if verdict.ok and verdict.objective == value else None


def load_store(path: Path, nmax: int) -> Found:
    """The stored boards for up to nmax ones, each replayed by the checker (a board that fails is
    ignored)."""
    found: Found = {}
    for key, entry in read_store(path).items():
        if (good := replayed(key, entry)) is not None and good[0] <= nmax:
            found[good[0]] = good[1:]
    return found


def save_store(path: Path, ones: int, value: int, board: list[list[int]], note: str) -> None:
    """Add a board to the store at once (under a file lock, so that concurrent hunts merge), with
    its drawing beside it; a better stored board for that count stays, if the checker replays it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = read_store(path)
        held = replayed(str(ones), data.get(str(ones)))
        if held is not None and held[1] >= value:
            return
        data[str(ones)] = {"value": value, "board": board, "found": time.strftime("%Y-%m-%dT%H:%M:%S"),
                           "by": note}
        temp = path.with_suffix(".tmp")
        temp.write_text(json.dumps(data, indent=1, sort_keys=True))
        temp.replace(path)
        path.with_name(f"stones-{ones}-ones.txt").write_text(f"{check(ones, board).message}\n{draw(board)}\n")


class Plan:
    """What the hunt runs next. Fresh runs: the first lexicographic, then random weights, widths
    doubling from 10^4 up to `width`. Re-runs from a best board's first M numbers, M descending from
    just below it after each improvement, then at random; half of them keep the board's ones but
    one that touches no number yet. With nmax > n the re-runs take the ones counts n..nmax in turn,
    so that one hunt serves a whole table. Each new best board gets an exhaustive ending (finish).
    A class sweep for n ones (sweep_order, then a lookahead beam from each board it ranks) holds
    `sweep` of the worker time while it has work."""

    def __init__(self, n: int, nmax: int, width: int, filt: str, seed: int, limit: float,
                 lookahead_width: int = LOOKAHEAD_WIDTH, lookahead_threads: int = 1,
                 sweep: float = SWEEP_SHARE) -> None:
        self.n, self.nmax, self.width, self.filter, self.limit = n, nmax, width, filt, limit
        self.lookahead_width, self.lookahead_threads, self.sweep = lookahead_width, lookahead_threads, sweep
        self.rng = np.random.default_rng(seed)
        self.records = Records(nmax)
        self.runs = self.fresh = self.counting = self.looks = 0
        self.spent = {"counting": 0.0, "lookahead": 0.0, "sweep": 0.0}   # worker-seconds of ended jobs, by kind
        self.unswept = [n] if sweep > 0 and n >= 6 else []   # counts still to rank (n: its class holds a one)
        self.ranking = False                                  # a sweep's ranking job is out
        self.to_finish: list[tuple[int, int, int, tuple[int, ...]]] = []   # (ones, place, of, start) from sweeps
        self.cut = dict.fromkeys(range(n, nmax + 1), 0)       # per count: the descent's next prefix length
        self.finished = dict.fromkeys(range(n, nmax + 1), 0)  # per count: the best value given an ending

    def absorb(self, found: Found) -> list[tuple[int, int, list[list[int]]]]:
        """Keep the boards that beat the records; returns them, and restarts the descent of each
        count whose best board improved."""
        old = {u: self.records.best(u)[0] for u in self.cut}
        better = [(u, v, b) for u, (v, b) in sorted(found.items()) if self.records.offer(u, v, b)]
        for u in self.cut:
            if self.records.best(u)[0] > old[u]:
                self.cut[u] = self.records.best(u)[0] - 3
        return better

    def best(self) -> tuple[int, list[list[int]] | None]:
        return self.records.best(self.n)

    def ranked(self, u: int, order: Ranked) -> None:
        """A sweep's ranking came back: its boards wait to be finished, best first."""
        self.ranking = False
        self.to_finish += [(u, place, len(order), start) for place, start in enumerate(order)]

    def due(self, load: dict[str, float]) -> str:
        """The kind of job whose share of the worker time is the most behind (ties: sweep, then
        lookahead, then counting). Sweeps hold `sweep` of it while they have work; lookahead and
        counting beams split the rest evenly: a lookahead beam holds every thread for minutes and a
        counting beam takes seconds, so alternating jobs would leave counting beams almost none
        (with 12 ones they found better boards for 10..12 ones than the lookaheads)."""
        sweeping = self.sweep if self.to_finish or (self.unswept and not self.ranking) else 0.0
        looking = (1 - sweeping) / 2 if self.lookahead_width else 0.0
        share = {"sweep": sweeping, "lookahead": looking, "counting": 1 - sweeping - looking}
        return min((what for what in share if share[what] > 0), key=lambda what: load[what] / share[what])

    def sweep_job(self) -> Job:
        """The next board a sweep ranked, finished by a lookahead beam on one thread; else the next
        count's ranking, on every thread."""
        if self.to_finish:
            u, place, of, start = self.to_finish.pop(0)
            return Restart(u, SWEEP_LOOKAHEAD, (), int(self.rng.integers(1 << 31)), self.filter, start=start,
                           origin=f" (class sweep for {u} ones, board {place + 1} of {of})",
                           ones=u, worth=ONE_WORTH, swept=True)
        self.ranking = True
        return Sweep(self.unswept.pop(0), int(self.rng.integers(1 << 31)), self.filter, self.lookahead_threads,
                     min(self.width, SWEEP_WIDTH))

    def next_job(self, left: float, running: Iterable[tuple[Job, float]] = ()) -> Job:
        """The next job; the running jobs (each with when it began) count so far beside `spent`."""
        for u in self.cut:
            best, board = self.records.best(u)
            if board is not None and best > self.finished[u] and best >= 10:
                self.finished[u] = best
                share = 0.1 * self.limit / len(self.cut)     # a tenth of the time, spread over the counts
                return Ending(u, board, min(30.0, share, left), f"exhaustive ending ({u} ones)")
        self.runs += 1
        r = self.rng
        u = self.n + self.runs % len(self.cut)
        best, board = self.records.best(u)
        load, now = dict(self.spent), time.monotonic()
        for held, began in running:
            book(load, held, now - began)
        due = self.due(load) if self.counting else "counting"      # the first run counts
        if due == "sweep":
            return self.sweep_job()
        if due == "lookahead":
            return self.lookahead_job(u, best, board)
        self.counting += 1
        first = self.counting == 1
        weights = LEXICOGRAPHIC if first else random_weights(r)
        horizon = 1 << 20 if first or r.random() < 0.5 else int(r.integers(15, 36))
        wide = min(self.width, 10000 << self.fresh)
        job = Restart(self.nmax, wide, tuple(map(float, weights)), int(r.integers(1 << 31)), self.filter, horizon)
        if board is None or best < 12 or (self.cut[u] < best // 6 and self.counting % 2):
            self.fresh += 1
            return job
        if self.cut[u] >= best // 6:
            cut = self.cut[u]
            self.cut[u] -= max(2, best // 20)
        else:
            cut = int(r.integers(best // 6, best - 3))
        kept: frozenset[tuple[int, int]] = frozenset()
        if r.random() < 0.5:
            loose = sorted(loose_ones(board, cut))
            if loose:
                drop = loose[int(r.integers(len(loose)))]
                kept = frozenset((a, b) for a, b, v in board if v == 1 and (a, b) != drop)
        try:
            start = tuple(to_sequence(board, cut, kept))
        except ValueError:                    # a board from finish() too large for the grid
            self.fresh += 1
            return job
        focus = f" ({u} ones)" if self.nmax > self.n else ""
        return replace(job, start=start, origin=f" from {cut}{' keeping ones' if kept else ''}{focus}", ones=u)

    def lookahead_job(self, u: int, best: int, board: list[list[int]] | None) -> Restart:
        """A lookahead beam on `lookahead_threads` threads, widths doubling from
        `lookahead_width` (to 8 times it), with the worth of a one ONE_WORTH, then drawn from WORTHS; every second
        one re-runs the best board for u ones from a random cut."""
        r = self.rng
        self.looks += 1
        width = self.lookahead_width << min(3, self.looks // 2)
        worth = ONE_WORTH if self.looks == 1 else float(r.uniform(*WORTHS))
        job = Restart(self.nmax, width, (), int(r.integers(1 << 31)), self.filter, origin=" (lookahead)",
                      worth=worth, threads=self.lookahead_threads)
        if board is None or best < 12 or self.looks % 2:
            return job
        cut = int(r.integers(best // 6, best - 3))
        try:
            start = tuple(to_sequence(board, cut))
        except ValueError:
            return job
        return replace(job, start=start, origin=f" (lookahead) from {cut} ({u} ones)", ones=u)


@dataclass(frozen=True)
class HuntOptions:
    """How a hunt runs: where (threads, or a Dask cluster), its seed, the widest beam, the filter
    for new ones, the most ones its beams track (default n), the first lookahead width (0: none),
    the class sweeps' share of the worker time (0: none)."""

    threads: int = 1
    seed: int = 0
    width: int = 200000
    filter: str = "near"
    nmax: int | None = None
    cluster: str | None = None
    lookahead: int = LOOKAHEAD_WIDTH
    sweep: float | None = None

    def sweep_share(self, n: int) -> float:
        """The class sweep's share of the worker time: as given, else SWEEP_SHARE for the counts
        where a sweep is measured to help."""
        return self.sweep if self.sweep is not None else SWEEP_SHARE if n in SWEPT_BY_DEFAULT else 0.0


def hunt(n: int, time_limit: float | None, how: HuntOptions = HuntOptions(), log: Callable[[str], None] | None = None,
         on_best: Callable[[int, list[list[int]]], None] | None = None,
         on_record: Callable[[int, int, list[list[int]]], None] | None = None,
         start: Found | None = None) -> tuple[Records, int]:
    """Beam runs and exhaustive endings until the time limit (None: 60 s), one per worker of the
    task layer's executor (threads, or a Dask cluster), each planned from the best board so far;
    on threads, a lookahead beam takes them all.
    Records for every ones count up to nmax, from `start` if given; on_record(ones, value, board)
    for each improvement of any count, on_best(value, board) for each new best board with at most
    n ones. Returns the records and the number of beam runs."""
    limit = 60.0 if time_limit is None else time_limit
    deadline = Deadline.after(limit)
    stop_at = time.time() + limit
    local = how.cluster is None
    plan = Plan(n, max(n, how.nmax or n), how.width, how.filter, how.seed, limit, how.lookahead,
                max(1, how.threads) if local else 1, how.sweep_share(n))
    plan.absorb(start or {})

    def absorb(found: Found) -> None:
        old = plan.best()[0]
        for u, v, b in plan.absorb(found):
            if on_record is not None:
                on_record(u, v, b)
        best, board = plan.best()
        if best > old and board is not None:
            if log is not None:
                log(f"{deadline.elapsed():8.1f}s best {best} with {sum(1 for *_, v in board if v == 1)} ones")
            if on_best is not None:
                on_best(best, board)

    def take(job: Job, found: Found | Ranked) -> None:
        if isinstance(job, Sweep):
            assert isinstance(found, list)
            plan.ranked(job.ones, found)
            if log is not None:
                log(f"{deadline.elapsed():8.1f}s class sweep for {job.ones} ones: {len(found)} boards to finish")
            return
        assert isinstance(found, dict)
        absorb(found)
        if log is not None:
            best = plan.best()[0]
            most = job.n if isinstance(job, Ending) else job.ones or n
            got = max([v for u, (v, _) in found.items() if u <= most], default=0)
            what = (f"{job.origin}" if isinstance(job, Ending) else
                    f"run width {job.width}{job.origin}{f' horizon {job.horizon}' if job.horizon < 1 << 20 else ''}")
            log(f"{deadline.elapsed():8.1f}s {what}: reached {got} (best {best})")

    streamed: queue.SimpleQueue[tuple[int, int, list[list[int]]]] = queue.SimpleQueue()
    stream = (lambda u, v, b: streamed.put((u, v, b))) if local else None     # Dask jobs report when they end
    with executor(Settings(threads=how.threads, cluster=how.cluster)) as (pool, workers):
        running: dict[cf.Future[Found | Ranked], tuple[Job, float]] = {}      # each job and when it began
        waiting: Job | None = None          # a job that needs more workers than are free
        slots = lambda job: 1 if isinstance(job, Ending) else job.threads

        while True:
            while sum(slots(job) for job, _ in running.values()) < workers and not deadline.passed():
                job, waiting = waiting or plan.next_job(deadline.left(), running.values()), None
                if running and sum(slots(j) for j, _ in running.values()) + slots(job) > workers:
                    waiting = job
                    break
                running[pool.submit(run_job, job, stop_at, stream)] = job, time.monotonic()
            if not running:
                break
            done, _ = cf.wait(running, timeout=1.0, return_when=cf.FIRST_COMPLETED)
            while not streamed.empty():
                u, v, b = streamed.get()
                absorb({u: (v, b)})
            for future in done:
                job, began = running.pop(future)
                book(plan.spent, job, time.monotonic() - began)
                take(job, future.result())
    return plan.records, plan.runs


def warm_up() -> None:
    """Compile the kernels (numba caches them on disk): the beam, and the exact kernel that the
    endings, lookaheads and sweeps call (compiled on a fresh clone, it took a 4-s hunt's time)."""
    beam(2, 16, LEXICOGRAPHIC, 0)
    subtree(3, [[0, 0, 1], [1, 1, 2], [2, 2, 1]], 1000)


def solve(n: int, params: Any, options: Options, report: Progress, question: Question = OPTIMISE) -> Outcome[Any]:
    """The record hunt as the native search's answer: params.width, filter, nmax, resume; the seed,
    threads, cluster and time limit from the options. Each new board (for every ones count) is
    checked, then stored at once (store_path) with its drawing; each new best for n is reported."""
    if n < 2:                                 # no 2 can be placed: a lone one is the whole board
        return Outcome(1, [[0, 0, 1]], maximise=True)
    nmax = max(n, params.nmax or n)
    path = store_path()
    note = f"record hunt, width {params.width}, filter {params.filter}, nmax {nmax}, seed {options.seed}"

    def verified(ones: int, value: int, board: list[list[int]]) -> None:
        verdict = check(ones, board)
        if verdict.objective != value:
            raise RuntimeError(f"record hunt: a board the checker rejects ({verdict.message})")

    def on_record(ones: int, value: int, board: list[list[int]]) -> None:
        verified(ones, value, board)
        save_store(path, ones, value, board, note)

    def on_best(value: int, board: list[list[int]]) -> None:
        report(Outcome(value, board, complete=False, maximise=True))

    start = load_store(path, nmax)            # read first: a broken store ends the hunt before it runs
    start = start if params.resume else {}
    resumed_from = ""                         # read now: the hunt rewrites the store as it improves it
    if (resumed := max([(v, u) for u, (v, _) in start.items() if u <= n], default=None)) is not None:
        entry = read_store(path)[str(resumed[1])]
        resumed_from = (f", resumed from a stored board of {resumed[0]} ({entry.get('by', '?')}, "
                        f"found {entry.get('found', '?')})")
    log = (lambda line: print(line, file=sys.stderr, flush=True)) if options.verbose else None
    began = time.monotonic()
    how = HuntOptions(options.threads, options.seed, params.width, params.filter, nmax, options.cluster,
                      params.lookahead, params.sweep)
    records, runs = hunt(n, options.time_limit, how, log, on_best, on_record, start)
    value, board = records.best(n)
    board = board or [[0, 0, 1]]
    return Outcome(value, board, complete=False, maximise=True,
                   message=f"record hunt: {runs} beam runs of width up to {params.width} in "
                          f"{time.monotonic() - began:.0f} s, filter {params.filter}"
                          + (f", nmax {nmax}" if nmax > n else "") + resumed_from)


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="stepping-stones record hunt with a progress log")
    ap.add_argument("n", type=int)
    ap.add_argument("--nmax", type=int, default=None, help="largest number of ones in the beam (default n)")
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--cluster", default=None, help="local:K, tcp://HOST:PORT or a scheduler file")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--width", type=int, default=200000, help="largest beam width")
    ap.add_argument("--filter", default="near", choices=sorted(FILTERS))
    ap.add_argument("--lookahead", type=int, default=LOOKAHEAD_WIDTH, help="first lookahead width (0: none)")
    ap.add_argument("--sweep", type=float, default=None,
                    help=f"the class sweep's share of the worker time (default {SWEEP_SHARE} for n = 6)")
    ap.add_argument("--out", help="write the best board per ones count here as JSON (checked)")
    a = ap.parse_args()
    warm_up()
    recs, nruns = hunt(a.n, a.time_limit, HuntOptions(a.threads, a.seed, a.width, a.filter, a.nmax, a.cluster,
                                                         a.lookahead, a.sweep), print)
    found = {u: (v, b) for u, (v, b) in enumerate(zip(recs.value, recs.board)) if b is not None}
    for u, (v, b) in found.items():
        print(f"{u} ones: {v} ({check(u, b).message})")
    if a.out:
        Path(a.out).write_text(json.dumps({str(u): {"objective": v, "solution": b} for u, (v, b) in found.items()}))
