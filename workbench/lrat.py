"""A small LRAT proof checker (the RUP part of LRAT): the trusted step of `--certify` for proofs
too long for `drup`.

It trusts neither the SAT solver nor whatever wrote the hints. Each lemma names the
clauses (by id) that, in that order, become unit or false once the lemma's literals are set false;
the checker propagates exactly those and accepts the lemma only on a conflict. A lemma accepted so
follows from the clauses before it, so deriving the empty clause refutes the formula. Time is linear
in the proof's size (drup's grows about quadratically: it searches for the units itself).
A deletion line ("<id> d <ids> 0") drops clauses: the checker forgets them, so a proof that cites
one afterwards fails, and its memory holds only the clauses still to be cited. The proof is read a
line at a time (a file, say). RAT steps (negative hints) are not accepted: CaDiCaL's proofs need none.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass
class LratVerdict:
    valid: bool
    message: str
    lemmas: int = 0


def parse_dimacs(text: str) -> list[list[int]]:
    """The clauses of a DIMACS CNF; the header's clause count must match."""
    clauses: list[list[int]] = []
    declared, current = -1, list[int]()
    for line in text.splitlines():
        words = line.split()
        if not words or words[0] == "c":
            continue
        if words[0] == "p":
            declared = int(words[3])
            continue
        for word in words:
            lit = int(word)
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    if current or declared != len(clauses):
        raise ValueError(f"malformed DIMACS: header says {declared} clauses, read {len(clauses)}")
    return clauses


def check(formula: list[list[int]], proof: str | Iterable[str], ids: Iterable[int] | None = None) -> LratVerdict:
    """VALID (`valid` True) when the proof's lemmas, each checked against its hints, end in the empty
    clause. The formula's clauses have ids 1..len(formula), in order, or `ids` (distinct) when given;
    a lemma's id must be new and above the lemma's before it. `proof`: the text or its lines."""
    clauses: dict[int, list[int]] = dict(zip(range(1, len(formula) + 1) if ids is None else ids, formula, strict=True))
    if len(clauses) != len(formula):
        return LratVerdict(False, "two formula clauses share an id")
    if any(not c for c in formula):
        return LratVerdict(True, "the formula holds the empty clause")
    taken, last, count = set(clauses), 0, 0
    for number, line in enumerate(proof.splitlines() if isinstance(proof, str) else proof, 1):
        texts = line.split()
        if len(texts) > 1 and texts[1] == "d":
            gone = [int(w) for w in texts[2:]]
            if not gone or gone[-1] != 0 or any(clauses.pop(i, None) is None for i in gone[:-1]):
                return LratVerdict(False, f"line {number}: a deletion names an unknown id or lacks its 0", count)
            continue
        words = [int(w) for w in texts]
        if not words:
            continue
        ident, rest = words[0], words[1:]
        if ident <= last or ident in taken or 0 not in rest:
            return LratVerdict(False, f"line {number}: id {ident} not new and increasing, or no 0 after the literals")
        cut = rest.index(0)
        lits, hints = rest[:cut], rest[cut + 1:]
        if not hints or hints[-1] != 0:
            return LratVerdict(False, f"line {number}: hints must end with 0")
        if not _rup(lits, hints[:-1], clauses):
            return LratVerdict(False, f"line {number}: lemma {ident} does not follow from its hints", count)
        clauses[ident], last, count = lits, ident, count + 1
        if not lits:
            return LratVerdict(True, f"empty clause derived at lemma {ident}", count)
    return LratVerdict(False, "the proof never derives the empty clause", count)


def _rup(lits: list[int], hints: list[int], clauses: dict[int, list[int]]) -> bool:
    false = set(lits)                      # the literals set false: the lemma's own
    if any(-lit in false for lit in lits):
        return True                        # a tautology follows from anything
    for h in hints:
        clause = clauses.get(h) if h > 0 else None
        if clause is None:
            return False                   # an unknown id, or a RAT hint
        open_lits = {lit for lit in clause if lit not in false}
        if any(-lit in false for lit in open_lits):
            return False                   # a hint already satisfied: not a unit step
        if not open_lits:
            return True                    # every literal false: the conflict
        if len(open_lits) > 1:
            return False                   # not unit: the hint does not propagate
        false.add(-open_lits.pop())        # the unit literal is true: its negation is false
    return False
