"""Certified lower bounds for hitting sets: `solve --certify`.

An "optimal k" claim otherwise rests on a solver's word. Here the CNF "every set is hit and at most
k-1 elements are chosen" (`at_most_cnf`) is refuted by CaDiCaL 1.9.5; its DRUP proof is trimmed
(untrusted) into an LRAT proof, each lemma with the clauses that derive it, and `lrat.py`, a small
checker that trusts neither the solver nor the trimming, checks it against the whole CNF. Short
proofs are checked by `drup` (formally verified) as well. With the checker-verified solution of
size k, that makes k optimal without trusting any solver.
"""
from __future__ import annotations

import hashlib
import io
import multiprocessing
import tempfile
import time
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any, BinaryIO

import numpy as np

from .drat import from_lists, read_solver_proof
from .errors import BadInput
from .models.core import HittingSet
from .trim import trim, write_lrat

SAT_SOLVER = "cadical195"
ENCODINGS = ("regrouped", "seqcounter")
DRUP_MAX_LEMMAS = 1000       # drup (formally verified) as well up to here: its time grows about quadratically


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
    core_clauses: int = 0       # the formula clauses the trimmed proof uses
    proof_lines: int = 0        # lemmas of the trimmed proof
    proof_bytes: int = 0        # size of the LRAT proof
    cnf_sha256: str = ""
    proof_sha256: str = ""      # of the LRAT proof
    solve_seconds: float = 0.0  # CaDiCaL
    trim_seconds: float = 0.0   # trimming the proof and writing its hints (untrusted)
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


@dataclass
class Refutation:
    """A trimmed refutation of a CNF of `m` clauses: formula clause i has LRAT id i + 1, lemma t id
    m + t + 1, its literals lits[start[t]:start[t + 1]], its hints (ids) hints[bounds[t]:bounds[t + 1]].
    Arrays, not lists: the proof of enigma144 N = 14 keeps 772,486 lemmas."""

    m: int
    used: np.ndarray                # indices of the formula clauses the proof uses
    lits: np.ndarray
    start: np.ndarray
    hints: np.ndarray
    bounds: np.ndarray
    trim_seconds: float = 0.0

    @property
    def n_lemmas(self) -> int:
        return len(self.start) - 1

    def write_lrat(self, out: BinaryIO) -> tuple[int, str]:
        """The LRAT proof, with deletions, into `out`: (its bytes, their sha256)."""
        return write_lrat(out, self.m, self.lits, self.start, self.hints, self.bounds)

    def lrat(self) -> str:
        text = io.BytesIO()
        self.write_lrat(text)
        return text.getvalue().decode()

    def drup(self) -> str:
        return "".join(" ".join(map(str, self.lits[self.start[t]:self.start[t + 1]].tolist() + [0])) + "\n"
                       for t in range(self.n_lemmas))


@dataclass
class Checked:
    """What `check_refutation` found: the checker's verdict on the proof it wrote."""

    valid: bool
    proof_bytes: int
    proof_sha256: str
    check_seconds: float


def check_refutation(refuted: Refutation, dimacs: str) -> Checked:
    """Writes the LRAT proof to a temporary file, hashing it, and has `lrat.py` check it from there,
    line by line, against the CNF `dimacs` (neither side holds the whole text: N = 14's was 216 MB)."""
    from . import lrat

    formula = lrat.parse_dimacs(dimacs)
    with tempfile.TemporaryFile() as out:
        size, sha = refuted.write_lrat(out)
        out.seek(0)
        began = time.perf_counter()
        valid = lrat.check(formula, io.TextIOWrapper(out, encoding="ascii")).valid
    return Checked(valid, size, sha, time.perf_counter() - began)


def refutation(clauses: list[list[int]], rounds: int = 1) -> Refutation | None:
    """CaDiCaL's refutation of `clauses`, trimmed, with LRAT hints; None when the clauses are
    satisfiable. With `rounds` > 1 CaDiCaL runs again on the used clauses while that shortens the
    proof (measured, enigma144 N = 6: 3244 trimmed lemmas, then 1332, then 1159)."""
    from pysat.solvers import Solver

    m = len(clauses)
    no_lemmas = np.zeros(1, dtype=np.int64)
    if [] in clauses:
        return Refutation(m, np.array([clauses.index([])]), np.zeros(0, dtype=np.int32), no_lemmas,
                          np.zeros(0, dtype=np.int32), no_lemmas)
    core, best, trim_seconds = np.arange(m), None, 0.0
    for _ in range(rounds):
        chosen = [clauses[i] for i in core]
        formula = from_lists(chosen)
        with Solver(name=SAT_SOLVER, bootstrap_with=chosen, with_proof=True) as solver:
            if solver.solve():
                return None
            proof = read_solver_proof(solver, formula)
        t0 = time.perf_counter()
        used, kept, hints, bounds = trim(proof)
        trim_seconds += time.perf_counter() - t0
        if best is not None and len(kept) >= best.n_lemmas:
            break
        k = proof.m
        ident = np.zeros(proof.n_clauses, dtype=np.int32)      # local index to LRAT id
        ident[:k] = core + 1
        ident[k + kept] = m + 1 + np.arange(len(kept))
        sizes = proof.start[k + kept + 1] - proof.start[k + kept]
        starts = np.zeros(len(kept) + 1, dtype=np.int64)
        np.cumsum(sizes, out=starts[1:])
        lits = proof.lits[np.repeat(proof.start[k + kept] - starts[:-1], sizes) + np.arange(starts[-1])]
        del proof
        best = Refutation(m, core[used], lits, starts, ident[hints], bounds)
        core = best.used
    if best is not None:
        best.trim_seconds = trim_seconds
    return best


def _refute_and_check(hs: HittingSet, k: int, encoding: str) -> Certificate:
    import drup
    from pysat.formula import CNF

    cnf = at_most_cnf(hs, k - 1, encoding)
    dimacs = cnf.to_dimacs()
    cert = Certificate(k, "", encoding, variables=cnf.nv, clauses=len(cnf.clauses),
                       cnf_sha256=hashlib.sha256(dimacs.encode()).hexdigest())
    t0 = time.perf_counter()
    refuted = refutation([list(c) for c in cnf.clauses])
    if refuted is None:
        cert.verdict, cert.solve_seconds = "SATISFIABLE", time.perf_counter() - t0
        return cert
    cert.trim_seconds = refuted.trim_seconds
    cert.solve_seconds = time.perf_counter() - t0 - refuted.trim_seconds
    cert.core_clauses, cert.proof_lines = len(refuted.used), refuted.n_lemmas
    checked = check_refutation(refuted, dimacs)     # the whole CNF, as hashed above
    cert.proof_bytes, cert.proof_sha256 = checked.proof_bytes, checked.proof_sha256
    cert.check_seconds = checked.check_seconds
    valid = checked.valid
    if valid and 0 < refuted.n_lemmas <= DRUP_MAX_LEMMAS:
        core = CNF(from_clauses=[cnf.clauses[i] for i in refuted.used]).to_dimacs()   # a subset of the CNF
        t2 = time.perf_counter()
        valid = drup.check_proof_from_strings(core, refuted.drup()).outcome == drup.Outcome.VALID
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
