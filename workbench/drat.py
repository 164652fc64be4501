"""CaDiCaL's binary DRAT proof as flat arrays, and its deletions matched to the clauses they delete.

python-sat's `get_proof` decodes the proof file byte by byte into text lines, which `certify` then
turned into lists of Python ints: some 30x the file's size (enigma82 N = 11 passed 6.6 GB before
CaDiCaL finished). Here numba decodes the file (mapped, not read) straight into one int32 array of
literals with clause starts, the formula's clauses first, so a lemma costs 4 bytes a literal.
Untrusted, like the trim: `lrat.py` checks what comes of it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

ADD, DELETE = 97, 100        # the bytes 'a' and 'd' that open each clause of a binary DRAT proof


@dataclass
class Proof:
    """The formula's `m` clauses, then the lemmas, clause i at lits[start[i]:start[i + 1]]; deletion d
    (its clause at del_lits[del_start[d]:del_start[d + 1]]) comes after the first del_before[d] lemmas."""

    m: int
    lits: np.ndarray
    start: np.ndarray
    del_lits: np.ndarray
    del_start: np.ndarray
    del_before: np.ndarray

    @property
    def n_clauses(self) -> int:
        return len(self.start) - 1


def _flat(clauses: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    start = np.zeros(len(clauses) + 1, dtype=np.int64)
    np.cumsum([len(c) for c in clauses], out=start[1:])
    return np.fromiter((lit for c in clauses for lit in c), dtype=np.int32, count=int(start[-1])), start


def from_lists(formula: Sequence[Sequence[int]], lemmas: Sequence[Sequence[int]] = (),
               deletions: Sequence[tuple[int, Sequence[int]]] = ()) -> Proof:
    """A proof given as lists; each deletion as (the number of lemmas before it, the clause)."""
    lits, start = _flat(list(formula) + list(lemmas))
    del_lits, del_start = _flat([clause for _, clause in deletions])
    return Proof(len(formula), lits, start, del_lits, del_start, np.array([b for b, _ in deletions], dtype=np.int64))


def read_solver_proof(solver, formula: Proof) -> Proof:
    """The binary DRAT proof of a python-sat CaDiCaL made `with_proof`, after `formula`'s clauses (read
    before the solver is deleted: its file goes with it), ending in the empty clause."""
    import pysolvers  # python-sat's extension module

    cadical = solver.solver            # under python-sat's Solver wrapper
    pysolvers.flushpr(cadical.prfp)
    cadical.prfile.seek(0, 2)
    if cadical.prfile.tell() == 0:
        return decode(np.zeros(0, dtype=np.uint8), formula)
    return decode(np.memmap(cadical.prfile, dtype=np.uint8, mode="r"), formula)


def decode(data: np.ndarray, formula: Proof) -> Proof:
    """The binary DRAT bytes ('a' or 'd', then each literal 2 * var + (1 if negative), 7 bits a byte,
    low bits first, high bit set on all but a literal's last byte; 0 ends the clause)."""
    counts = _count(data)
    if counts[0] < 0:
        raise ValueError(f"malformed binary DRAT proof at byte {-counts[0] - 1}")
    lits, start, del_lits, del_start, del_before = _decode(data, formula.lits, formula.start, *counts)
    return Proof(formula.m, lits, start, del_lits, del_start, del_before)


@njit(cache=True)
def _count(data):
    """(clauses added, their literals, deletions, their literals, whether the last lemma is the empty
    clause), or (-1 - the position of a malformed byte, ...)."""
    counts = np.zeros(2, dtype=np.int64)
    del_counts = np.zeros(2, dtype=np.int64)
    at, last_empty = 0, False
    while at < len(data):
        kind = data[at]
        if kind != ADD and kind != DELETE:
            return -1 - at, 0, 0, 0, False
        at += 1
        size = 0
        while at < len(data) and data[at] != 0:
            if data[at] < 128:
                size += 1
            at += 1
        if at == len(data) or (at > 0 and data[at - 1] >= 128):
            return -1 - at, 0, 0, 0, False
        at += 1
        tally = counts if kind == ADD else del_counts
        tally[0] += 1
        tally[1] += size
        if kind == ADD:
            last_empty = size == 0
    return counts[0], counts[1], del_counts[0], del_counts[1], last_empty


@njit(cache=True)
def _decode(data, f_lits, f_start, n_add, add_lits, n_del, n_del_lits, last_empty):
    m = len(f_start) - 1
    n = m + n_add + (0 if last_empty else 1)          # the empty clause ends a refutation
    lits = np.empty(len(f_lits) + add_lits, dtype=np.int32)
    lits[:len(f_lits)] = f_lits
    start = np.empty(n + 1, dtype=np.int64)
    start[:m + 1] = f_start
    del_lits = np.empty(n_del_lits, dtype=np.int32)
    del_start = np.zeros(n_del + 1, dtype=np.int64)
    del_before = np.empty(n_del, dtype=np.int64)
    clause, at_lit, d, at_del, at = m, len(f_lits), 0, 0, 0
    while at < len(data):
        adding = data[at] == ADD
        at += 1
        value, shift = 0, 0
        while data[at] != 0:
            value |= int(data[at] & 127) << shift
            shift += 7
            if data[at] < 128:
                lit = (value >> 1) * (-1 if value & 1 else 1)
                if adding:
                    lits[at_lit] = lit
                    at_lit += 1
                else:
                    del_lits[at_del] = lit
                    at_del += 1
                value, shift = 0, 0
            at += 1
        at += 1
        if adding:
            clause += 1
            start[clause] = at_lit
        else:
            del_before[d] = clause - m
            d += 1
            del_start[d] = at_del
    if not last_empty:
        start[n] = at_lit
    return lits, start, del_lits, del_start, del_before


def deleted_by(proof: Proof) -> np.ndarray:
    """For each clause, the index of the first clause added after the proof deleted it (the number of
    clauses when never). A deletion takes the latest added live clause of the same literals (sorted
    in place here: the order of a clause's literals does not matter to RUP)."""
    return _deleted_by(proof.lits, proof.start, proof.m, proof.del_lits, proof.del_start, proof.del_before)


@njit(cache=True)
def _hash(lits, s, e, mask):
    h = np.uint64(14695981039346656037)
    for t in range(s, e):
        h = (h ^ np.uint64(lits[t] & 0xFFFFFFFF)) * np.uint64(1099511628211)
    return np.int64(h >> np.uint64(20)) & mask


@njit(cache=True)
def _same(a, sa, ea, b, sb, eb):
    if ea - sa != eb - sb:
        return False
    for t in range(ea - sa):
        if a[sa + t] != b[sb + t]:
            return False
    return True


@njit(cache=True)
def _deleted_by(lits, start, m, del_lits, del_start, del_before):
    n = len(start) - 1
    gone = np.full(n, n, dtype=np.int32)
    for i in range(n):
        lits[start[i]:start[i + 1]].sort()
    for d in range(len(del_before)):
        del_lits[del_start[d]:del_start[d + 1]].sort()
    size = 1
    while size < 2 * n:
        size *= 2
    head = np.full(size, -1, dtype=np.int32)      # per hash slot, the live clauses there, latest first
    nxt = np.full(n, -1, dtype=np.int32)
    added = 0
    for d in range(len(del_before) + 1):
        upto = m + del_before[d] if d < len(del_before) else 0
        while added < upto:
            h = _hash(lits, start[added], start[added + 1], size - 1)
            nxt[added], head[h] = head[h], added
            added += 1
        if d == len(del_before):
            break
        s, e = del_start[d], del_start[d + 1]
        h = _hash(del_lits, s, e, size - 1)
        prev, node = -1, head[h]
        while node != -1:
            if _same(lits, start[node], start[node + 1], del_lits, s, e):
                if prev == -1:
                    head[h] = nxt[node]
                else:
                    nxt[prev] = nxt[node]
                gone[node] = upto
                break
            prev, node = node, nxt[node]
    return gone
