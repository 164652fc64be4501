"""Certified lower bounds for hitting sets: `solve --certify`.

An "optimal k" claim otherwise rests on a solver's word. Here the CNF "every set is hit and at most
k-1 elements are chosen" (python-sat's sequential-counter cardinality encoding, no symmetry breaking)
is refuted by CaDiCaL 1.9.5, and its DRUP proof is checked by `drup`, a formally verified checker.
With the checker-verified solution of size k, that makes k optimal without trusting any solver.
"""
from __future__ import annotations

import hashlib
import multiprocessing
import time
from dataclasses import asdict, dataclass
from typing import Any

from .models.core import HittingSet
from .puzzles.base import BadInput

SAT_SOLVER = "cadical195"


@dataclass
class Certificate:
    """The outcome of one certification: `verdict` VALID means drup accepted the refutation, so no
    hitting set has fewer than `lower_bound` elements."""

    lower_bound: int
    verdict: str   # VALID; INVALID (drup rejected the proof); SATISFIABLE (a smaller set exists); TIMEOUT; ERROR
    encoding: str
    variables: int = 0
    clauses: int = 0
    core_clauses: int = 0       # the formula clauses the trimmed proof uses (what drup reads)
    proof_lines: int = 0        # lemmas of the trimmed proof
    cnf_sha256: str = ""
    core_sha256: str = ""       # the clauses of the CNF that drup reads (trimming keeps the used ones)
    proof_sha256: str = ""
    solve_seconds: float = 0.0   # CaDiCaL and trimming
    check_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def at_most_cnf(hs: HittingSet, k: int):
    """The CNF "every set is hit and at most k elements are chosen" (element e is variable e + 1)."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import CNF

    if hs.weights is not None and any(w != 1 for w in hs.weights):
        raise BadInput("--certify handles unit weights only")
    cnf = CNF(from_clauses=[[e + 1 for e in s] for s in hs.sets])
    card = CardEnc.atmost(lits=list(range(1, hs.n_elements + 1)), bound=k, top_id=hs.n_elements,
                          encoding=EncType.seqcounter)
    cnf.extend(card.clauses)
    cnf.nv = max(cnf.nv, card.nv, hs.n_elements)
    return cnf


def trim(formula: list[list[int]], lemmas: list[list[int]]) -> tuple[list[int], list[int]]:
    """Backward trimming (as drat-trim does): check the lemmas from the last (the empty clause) back,
    each by reverse unit propagation over the formula and the earlier lemmas, and keep only the
    clauses some needed check used. Returns the indices of the formula clauses and of the lemmas
    kept. Untrusted: it only makes the proof short enough for drup, which then checks the kept
    lemmas against the kept formula clauses (a subset of the formula, so its refutation refutes the
    formula). drup's time grows faster than linearly in the proof (N = 4: 5 s, N = 5: 95 s untrimmed)."""
    clauses = formula + lemmas
    m = len(formula)
    n_vars = max((abs(x) for c in clauses for x in c), default=0)
    watches: dict[int, list[int]] = {}
    units = [i for i, c in enumerate(clauses) if len(c) == 1]
    for i, c in enumerate(clauses):
        if len(c) >= 2:
            for lit in c[:2]:
                watches.setdefault(lit, []).append(i)
    value = [0] * (n_vars + 1)           # +1 true, -1 false, 0 open, per variable
    reason = [-1] * (n_vars + 1)
    needed = [False] * len(clauses)

    def val(lit: int) -> int:
        return value[lit] if lit > 0 else -value[-lit]

    def scan(false_lit: int, limit: int, core: bool, assign) -> int | None:
        """Visit the clauses watching `false_lit` (the needed ones, or the others): move each watch to a
        literal not false, or assign the clause's last open literal; a clause all false is returned."""
        ws = watches.get(false_lit, [])
        j = 0
        while j < len(ws):
            i = ws[j]
            c = clauses[i]
            if i >= limit or needed[i] != core:
                j += 1
                continue
            if c[0] == false_lit:           # keep the false watch at position 1
                c[0], c[1] = c[1], c[0]
            if val(c[0]) > 0:
                j += 1
                continue
            for t in range(2, len(c)):
                if val(c[t]) >= 0:
                    c[1], c[t] = c[t], c[1]
                    watches.setdefault(c[1], []).append(i)
                    ws[j] = ws[-1]
                    ws.pop()
                    break
            else:
                if not assign(c[0], i):
                    return i
                j += 1
        return None

    def check(limit: int, negated: list[int]) -> int | None:
        """Propagate the unit clauses below `limit` and the negated lemma; the conflict clause or None."""
        trail: list[int] = []

        def assign(lit: int, why: int) -> bool:
            v = val(lit)
            if v:
                return v > 0
            value[abs(lit)], reason[abs(lit)] = (1 if lit > 0 else -1), why
            trail.append(lit)
            return True

        conflict = None
        for lit in negated:
            if not assign(lit, -1):
                conflict = -2        # a tautology (x and -x): trivially RUP, needs no clause
        for i in units:
            if i >= limit or conflict is not None:
                break
            if not assign(clauses[i][0], i):
                conflict = i
        heads = [0, 0]     # trail positions scanned over the needed clauses, and over the others
        while conflict is None:
            # core first (as drat-trim): conflicts found through clauses already needed keep the core small
            mode = 0 if heads[0] < len(trail) else 1 if heads[1] < len(trail) else None
            if mode is None:
                break
            false_lit = -trail[heads[mode]]
            heads[mode] += 1
            conflict = scan(false_lit, limit, mode == 0, assign)
        if conflict is not None and conflict >= 0:
            mark(conflict)
        for lit in trail:
            value[abs(lit)], reason[abs(lit)] = 0, -1
        return conflict

    def mark(conflict: int) -> None:
        """Every clause of the implication graph behind the conflict is needed."""
        stack, seen = [conflict], {conflict}
        while stack:
            i = stack.pop()
            needed[i] = True
            for lit in clauses[i]:
                r = reason[abs(lit)]
                if r >= 0 and r not in seen:
                    seen.add(r)
                    stack.append(r)

    needed[len(clauses) - 1] = True
    for j in range(len(clauses) - 1, m - 1, -1):
        if needed[j] and check(j, [-x for x in clauses[j]]) is None:
            raise ValueError(f"lemma {j - m + 1} is not RUP: the proof is broken")
    return [i for i in range(m) if needed[i]], [j - m for j in range(m, len(clauses)) if needed[j]]


def refutation(clauses: list[list[int]], rounds: int = 3) -> tuple[list[int], list[str]] | None:
    """CaDiCaL's refutation of `clauses`, trimmed: (indices of the formula clauses it uses, its lemmas),
    or None when the clauses are satisfiable. CaDiCaL is run again on the used clauses while that
    shortens the proof (measured, enigma144 N = 6: 3244 trimmed lemmas, then 1332, then 1159)."""
    from pysat.solvers import Solver

    core, best = list(range(len(clauses))), None
    for _ in range(rounds):
        with Solver(name=SAT_SOLVER, bootstrap_with=[clauses[i] for i in core], with_proof=True) as solver:
            if solver.solve():
                return None
            lemmas = [line for line in solver.get_proof() if not line.startswith("d")]
        kept, used = trim([list(clauses[i]) for i in core], [_ints(x) for x in lemmas])
        if best is not None and len(used) >= len(best[1]):
            break
        core, best = [core[i] for i in kept], ([core[i] for i in kept], [lemmas[j] for j in used])
    return best


def _refute_and_check(hs: HittingSet, k: int) -> Certificate:
    import drup
    from pysat.formula import CNF

    cnf = at_most_cnf(hs, k - 1)
    dimacs = cnf.to_dimacs()
    cert = Certificate(k, "", "seqcounter", cnf.nv, len(cnf.clauses),
                       cnf_sha256=hashlib.sha256(dimacs.encode()).hexdigest())
    t0 = time.perf_counter()
    refuted = refutation([list(c) for c in cnf.clauses])
    cert.solve_seconds = time.perf_counter() - t0
    if refuted is None:
        cert.verdict = "SATISFIABLE"
        return cert
    used, lemmas = refuted
    core = CNF(from_clauses=[cnf.clauses[i] for i in used]).to_dimacs()   # a subset of the CNF above
    text = "\n".join(lemmas) + "\n"
    cert.core_clauses, cert.proof_lines = len(used), len(lemmas)
    cert.core_sha256 = hashlib.sha256(core.encode()).hexdigest()
    cert.proof_sha256 = hashlib.sha256(text.encode()).hexdigest()
    t1 = time.perf_counter()
    outcome = drup.check_proof_from_strings(core, text).outcome
    cert.check_seconds = time.perf_counter() - t1
    cert.verdict = "VALID" if outcome == drup.Outcome.VALID else "INVALID"
    return cert


def _ints(line: str) -> list[int]:
    return [int(x) for x in line.split()[:-1]]        # DIMACS: literals, then 0


def _child(conn, hs: HittingSet, k: int) -> None:
    conn.send(_refute_and_check(hs, k))


def certify(hs: HittingSet, k: int, time_limit: float | None) -> Certificate:
    """Refute "a hitting set of k-1 elements" and check the proof, in a child process so that the time
    limit holds (neither CaDiCaL in python-sat nor drup can be interrupted)."""
    if k <= 0:
        return Certificate(k, "VALID", "trivial")     # no set needs fewer than 0 elements
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(theirs, hs, k), daemon=True)
    child.start()
    theirs.close()
    try:
        if ours.poll(time_limit):
            return ours.recv()
        return Certificate(k, "TIMEOUT", "seqcounter")
    except EOFError:            # the child died (say, out of memory)
        return Certificate(k, "ERROR", "seqcounter")
    finally:
        if child.is_alive():
            child.kill()
        child.join(5)
