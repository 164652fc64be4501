"""OEIS b-files of the workbench's own terms: `n a(n)` lines, proven terms only, read from the
results tables, after comment lines that give the command and the method.

A term is written only when a row of the sequence's table proves it (status optimal, or complete
for a count, as `optimal` in rows stored before counts had a status of their own; for a
minimisation also a solution the checker verified), and only the unbroken run from the first index:
a b-file holds consecutive terms. Published values are never written in place of computed ones.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from . import tables
from .puzzles.base import BadInput


@dataclass(frozen=True)
class Sequence:
    anumber: str
    puzzle: str
    table: str               # results/<table>
    answer: str              # the column that holds a(n): count or objective
    offset: int
    method: str


SEQUENCES = {
    "percolation": Sequence(
        "A146971", "percolation", "percolation.csv", "count", 1,
        "exact count by the polynomial recursion over rectangles (workbench/puzzles/percolation/recursion.py, "
        "docs/notes/percolation.md): a(1..230) in big integers, a(231..500) modulo the 200 largest primes below 2^26 "
        "joined by the Chinese remainder theorem (--counter residues); a(1..10) equal Tromp's exhaustive search; "
        "a(1..230) equal the residue route, and every term equals the recursion modulo 8 further primes "
        "(docs/percolation_crt_check.py)"),
    "squares": Sequence(
        "A294249", "squares", "squares.csv", "objective", 1,
        "fewest matches, proven optimal by the workbench's exhaustive search or a MaxSAT solver (RC2), each "
        "solution verified by an independent checker; as the OEIS entry, all squares lie inside the largest "
        "(docs/notes/squares.md)"),
    "stones": Sequence(
        "A337663", "stones", "stones.csv", "objective", 1,
        "largest number reached, proven by the workbench's exhaustive search (or CP-SAT for n <= 3), each "
        "board verified by an independent checker (docs/stones.md); hunts' boards that are not proven are left out"),
}


def proven_terms(seq: Sequence, results_dir: str | Path = "results") -> dict[int, int]:
    """n -> a(n) from the rows that prove it; two proofs of one n that differ are an error."""
    found: dict[int, int] = {}
    for row in tables.read_rows(Path(results_dir) / seq.table):
        proof = ("optimal", "complete") if seq.answer == "count" else ("optimal",)
        if row.get("puzzle") != seq.puzzle or row.get("status") not in proof or not row.get(seq.answer):
            continue
        if row.get("setting"):              # a run with options away from the defaults asks another question
            continue
        if seq.answer == "objective" and row.get("verified") != "True":
            continue
        n, value = int(row["n"]), int(float(row[seq.answer]) if seq.answer == "objective" else int(row[seq.answer]))
        if found.setdefault(n, value) != value:
            raise BadInput(f"{seq.table}: two proofs of a({n}) differ: {found[n]} and {value}")
    return found


def bfile_lines(puzzle: str, command: str, results_dir: str | Path = "results") -> list[str]:
    """The b-file: comments, then `n a(n)` for the unbroken run of proven terms from the offset."""
    seq = SEQUENCES.get(puzzle)
    if seq is None:
        raise BadInput(f"no OEIS b-file for {puzzle} (known: {', '.join(SEQUENCES)})")
    found = proven_terms(seq, results_dir)
    n = seq.offset
    terms = []
    while n in found:
        terms.append(f"{n} {found[n]}")
        n += 1
    if not terms:
        raise BadInput(f"no proven term of {seq.anumber} in {Path(results_dir) / seq.table}")
    later = sorted(k for k in found if k >= n)
    head = [f"# {seq.anumber}: a({seq.offset}..{n - 1}), the proven terms of {Path(results_dir) / seq.table}",
            f"# written {time.strftime('%Y-%m-%d')} by: {command}",
            f"# method: {seq.method}"]
    if later:
        head.append(f"# left out: proven terms after the first gap at n = {n} ({', '.join(map(str, later[:10]))}"
                    f"{' ...' if len(later) > 10 else ''}), since a b-file holds consecutive terms")
    return head + terms


def write(puzzle: str, path: str | Path, command: str, results_dir: str | Path = "results") -> tuple[Path, int]:
    """Write the b-file; returns the path and the number of terms."""
    lines = bfile_lines(puzzle, command, results_dir)
    Path(path).write_text("\n".join(lines) + "\n")
    return Path(path), sum(1 for line in lines if not line.startswith("#"))
