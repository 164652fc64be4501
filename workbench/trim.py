"""Backward trimming of a DRUP refutation into LRAT hints (as drat-trim does), compiled by numba.

A forward pass adds the clauses in order, propagating units at the root (two watched literals),
until the root conflicts, and notes how long the root trail was before each clause. Then each needed
lemma, from the last back, is checked by reverse unit propagation on top of the root trail cut back
to that length (the root of the clauses before it), and the clauses of its implication graph become
needed; they are its LRAT hints, in the order they propagated, the conflict clause last.
The proof's deletions take clauses out of the checks after them: out of the watch lists, back in
(latest deletion first) when the backward pass reaches the checks before the deletion. A check may
use any clause before its lemma, so that only spares propagation (enigma144 N = 13: 28 s to 6 s).
Untrusted: `lrat.py` checks what it writes. In plain Python this took 50 s for a 13,000-lemma proof
(enigma144 N = 10), most of it in propagation.
"""
from __future__ import annotations

import hashlib
import io
from typing import BinaryIO

import numpy as np
from numba import njit

from .drat import Proof, decode, deleted_by, from_lists

TRIMMED = -1         # the kernel's answers: the proof is trimmed; the clauses never conflict at the
NO_CONFLICT = -2     # root; (an index) the lemma there does not follow


def trim(proof: Proof) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The indices of the formula clauses and of the lemmas kept, and the kept lemmas' hints (by
    index in formula + lemmas) one after another, the t-th kept lemma's at hints[bounds[t]:bounds[t + 1]]
    (arrays, not lists: a million lemmas hold some 20 million hints). The last lemma must be the
    empty clause. Sorts each clause's literals and reorders them while propagating."""
    m, start = proof.m, proof.start
    if proof.n_clauses == m or start[-1] != start[-2]:
        raise ValueError("a refutation ends with the empty clause")
    gone = deleted_by(proof)
    deleted = np.flatnonzero(gone < len(gone))
    n_vars = int(np.abs(proof.lits).max()) if len(proof.lits) else 0
    status, needed, hint_start, hint_len, hint_buf = _trim(proof.lits, start, m, n_vars, gone,
                                                           deleted[np.argsort(-gone[deleted], kind="stable")])
    if status == NO_CONFLICT:
        raise ValueError("the empty clause does not follow by unit propagation: the proof is broken")
    if status >= 0:
        raise ValueError(f"lemma {status - m + 1} is not RUP: the proof is broken")
    kept = np.flatnonzero(needed[m:])
    bounds = np.zeros(len(kept) + 1, dtype=np.int64)
    np.cumsum(hint_len[m + kept], out=bounds[1:])
    return np.flatnonzero(needed[:m]), kept, _gather(hint_buf, hint_start, hint_len, m + kept, bounds), bounds


def warm_up() -> None:
    """Compile the kernels (numba caches them on disk) on the smallest refutation: decoded from its
    binary DRAT proof (the empty clause), trimmed, written."""
    proof = decode(np.array([ord("a"), 0], dtype=np.uint8), from_lists([[1], [-1]]))
    _, _, hints, bounds = trim(proof)
    write_lrat(io.BytesIO(), 2, proof.lits[:0], np.zeros(2, dtype=np.int64), hints + 1, bounds)


@njit(cache=True)
def _gather(hint_buf, hint_start, hint_len, clauses, bounds):
    hints = np.empty(bounds[-1], dtype=np.int32)
    for t in range(len(clauses)):
        c = clauses[t]
        hints[bounds[t]:bounds[t + 1]] = hint_buf[hint_start[c]:hint_start[c] + hint_len[c]]
    return hints


@njit(cache=True)
def _grow(buf, used, extra):
    if used + extra <= len(buf):
        return buf
    bigger = np.empty(max(2 * len(buf), used + extra), dtype=buf.dtype)
    bigger[:used] = buf[:used]
    return bigger


@njit(cache=True, inline="always")
def _val(value, lit):
    return value[lit] if lit > 0 else -value[-lit]


@njit(cache=True, inline="always")
def _idx(lit):
    return 2 * lit if lit > 0 else -2 * lit + 1


@njit(cache=True)
def _trim(lits, start, m, n_vars, gone, revive):
    n_clauses = len(start) - 1
    last = n_clauses - 1
    value = np.zeros(n_vars + 1, dtype=np.int8)          # +1 true, -1 false, 0 open
    reason = np.full(n_vars + 1, -1, dtype=np.int32)
    position = np.zeros(n_vars + 1, dtype=np.int32)
    trail = np.zeros(n_vars + 1, dtype=np.int32)
    size = 0
    head = np.full(2 * n_vars + 2, -1, dtype=np.int32)  # watch lists: a literal's first node
    nxt = np.full(2 * n_clauses, -1, dtype=np.int32)    # node 2i and 2i + 1 watch clause i
    root = np.zeros(n_clauses, dtype=np.int32)
    needed = np.zeros(n_clauses, dtype=np.bool_)
    seen = np.full(n_clauses, -1, dtype=np.int32)        # the check that last visited the clause
    in_lemma = np.full(n_vars + 1, -1, dtype=np.int32)   # the check whose lemma holds the variable
    hint_start = np.zeros(n_clauses, dtype=np.int64)     # (int32 elsewhere: a clause's index, a literal)
    hint_len = np.zeros(n_clauses, dtype=np.int32)
    hint_buf = np.empty(1024, dtype=np.int32)
    hint_used = 0
    stack = np.empty(n_clauses, dtype=np.int32)
    step_pos = np.empty(n_clauses, dtype=np.int32)
    step_clause = np.empty(n_clauses, dtype=np.int32)

    conflict = -1
    for i in range(last):
        # clause i joins the root: its two best literals (not false, else the latest false) in front
        root[i] = size
        s, e = start[i], start[i + 1]
        _watch(i, lits, start, value, position, head, nxt)
        if e == s or _val(value, lits[s]) < 0:
            conflict = i
            break
        if _val(value, lits[s]) == 0 and (e - s == 1 or _val(value, lits[s + 1]) < 0):
            lit = lits[s]
            value[abs(lit)], reason[abs(lit)], position[abs(lit)] = (1 if lit > 0 else -1), i, size
            trail[size] = lit
            size += 1
            conflict, size = _propagate(lits, start, value, reason, position, trail, size - 1, size, head, nxt, i + 1)
            if conflict >= 0:
                break
    if conflict < 0:
        return NO_CONFLICT, needed, hint_start, hint_len, hint_buf
    for li in range(len(head)):         # the clauses the proof deletes leave the watch lists
        prev, node = -1, head[li]
        while node != -1:
            if gone[node // 2] < n_clauses:
                if prev == -1:
                    head[li] = nxt[node]
                else:
                    nxt[prev] = nxt[node]
            else:
                prev = node
            node = nxt[node]
    back = 0                            # and come back, latest deletion first, for the checks before it
    for j in range(last, m - 1, -1):
        if j < last:
            if not needed[j]:
                continue
            while size > root[j]:
                size -= 1
                v = abs(trail[size])
                value[v], reason[v] = 0, -1
            low = size
            while back < len(revive) and gone[revive[back]] > j:
                if revive[back] < j:    # the root holds every consequence of the clauses before j, so
                    _watch(revive[back], lits, start, value, position, head, nxt)  # it is not unit there
                back += 1
            conflict, first = -1, size
            for t in range(start[j], start[j + 1]):     # the lemma holds at the root: its literal
                lit = lits[t]                           # set first there needs no other literal
                in_lemma[abs(lit)] = j
                if _val(value, lit) > 0 and position[abs(lit)] < first:
                    conflict, first = reason[abs(lit)], position[abs(lit)]
            for t in range(start[j], start[j + 1]):
                lit = -lits[t]
                if conflict != -1:
                    break
                if _val(value, lit) < 0:    # a tautology
                    conflict = -3
                elif _val(value, lit) == 0:
                    value[abs(lit)], reason[abs(lit)], position[abs(lit)] = (1 if lit > 0 else -1), -1, size
                    trail[size] = lit
                    size += 1
            if conflict == -1:
                conflict, size = _propagate(lits, start, value, reason, position, trail, low, size, head, nxt, j)
                if conflict < 0:
                    return j, needed, hint_start, hint_len, hint_buf
        needed[j] = True
        hint_start[j] = hint_used
        if conflict == -3:                  # a tautology needs no hint
            continue
        # the implication graph behind the conflict, in trail order, the conflict clause last
        top, steps = 1, 0
        stack[0] = conflict
        seen[conflict] = j
        while top > 0:
            top -= 1
            c = stack[top]
            needed[c] = True
            for t in range(start[c], start[c + 1]):
                v = abs(lits[t])
                r = reason[v]
                if r >= 0 and seen[r] != j and in_lemma[v] != j:   # the lemma's own are set by it
                    seen[r] = j
                    stack[top] = r
                    top += 1
                    step_pos[steps], step_clause[steps] = position[v], r
                    steps += 1
        order = np.argsort(step_pos[:steps])
        hint_buf = _grow(hint_buf, hint_used, steps + 1)
        for t in range(steps):
            hint_buf[hint_used] = step_clause[order[t]]
            hint_used += 1
        hint_buf[hint_used] = conflict
        hint_used += 1
        hint_len[j] = hint_used - hint_start[j]
    return TRIMMED, needed, hint_start, hint_len, hint_buf


@njit(cache=True)
def _watch(i, lits, start, value, position, head, nxt):
    """Clause i's two best literals (not false, else the latest false) in front, watched."""
    s, e = start[i], start[i + 1]
    for w in range(min(2, e - s)):
        best = s + w
        for t in range(s + w + 1, e):
            vt, vb = _val(value, lits[t]), _val(value, lits[best])
            if (vt >= 0 and vb < 0) or (vt < 0 and vb < 0 and position[abs(lits[t])] > position[abs(lits[best])]):
                best = t
        lits[s + w], lits[best] = lits[best], lits[s + w]
    if e - s >= 2:
        for w in range(2):
            node, li = 2 * i + w, _idx(lits[s + w])
            nxt[node], head[li] = head[li], node


@njit(cache=True)
def _propagate(lits, start, value, reason, position, trail, low, size, head, nxt, limit):  # noqa: PLR0913
    """Unit propagation of trail[low:size] over the clauses below `limit`: (the conflict clause or
    -1, the trail's new size). Clauses at `limit` and above are unlinked for good (limits only fall)."""
    h = low
    while h < size:
        false_lit = -trail[h]
        h += 1
        li = _idx(false_lit)
        prev, node = -1, head[li]
        while node != -1:
            after = nxt[node]
            i = node // 2
            s, e = start[i], start[i + 1]
            if i >= limit:
                if prev == -1:
                    head[li] = after
                else:
                    nxt[prev] = after
                node = after
                continue
            if lits[s] == false_lit:
                lits[s], lits[s + 1] = lits[s + 1], lits[s]
            first = lits[s]
            fv = _val(value, first)
            if fv > 0:
                prev, node = node, after
                continue
            moved = False
            for t in range(s + 2, e):
                lt = lits[t]
                if _val(value, lt) >= 0:
                    lits[s + 1], lits[t] = lt, lits[s + 1]
                    if prev == -1:
                        head[li] = after
                    else:
                        nxt[prev] = after
                    lj = _idx(lt)
                    nxt[node], head[lj] = head[lj], node
                    moved = True
                    break
            if moved:
                node = after
                continue
            if fv < 0:
                return i, size
            value[abs(first)], reason[abs(first)], position[abs(first)] = (1 if first > 0 else -1), i, size
            trail[size] = first
            size += 1
            prev, node = node, after
    return -1, size


def write_lrat(out: BinaryIO, m: int, lits: np.ndarray, start: np.ndarray, hints: np.ndarray,
               bounds: np.ndarray, chunk: int = 1 << 16) -> tuple[int, str]:
    """Writes the LRAT proof of the lemmas (lemma t: id m + t + 1, literals lits[start[t]:start[t + 1]],
    hints, by id, hints[bounds[t]:bounds[t + 1]]) to `out`, a chunk at a time, each clause deleted
    after the last lemma that cites it (so the checker's memory holds only the clauses still to be
    cited). Returns the bytes written and their sha256."""
    digest, written, n = hashlib.sha256(), 0, len(start) - 1
    dels, del_bounds = _last_uses(hints, bounds, m + n + 1)
    for t0 in range(0, n, chunk):
        t1 = min(n, t0 + chunk)
        words = start[t1] - start[t0] + bounds[t1] - bounds[t0] + del_bounds[t1] - del_bounds[t0] + 8 * (t1 - t0)
        buf = np.empty(12 * int(words), dtype=np.uint8)        # a word: at most 11 digits and a sign
        text = buf[:_lrat_lines(buf, m, lits, start, hints, bounds, dels, del_bounds, t0, t1)].tobytes()
        out.write(text)
        digest.update(text)
        written += len(text)
    return written, digest.hexdigest()


@njit(cache=True)
def _last_uses(hints, bounds, n_ids):
    """The ids to delete after each lemma: those it cites last (none after the last lemma)."""
    n = len(bounds) - 1
    last = np.full(n_ids, -1, dtype=np.int64)
    for t in range(n):
        for k in range(bounds[t], bounds[t + 1]):
            last[hints[k]] = t
    del_bounds = np.zeros(n + 1, dtype=np.int64)
    for ident in range(n_ids):
        if 0 <= last[ident] < n - 1:
            del_bounds[last[ident] + 1] += 1
    del_bounds = np.cumsum(del_bounds)
    dels = np.empty(del_bounds[-1], dtype=np.int64)
    fill = del_bounds[:-1].copy()
    for ident in range(n_ids):
        t = last[ident]
        if 0 <= t < n - 1:
            dels[fill[t]] = ident
            fill[t] += 1
    return dels, del_bounds


@njit(cache=True, inline="always")
def _put(buf, at, value, end):
    """`value` in decimal, then the byte `end`."""
    if value < 0:
        buf[at] = 45
        at += 1
        value = -value
    digits, rest = 1, value
    while rest >= 10:
        rest //= 10
        digits += 1
    for k in range(digits - 1, -1, -1):
        buf[at + k] = 48 + value % 10
        value //= 10
    buf[at + digits] = end
    return at + digits + 1


@njit(cache=True)
def _lrat_lines(buf, m, lits, start, hints, bounds, dels, del_bounds, t0, t1):
    at = 0
    for t in range(t0, t1):
        at = _put(buf, at, m + t + 1, 32)
        for k in range(start[t], start[t + 1]):
            at = _put(buf, at, lits[k], 32)
        at = _put(buf, at, 0, 32)
        for k in range(bounds[t], bounds[t + 1]):
            at = _put(buf, at, hints[k], 32)
        at = _put(buf, at, 0, 10)
        if del_bounds[t + 1] > del_bounds[t]:
            at = _put(buf, at, m + t + 1, 32)
            buf[at], buf[at + 1] = 100, 32           # "d "
            at += 2
            for k in range(del_bounds[t], del_bounds[t + 1]):
                at = _put(buf, at, dels[k], 32)
            at = _put(buf, at, 0, 10)
    return at
