"""Compiled sums for the recursion modulo many primes at once (recursion._Ring): every table has
a last axis of lanes, one per prime. Residues lie below 2^26, so a product stays below 2^52 and a
run of up to ROW products is added before a reduction without leaving int64.
"""
from __future__ import annotations

import numba
import numpy as np

BITS = 26
GROUP = 8               # lanes come in whole groups of 8: 64 bytes, one cache line
TILE = 16               # rows of one table kept in cache by _diagonal
ROW = 2 ** 11           # products of residues below 2^26 added before a reduction stays below 2^63


@numba.njit(cache=True, nogil=True)
def dot(a: np.ndarray, b: np.ndarray, m: np.ndarray) -> np.ndarray:     # pragma: no cover - compiled
    """sum(a * b) modulo m, lane by lane, over the first axis of (L, lanes) arrays; reduced after
    every ROW products."""
    lanes = m.shape[0]
    out = np.zeros(lanes, np.int64)
    for i in range(a.shape[0]):
        for k in range(lanes):
            out[k] += a[i, k] * b[i, k]
        if i % ROW == ROW - 1:
            for k in range(lanes):
                out[k] %= m[k]
    for k in range(lanes):
        out[k] %= m[k]
    return out


@numba.njit(cache=True, nogil=True)
def _diagonal(a: np.ndarray, k: np.ndarray, s: int, wanted: np.ndarray, m: np.ndarray) -> np.ndarray:
    """out[h] = sum over p < h, q < s - h, p = q modulo 2, of a[p, q] k[h - p, s - h - q], for the
    wanted h. The sum for h splits into one run over q per pair of rows (p of a, r = h - p of k);
    TILE rows of a stay in cache while every row of k passes them, so that k is read from memory
    once per TILE rows rather than once per row. Reduced after each run (q < s <= ROW)."""
    lanes = m.shape[0]
    out = np.zeros((s + 1, lanes), np.int64)
    top = 0
    for h in range(s + 1):
        if wanted[h]:
            top = h
    for p0 in range(1, top, TILE):
        for r in range(1, top - p0 + 1):
            for p in range(p0, min(p0 + TILE, top - r + 1)):
                h = p + r
                if not wanted[h]:
                    continue
                acc = out[h]
                for q in range(2 - p % 2, s - h, 2):
                    x, y = a[p, q], k[r, s - h - q]
                    for j in range(lanes):
                        acc[j] += x[j] * y[j]
                for j in range(lanes):
                    acc[j] %= m[j]
    return out


def convs(a: np.ndarray, k: np.ndarray, points: list[tuple[int, int]], m: np.ndarray) -> np.ndarray:
    """recursion._Ring.convs for points on one antidiagonal h + w = s, on whole C-contiguous
    tables (the lanes contiguous): one row of residues per point."""
    if not points:
        return np.zeros((0, m.shape[0]), np.int64)
    s = sum(points[0])
    hs = np.array([h for h, _ in points])
    assert all(h + w == s for h, w in points)
    wanted = np.zeros(s + 1, np.bool_)
    wanted[hs] = True
    return _diagonal(a, k, s, wanted, m)[hs]
