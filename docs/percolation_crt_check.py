"""`python docs/percolation_crt_check.py N`: a second computation of a(1..N), the recursion modulo
primes below 2^31 joined by the Chinese remainder theorem, against the exact big-integer terms
stored in results/percolation.csv.

`python docs/percolation_crt_check.py N K`: a cheaper residue check with the K largest primes below
2^31 only: every stored a(n), n <= N, must equal the recursion's value modulo each of them (a check
of the stored terms, not a reconstruction of them)."""
import csv
import math
import sys
import time

from workbench.puzzles.percolation.recursion import _primes_down_from, tables

N = int(sys.argv[1])
K = int(sys.argv[2]) if len(sys.argv) > 2 else None
stored = {int(r["n"]): int(r["count"]) for r in csv.DictReader(open("results/percolation.csv")) if r["status"] == "optimal"}
bound = math.comb(N * N, N)
t0 = time.perf_counter()
if K is not None:
    primes = [p for _, p in zip(range(K), _primes_down_from(2 ** 31))]
    bad = sorted({k for p in primes for k, r in enumerate(tables(N, p).T.diagonal()[1:N + 1], 1)
                  if stored.get(k) is None or stored[k] % p != int(r)})
    print(f"n = 1..{N}: residues modulo {K} primes below 2^31 ({primes[-1]}..{primes[0]}), "
          f"{time.perf_counter() - t0:.1f} s; equal for {N - len(bad)} of {N} stored terms; differing or missing: {bad}")
    sys.exit(0)
value = [0] * (N + 1); modulus = 1; used = 0
for p in _primes_down_from(2 ** 31):
    if modulus > bound:
        break
    T = tables(N, p).T
    for k in range(1, N + 1):
        r = int(T[k, k])
        j = (r - value[k]) * pow(modulus, -1, p) % p
        value[k] += modulus * j
    modulus *= p; used += 1
bad = [k for k in range(1, N + 1) if value[k] != stored.get(k)]
print(f"n = 1..{N}: {used} primes, {time.perf_counter() - t0:.1f} s; CRT equals the stored exact terms for "
      f"{N - len(bad)} of {N}; differing: {bad}")
