"""`python scripts/percolation_crt_check.py N`: a second computation of a(1..N), the recursion modulo
the primes the `residues` counter uses, joined by the Chinese remainder theorem, against the terms
stored in results/percolation.csv.

`python scripts/percolation_crt_check.py N K`: a cheaper and independent check with K primes below 2^26
that the `residues` counter does not use: every stored a(n), n <= N, must equal the recursion's
value modulo each of them (a check of the stored terms, however they were computed, not a
reconstruction of them). A stored term wrong by anything but a multiple of all K primes fails."""
import csv
import sys
import time

from workbench.puzzles.percolation import residues
from workbench.puzzles.percolation.recursion import N_MAX

N = int(sys.argv[1])
K = int(sys.argv[2]) if len(sys.argv) > 2 else None


def stored(wait: float = 7200.0) -> dict[int, int]:
    """The complete counts in results/percolation.csv, read once the computation is done; while a
    table run beside this check has not stored a(1..N) yet, it waits for it (up to `wait` s)."""
    give_up = time.monotonic() + wait
    while True:
        found = {int(r["n"]): int(r["count"]) for r in csv.DictReader(open("results/percolation.csv"))
                 if r["status"] in ("optimal", "complete")}
        if all(k in found for k in range(1, N + 1)) or time.monotonic() > give_up:
            return found
        time.sleep(30)


t0 = time.perf_counter()
if K is not None:
    primes = residues.check_primes(K, N_MAX)
    rows = residues.Residues(N, primes).residues(N, threads=2)
    seconds = time.perf_counter() - t0
    table = stored()
    bad = sorted({k for p, row in zip(primes, rows) for k, r in enumerate(row, 1) if table.get(k, -1) % p != r})
    print(f"n = 1..{N}: residues modulo {K} primes below 2^26 that the residues counter does not use "
          f"({primes[-1]}..{primes[0]}), {seconds:.1f} s; equal for {N - len(bad)} of {N} stored "
          f"terms; differing or missing: {bad}")
    sys.exit(1 if bad else 0)
value = residues.terms(N, threads=2)
seconds = time.perf_counter() - t0
table = stored()
bad = [k for k in range(1, N + 1) if value[k - 1] != table.get(k)]
print(f"n = 1..{N}: {len(residues.primes_for(N))} primes, {seconds:.1f} s; CRT equals the stored "
      f"terms for {N - len(bad)} of {N}; differing: {bad}")
sys.exit(1 if bad else 0)
