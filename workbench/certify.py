"""Certified lower bounds for hitting sets: `solve --certify`.

An "optimal k" claim otherwise rests on a solver's word. Here the CNF "every set is hit and at most
k-1 elements are chosen" (`at_most_cnf`) is refuted by CaDiCaL 1.9.5, which writes an LRAT proof
(each lemma with the clauses that derive it), and `lrat.py`, a small checker that trusts no solver,
checks it against the whole CNF. Short proofs are checked by `drup` (formally verified) as well.
With the checker-verified solution of size k, that makes k optimal without trusting any solver.
"""
from __future__ import annotations

import hashlib
import io
import multiprocessing
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any, BinaryIO

from .errors import BadInput
from .models.core import HittingSet

SAT_SOLVER = "cadical195"
ENCODINGS = ("regrouped", "seqcounter")
DRUP_MAX_BYTES = 100_000     # drup (formally verified) as well for proofs up to here: its time grows quadratically


@dataclass
class Certificate:
    """The outcome of one certification: `verdict` VALID means the checker(s) accepted the
    refutation, so no hitting set has fewer than `lower_bound` elements."""

    lower_bound: int
    verdict: str   # VALID; INVALID (a checker rejected the proof); SATISFIABLE (a smaller set exists); TIMEOUT; ERROR
    encoding: str
    checker: str = "lrat"       # "lrat", or "lrat+drup" when drup checked the proof too
    variables: int = 0
    clauses: int = 0
    proof_lines: int = 0        # lemmas of the LRAT proof
    proof_bytes: int = 0        # size of the LRAT proof
    cnf_sha256: str = ""
    proof_sha256: str = ""      # of the LRAT proof
    solve_seconds: float = 0.0  # CaDiCaL
    check_seconds: float = 0.0  # the LRAT checker
    drup_seconds: float = 0.0   # drup, when it ran

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def packing(hs: HittingSet) -> list[tuple[int, ...]]:
    """Pairwise disjoint sets of at most 3 elements, smallest first (on the triangular grids: the
    upward unit triangles, which share no match and hold every match)."""
    used: set[int] = set()
    chosen = []
    for s in sorted((tuple(s) for s in hs.sets if len(s) <= 3), key=lambda s: (len(s), s)):
        if not used.intersection(s):
            chosen.append(s)
            used.update(s)
    return chosen


def packing_bound(hs: HittingSet) -> int:
    """A lower bound on the cost for free: each set of a packing needs an element of its own, at
    least its lightest one."""
    return sum(min(hs.weight(e) for e in s) for s in packing(hs))


def at_most_cnf(hs: HittingSet, k: int, encoding: str = "regrouped"):
    """The CNF "every set is hit and at most k elements are chosen" (element e is variable e + 1)."""
    from pysat.formula import CNF

    cnf = CNF(from_clauses=[[e + 1 for e in s] for s in hs.sets])
    counting, top = at_most_clauses(hs, k, hs.n_elements, encoding)
    cnf.extend(counting)
    cnf.nv = top
    return cnf


def at_most_clauses(hs: HittingSet, k: int, top: int, encoding: str = "regrouped") -> tuple[list[list[int]], int]:
    """Clauses that, with "every set is hit", say "at most k elements are chosen"; new variables are
    numbered from top + 1. Returns the clauses and the highest variable.

    `seqcounter` counts the elements with python-sat's sequential counter (an element of weight w
    w times, so "at most k" bounds the weight). `regrouped` (unit weights) counts what
    a hitting set spends beyond one element per set of a packing P (disjoint sets, `packing`): for
    each S in P and j = 2..|S|, a new variable u(S, j) with clauses "any j elements of S chosen
    imply u(S, j)", and the sequential counter says that the elements outside P and the u variables
    number at most k - |P|. Why that is satisfiable whenever a hitting set H with |H| <= k exists:
    H hits every S in P, so |H & S| = 1 + #{j >= 2: |H & S| >= j}; setting u(S, j) to
    "|H & S| >= j" satisfies every clause, and |H| = |H outside P| + |P| + (the true u's), so
    the count is at most k - |P|. So refuting it proves that no hitting set has k elements or fewer
    (tested against brute force). It counts to 32 over 156 literals where the plain one counts to
    110 over 234 (enigma144 N = 12), and CaDiCaL's refutation shrinks by 30x at N = 10.
    """
    from pysat.card import CardEnc, EncType

    if encoding not in ENCODINGS:
        raise BadInput(f"unknown certificate encoding '{encoding}' (known: {', '.join(ENCODINGS)})")
    clauses: list[list[int]] = []
    counted, budget = [e + 1 for e in range(hs.n_elements) for _ in range(int(hs.weight(e)))], k
    if encoding == "regrouped" and all(hs.weight(e) == 1 for e in range(hs.n_elements)):
        groups = packing(hs)
        inside = {e for s in groups for e in s}
        counted = [e + 1 for e in range(hs.n_elements) if e not in inside]
        for s in groups:
            for j in range(2, len(s) + 1):
                top += 1
                clauses.extend([-(e + 1) for e in chosen] + [top] for chosen in combinations(s, j))
                if j > 2:
                    clauses.append([-top, top - 1])          # u(S, j) implies u(S, j - 1)
                counted.append(top)
        budget = k - len(groups)
    if budget < 0:
        clauses.append([])        # more disjoint sets than k: no k elements hit them all
    elif budget < len(counted):
        card = CardEnc.atmost(lits=counted, bound=budget, top_id=top, encoding=EncType.seqcounter)
        clauses.extend(card.clauses)
        top = max(top, card.nv)
    return clauses, top


class Refutation:
    """CaDiCaL's LRAT proof of a CNF of `m` clauses, as it wrote it (text, in a temporary file): a lemma
    line "id literals 0 hints 0" cites by id the clauses that derive it, a deletion line "id d ids 0"
    drops clauses. Not trusted: `lrat.py` checks it."""

    def __init__(self, m: int, file: BinaryIO) -> None:
        self.m, self.file = m, file

    def lines(self) -> Iterator[str]:
        self.file.seek(0)
        text = io.TextIOWrapper(self.file, encoding="ascii")  # type: ignore[arg-type]
        try:
            for line in text:   # noqa: UP028 (`yield from` would close the wrapper, and so the file)
                yield line
        finally:
            text.detach()

    def formula_ids(self) -> list[int]:
        """The ids CaDiCaL gave the formula's clauses: 1..m in order, except that a clause it derives
        while they are added (a unit's consequence, a clause with a repeated literal shortened) takes
        the next id, so the formula's are the first m ids that no lemma line holds. Such lemmas come
        first in the file, so the scan stops at the first lemma above them all."""
        lemmas: set[int] = set()
        for line in self.lines():
            words = line.split(maxsplit=2)
            if len(words) > 1 and words[1] != "d":
                lemmas.add(int(words[0]))
                if int(words[0]) - len(lemmas) >= self.m:
                    break
        return [i for i in range(1, self.m + len(lemmas) + 1) if i not in lemmas][:self.m]

    def lrat(self) -> str:
        self.file.seek(0)
        return self.file.read().decode()

    def size_and_hash(self) -> tuple[int, str]:
        self.file.seek(0)
        digest = hashlib.file_digest(self.file, "sha256")  # type: ignore[arg-type]
        return self.file.tell(), digest.hexdigest()


@dataclass
class Checked:
    """What `check_refutation` found: the checker's verdict on the proof."""

    valid: bool
    lemmas: int
    proof_bytes: int
    proof_sha256: str
    check_seconds: float


def check_refutation(refuted: Refutation, dimacs: str) -> Checked:
    """`lrat.py`'s verdict on the proof against the CNF `dimacs`, reading the proof line by line
    (enigma144 N = 14's is 308 MB), with the proof's size and hash."""
    from . import lrat

    formula = lrat.parse_dimacs(dimacs)
    size, sha = refuted.size_and_hash()
    began = time.perf_counter()
    verdict = lrat.check(formula, refuted.lines(), refuted.formula_ids())
    return Checked(verdict.valid, verdict.lemmas, size, sha, time.perf_counter() - began)


def refutation(clauses: list[list[int]]) -> Refutation | None:
    """CaDiCaL's refutation of `clauses` with its LRAT hints (its `lrat` option: it writes each
    lemma's chain as it learns it, so nothing is trimmed afterwards); None when satisfiable."""
    import pysolvers  # python-sat's extension module
    from pysat.solvers import Solver

    if [] in clauses:                           # needs no proof
        return Refutation(len(clauses), tempfile.TemporaryFile())
    with Solver(name=SAT_SOLVER) as solver:
        cadical = solver.solver
        cadical.configure({"lrat": 1, "binary": 0})
        traced = tempfile.TemporaryFile()
        cadical.prfp = pysolvers.cadical195_tracepr(cadical.cadical, traced)
        cadical.prfile = traced     # the solver closes it once its proof is traced
        for clause in clauses:
            solver.add_clause(clause)
        if solver.solve():
            return None
        proof = os.fdopen(os.dup(traced.fileno()), "rb")   # outlives the solver, which closes its file
    return Refutation(len(clauses), proof)


def drup_check(formula: list[list[int]], refuted: Refutation) -> bool:
    """drup's verdict (formally verified) on the lemmas the proof needs, against the formula clauses
    they need: both found backwards from the empty clause through the hints. For short proofs only."""
    import drup

    lemmas: dict[int, tuple[list[int], list[int]]] = {}
    for line in refuted.lines():
        words = line.split()
        if len(words) > 1 and words[1] != "d":
            numbers = [int(w) for w in words]
            cut = numbers.index(0, 1)
            lemmas[numbers[0]] = numbers[1:cut], numbers[cut + 1:-1]
    by_id = dict(zip(refuted.formula_ids(), formula))
    needed, core, todo = set(), set(), [next(i for i, (lits, _) in lemmas.items() if not lits)]
    while todo:
        ident = todo.pop()
        if ident in by_id:
            core.add(ident)
        elif ident not in needed:
            needed.add(ident)
            todo.extend(lemmas[ident][1])
    top = max((abs(lit) for c in formula for lit in c), default=0)
    cnf = "".join(" ".join(map(str, by_id[i] + [0])) + "\n" for i in sorted(core))
    steps = "".join(" ".join(map(str, lemmas[i][0] + [0])) + "\n" for i in sorted(needed))
    return drup.check_proof_from_strings(f"p cnf {top} {len(core)}\n{cnf}", steps).outcome == drup.Outcome.VALID


def _refute_and_check(hs: HittingSet, k: int, encoding: str) -> Certificate:
    cnf = at_most_cnf(hs, k - 1, encoding)
    dimacs, clauses = cnf.to_dimacs(), [list(c) for c in cnf.clauses]
    cert = Certificate(k, "", encoding, variables=cnf.nv, clauses=len(clauses),
                       cnf_sha256=hashlib.sha256(dimacs.encode()).hexdigest())
    t0 = time.perf_counter()
    refuted = refutation(clauses)
    cert.solve_seconds = time.perf_counter() - t0
    if refuted is None:
        cert.verdict = "SATISFIABLE"
        return cert
    checked = check_refutation(refuted, dimacs)     # the whole CNF, as hashed above
    cert.proof_bytes, cert.proof_sha256, cert.proof_lines = checked.proof_bytes, checked.proof_sha256, checked.lemmas
    cert.check_seconds = checked.check_seconds
    valid = checked.valid
    if valid and 0 < checked.lemmas and checked.proof_bytes <= DRUP_MAX_BYTES:
        t2 = time.perf_counter()
        valid = drup_check(clauses, refuted)
        cert.drup_seconds, cert.checker = time.perf_counter() - t2, "lrat+drup"
    cert.verdict = "VALID" if valid else "INVALID"
    return cert


def _child(conn, hs: HittingSet, k: int, encoding: str) -> None:
    conn.send(_refute_and_check(hs, k, encoding))


def certify(hs: HittingSet, k: int, time_limit: float | None, encoding: str = "regrouped") -> Certificate:
    """Refute "a hitting set of k-1 elements" and check the proof, in a child process so that the time
    limit holds (neither CaDiCaL in python-sat nor drup can be interrupted)."""
    if k <= 0:
        return Certificate(k, "VALID", "trivial")     # no set needs fewer than 0 elements
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(theirs, hs, k, encoding), daemon=True)
    child.start()
    theirs.close()
    try:
        if ours.poll(time_limit):
            return ours.recv()
        return Certificate(k, "TIMEOUT", encoding)
    except EOFError:            # the child died (say, out of memory)
        return Certificate(k, "ERROR", encoding)
    finally:
        if child.is_alive():
            child.kill()
        child.join(5)
