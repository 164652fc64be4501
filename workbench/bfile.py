"""OEIS b-files of the workbench's own terms: `n a(n)` lines, proven terms only, read from the
results tables, after comment lines that give the command and the method.

A term is written only when a row of the sequence's table proves it, read back and checked as
`verify` reads rows (status optimal with a solution the checker verifies, or complete for a
count), and only the unbroken run from the first index up to the last term of at most 1000 digits:
a b-file holds consecutive terms. Published values are never written in place of computed ones.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from . import tables
from .pipeline import BadRow, read_back
from .puzzles.base import BadInput
from .solvers.base import Status


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
        "joined by the Chinese remainder theorem (--formulation residues); a(1..10) equal Tromp's exhaustive search; "
        "a(1..230) equal the residue route, and every term equals the recursion modulo 8 further primes "
        "(scripts/percolation_crt_check.py)"),
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


def proven_terms(seq: Sequence, results_dir: str | Path = "results") -> tuple[dict[int, int], list[str]]:
    """n -> a(n) from the rows that prove it, each read back and checked as `verify` and `table` read
    rows (pipeline.read_back), and the rows left out as not holding; two proofs of one n that differ are
    an error. A row whose options only steer the search (squares' --bound) answers a(n); one whose
    options change the question (a margin, a box) belongs to another table's variant, and is left out."""
    from .puzzles import get

    puzzle, found, bad = get(seq.puzzle), dict[int, int](), list[str]()
    path = Path(results_dir) / seq.table
    tables.check_ours(path, tables.COLUMNS)
    for record in tables.read_records(path):
        if isinstance(record, tables.Unreadable):
            bad.append(str(record.error))
            continue
        if record.puzzle != seq.puzzle or not record.proved:
            continue
        try:
            run = read_back(puzzle, record, strict=True)
        except BadRow as e:
            bad.append(f"n = {record.n}: {e}")
            continue
        proof = Status.COMPLETE if run.request.counting else Status.OPTIMAL
        if run.request.variant != path.stem or run.result.status != proof or not isinstance(run.value, int) \
                or not (run.request.counting or run.verified):
            continue
        assert run.n is not None
        if found.setdefault(run.n, run.value) != run.value:
            raise BadInput(f"{seq.table}: two proofs of a({run.n}) differ: {found[run.n]} and {run.value}")
    return found, bad


MAX_DIGITS = 1000       # the OEIS takes terms of at most about 1000 digits in a b-file


def overflow_path(path: str | Path) -> Path:
    """Where the terms past MAX_DIGITS go: beside the b-file, under a name that is not a b-file's."""
    return Path(path).with_name(f"{Path(path).stem}-over{MAX_DIGITS}digits.txt")


def bfile_lines(puzzle: str, command: str, results_dir: str | Path = "results") -> tuple[list[str], list[str]]:
    """The b-file: comments, then `n a(n)` for the unbroken run of proven terms from the offset up
    to the last of at most MAX_DIGITS digits; and the file of the terms after it (empty: none)."""
    seq = SEQUENCES.get(puzzle)
    if seq is None:
        raise BadInput(f"no OEIS b-file for {puzzle} (known: {', '.join(SEQUENCES)})")
    found, bad = proven_terms(seq, results_dir)
    n = seq.offset
    while n in found:
        n += 1
    fits = seq.offset
    while fits < n and len(str(abs(found[fits]))) <= MAX_DIGITS:
        fits += 1
    if fits == seq.offset:
        raise BadInput(f"no proven term of {seq.anumber} of at most {MAX_DIGITS} digits in "
                       f"{Path(results_dir) / seq.table}")
    later = sorted(k for k in found if k >= n)
    source = f"the proven terms of {Path(results_dir) / seq.table}"
    about = [f"# written {time.strftime('%Y-%m-%d')} by: {command}", f"# method: {seq.method}"]
    if later:
        about.append(f"# left out: proven terms after the first gap at n = {n} ({', '.join(map(str, later[:10]))}"
                     f"{' ...' if len(later) > 10 else ''}), since a b-file holds consecutive terms")
    about += [f"# left out, a row that does not hold: {line}"[:1000] for line in bad]
    if fits < n:
        about.append(f"# a({fits}..{n - 1}) have more than {MAX_DIGITS} digits: written to a file of their own, "
                     f"*-over{MAX_DIGITS}digits.txt")
    bfile = [f"# {seq.anumber}: a({seq.offset}..{fits - 1}), {source}", *about,
             *(f"{k} {found[k]}" for k in range(seq.offset, fits))]
    over = [f"# {seq.anumber}: a({fits}..{n - 1}), {source}, each over {MAX_DIGITS} digits (not a b-file)", *about,
            *(f"{k} {found[k]}" for k in range(fits, n))] if fits < n else []
    return bfile, over


def write(puzzle: str, path: str | Path, command: str, results_dir: str | Path = "results") -> tuple[Path, int]:
    """Write the b-file (and, beside it, the terms too long for one, or remove a stale file of them);
    returns the path and the number of terms in the b-file."""
    lines, over = bfile_lines(puzzle, command, results_dir)
    Path(path).write_text("\n".join(lines) + "\n", encoding="ascii", newline="\n")
    extra = overflow_path(path)
    if over:
        extra.write_text("\n".join(over) + "\n", encoding="ascii", newline="\n")
    else:
        extra.unlink(missing_ok=True)
    return Path(path), sum(1 for line in lines if not line.startswith("#"))
