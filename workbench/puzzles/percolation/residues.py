"""A146971 by the recursion modulo many primes at once, joined by the Chinese remainder theorem.

Why: exactly, a step of the recursion sums n-digit integers, so a(n) costs about n^6 and a(231..500)
about 37 CPU hours. Modulo a prime a step is n^4 machine products. The recursion runs once for a
batch of primes, one lane per prime on the last axis of every table, so that numpy's and Python's
overhead per sum is shared by the whole batch and the compiled sums (lanes.py) stream contiguous lanes.
Residues lie below 2^26, so a product stays below 2^52 and a dot adds a row of up to 2^11 of them
before it reduces. The primes' product exceeds C(n^2, n), which bounds a(n) (a(n) counts some
n-cell sets of the n x n board), so the least non-negative solution of the congruences is a(n).
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from typing import Any

from .lanes import BITS, GROUP
from .recursion import recursion

BATCH = 5 * GROUP       # lanes per recursion: 200 primes reach a(500) in five batches of 1.2 GB


def _is_prime(p: int) -> bool:
    """Deterministic Miller-Rabin below 4.7e9 (bases 2, 7, 61)."""
    if p < 2 or p % 2 == 0:
        return p == 2
    d, r = p - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in (2, 7, 61):
        if a % p == 0:
            continue
        x = pow(a, d, p)
        if x in (1, p - 1):
            continue
        for _ in range(r - 1):
            x = x * x % p
            if x == p - 1:
                break
        else:
            return False
    return True


def primes_below(limit: int) -> Iterator[int]:
    """The primes below `limit`, largest first."""
    return (p for p in range(limit - 1, 1, -1) if _is_prime(p))


@functools.cache
def primes_for(n: int) -> tuple[int, ...]:
    """The largest primes below 2^26 whose product exceeds C(n^2, n) >= a(n)."""
    bound, product, chosen = math.comb(n * n, n), 1, []
    for p in primes_below(2 ** BITS):
        if product > bound:
            break
        chosen.append(p)
        product *= p
    return tuple(chosen)


def join(residues: list[list[int]], primes: tuple[int, ...]) -> list[int]:
    """Chinese remainder theorem, term by term: residues[j][k] is term k modulo primes[j]."""
    values, modulus = [0] * len(residues[0]), 1
    for row, p in zip(residues, primes):
        inverse = pow(modulus, -1, p)
        values = [v + modulus * ((r - v) * inverse % p) for v, r in zip(values, row)]
        modulus *= p
    return values


def description(capacity: int) -> str:
    primes = primes_for(capacity)
    return (f"modulo the {len(primes)} largest primes below 2^{BITS} (their product exceeds C({capacity}^2, "
            f"{capacity}) >= a(n)), joined by the Chinese remainder theorem")


def check_primes(count: int, capacity: int) -> tuple[int, ...]:
    """`count` primes below 2^26 that primes_for(capacity) does not use: a second computation's moduli."""
    used = len(primes_for(capacity))
    return tuple(p for _, p in zip(range(used + count), primes_below(2 ** BITS)))[used:]


class Residues:
    """a(1..n) modulo `primes` (by default those for `capacity`), batches of BATCH lanes each in a
    recursion of its own (one thread each), kept between calls: a larger n extends them."""

    def __init__(self, capacity: int, primes: tuple[int, ...] | None = None):
        self.primes = primes or primes_for(capacity)
        self.parts = [(batch, recursion(capacity, batch)) for batch in _batches(self.primes)]

    def residues(self, n: int, threads: int = 1, first: int = 1) -> list[list[int]]:
        """[[a(first..n) modulo p] for each prime p], in the order of self.primes."""
        from ...search import tasks

        def lanes(part: tuple[tuple[int, ...], Callable[[int], Any]]) -> list[list[int]]:
            batch, extend = part
            t = extend(n).T
            return [[int(t[k, k, j]) for k in range(first, n + 1)] for j in range(len(batch))]

        with tasks.fan_out(threads) as each:
            return [row for rows in each(lanes, self.parts) for row in rows]

    def terms(self, n: int, threads: int = 1, first: int = 1) -> list[int]:
        """a(first..n), exactly (a table's row joins its own term only)."""
        return join(self.residues(n, threads, first), self.primes)


def terms(n: int, threads: int = 1) -> list[int]:
    """a(1..n) by residues, from a recursion of its own."""
    return Residues(n).terms(n, threads)


def _batches(primes: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [primes[i:i + BATCH] for i in range(0, len(primes), BATCH)]


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels."""
    terms(4)
