"""The heuristics that give the exact search its starting bound, and the records past Chaffin's
table: restricted runs of the one kernel (dfs.search), the beam, idealised ladders, polishing."""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from ...search.deadline import NEVER, Deadline
from .beam import beam
from .dfs import search
from .kernel import Placements
from .model import Placement


def ladder(n: int, margin: int, group: int, rows: int, blocks: list[tuple[int, bool]],
           above: int) -> dict[int, Placement]:
    """The sizes above `above` laid out as a ladder. Groups of `group` consecutive sizes share a
    top-left corner; a column holds `rows` groups, `group` apart downwards; block b holds
    blocks[b] = (columns, up) columns (the last entry repeats), each far enough right that its
    largest square ends on the largest square's right side; each block starts right of the one
    before, on the diagonal, or at the top edge if `up`. Why: the ladder solutions found for n = 55,
    56, 58 and 59 (triples, 2 x 2 groups a block) have the plain shape [(2, False)]; n = 57's 1250
    from the beam has blocks of 3 x 3 pairs with one column of pairs up at the top edge, and that
    variant gives n = 54 four matches below its published bound."""
    fixed: dict[int, Placement] = {}
    x, size = margin, n
    for b in itertools.count():
        cols, up = blocks[min(b, len(blocks) - 1)]
        y = margin if up else x
        for j in range(cols * rows * group):
            if size <= above:
                return fixed
            column, row = divmod(j // group, rows)
            fixed[size] = Placement(size, x + column * rows * group, y + row * group)
            size -= 1
        x += cols * rows * group
    return fixed


LADDER_GROUPS = range(1, 7)  # sizes sharing a corner, in the ladders tried
LADDER_GRID = range(1, 4)    # groups a column and columns a block, in the ladders tried
LADDER_TAIL = 8              # sizes up to this searched exactly below a ladder
LADDER_UPS = 6               # blocks that may be one column up at the top edge, in the ladders tried
BEAM_WIDTHS = (1000, 4000, 16000, 64000, 256000)  # boards a beam keeps, in the beams tried
POLISH_WINDOW = 9            # sizes set free at a time (with 1..3); larger windows rarely finish
POLISH_TRY = 2.0             # seconds per neighbourhood
POLISH_PATIENCE = 40         # neighbourhoods in a row without a gain before polishing stops


def polish(n: int, margin: int, placements: list[Placement], best: int, deadline: Deadline,
           seed: int = 0) -> tuple[int, list[Placement]]:
    """Large-neighbourhood search: hold every square of a solution but a few sizes (a run of
    consecutive sizes or a random set, always with the three smallest) and search those exactly
    for a cheaper solution. Why: the heuristics fix the large squares well but often leave the
    middle and small ones a few matches short of the best fit (n = 36: 634 became 631 in 2 s)."""
    rng = random.Random(seed)
    held = {p.size: p for p in placements}
    window = min(POLISH_WINDOW, n - 2)
    fails = 0
    while fails < POLISH_PATIENCE and n > 4 and not deadline.passed():
        if rng.random() < 0.5:
            low = rng.randint(1, n - window)
            free = set(range(low, low + window))
        else:
            free = set(rng.sample(range(2, n), window))
        free |= {1, 2, 3}
        fixed = {size: p for size, p in held.items() if size not in free}
        out = search(Placements.build(n, margin, fixed=fixed), best, deadline=deadline.within(POLISH_TRY), prefixes=2)
        if out.best is not None and out.witness:
            best, held, fails = out.best, {p.size: p for p in out.witness}, 0
        else:
            fails += 1
    return best, sorted(held.values(), key=lambda p: -p.size)


@dataclass(frozen=True)
class Stage:
    """One heuristic stage of upper_bound: `run` names the _Heuristics method that tries it, with
    `share` of the time left when it starts (a stage that finishes early leaves its time to the
    next); `above` is the size threshold of its restriction, `spacing` its lattice, `sides` its
    rule that a square of size s adds at most sides * s matches (4: no rule)."""

    name: str
    share: float
    run: str
    above: int = 0
    spacing: int = 0
    sides: int = 4


STAGES = (
    # sizes above a threshold only on the main diagonal (thresholds raised 4 at a time up to
    # `diagonal_above` while the searches finish), under the 2s rule (all known optima obey it):
    # a good bound within seconds
    Stage("diagonal, 2s", 0.1, "diagonal", sides=2),
    # every idealised ladder (`ladder`) for the sizes above LADDER_TAIL, the rest searched exactly
    # (a few seconds; it beats the published bound of n = 56 by one match), then the same with some
    # of the first LADDER_UPS blocks one column up at the top edge (n = 54: 1153, the bound 1157)
    Stage("ladder", 0.1, "ladders"),
    # Chaffin's greedy rule breadth first (beam.py), widths BEAM_WIDTHS in turn while the next one
    # fits in its share; the only stage reaching n = 57's 1250
    Stage("beam", 0.25, "beams"),
    # Chaffin's greedy search (only the placements adding the fewest matches, ties all tried) with
    # the large sizes on a lattice of spacing 3: ladder-type solutions stagger groups of three
    # squares 3 apart. Finds in seconds what the plain greedy search needs many minutes for
    # (n = 44: 843 in 6 s against 743 s)
    Stage("lattice 3, greedy", 0.3, "greedy", above=20, spacing=3),
    # the large sizes in runs sharing corners, each run led on the lattice (Placements.build), under
    # the 2s rule; the only stage reaching the ladder optima of n = 36..38 (629 and 659 with spacing
    # 2 within 40 s, 684 with spacing 3 within 10 s), which Chaffin's heuristics missed too
    Stage("runs, lattice 2, 2s", 0.3, "runs", above=16, spacing=2, sides=2),
    Stage("runs, lattice 3, 2s", 0.15, "runs", above=16, spacing=3, sides=2),
    # the greedy lattice with spacing 2 (staggered pairs)
    Stage("lattice 2, greedy", 0.5, "greedy", above=20, spacing=2),
    # the diagonal thresholds without the 2s rule
    Stage("diagonal", 0.25, "diagonal"),
    # sizes above 10 on the spacing-2 lattice, under the 2s rule
    Stage("lattice 2, 2s", 0.33, "lattice", above=10, spacing=2, sides=2),
    # the best solution so far, improved a few sizes at a time (polish)
    Stage("polish", 0.25, "polish"),
    # the 2s rule alone (reaches several values otherwise found only by the exact search); when it
    # finishes, nothing after it can do better
    Stage("2s", 0.5, "plain", sides=2),
    # Chaffin's greedy search, unrestricted, to the deadline
    Stage("greedy", 1.0, "greedy"),
)
HASTY = ("diagonal, 2s", "beam")             # the stages run before an exact search (upper_bound)


class _Heuristics:
    """The state of upper_bound: the best solution so far, and one method per kind of stage, each
    returning True when the stages should stop (the bound is proven by an exhausted search)."""

    def __init__(self, n: int, margin: int, diagonal_above: int, deadline: Deadline, patient: bool = True) -> None:
        self.n, self.margin, self.deadline, self.patient = n, margin, deadline, patient
        self.best = 2 * n * (n + 1) + 1       # all squares apart, plus one
        self.found: list[Placement] = []
        self.how = ""
        self.thresholds = list(range(4, min(n, diagonal_above), 4)) + [min(n, diagonal_above)]
        self.unrestricted = Placements.build(n, margin)

    def record(self, cost: int | None, placements: list[Placement] | None, label: str) -> None:
        if cost is not None and placements and cost < self.best:
            self.best, self.found = cost, placements
            self.how = f"{label}, at {self.deadline.elapsed():.0f} s"

    def search(self, pl: Placements, label: str, until: Deadline, **kw: object) -> bool:
        out = search(pl, self.best, deadline=until, **kw)  # type: ignore[arg-type]
        self.record(out.best, out.witness, label)
        return out.complete

    def diagonal(self, stage: Stage, until: Deadline) -> bool:
        for t in self.thresholds:
            label = f"diagonal above {t}" + (", 2s" if stage.sides == 2 else "")
            if not self.search(Placements.build(self.n, self.margin, diagonal_above=t), label, until,
                               sides=stage.sides):
                break
        return False

    def ladders(self, stage: Stage, until: Deadline) -> bool:
        seen = set()
        for ups, group, rows, cols in itertools.product(range(1 << LADDER_UPS), LADDER_GROUPS,
                                                        LADDER_GRID, LADDER_GRID):
            if until.passed():
                break
            if group * rows * cols > self.n:
                continue
            up = [b for b in range(LADDER_UPS) if ups >> b & 1]   # blocks that are one column up
            blocks = [(1, True) if b in up else (cols, False) for b in range(LADDER_UPS + 1)]
            fixed = ladder(self.n, self.margin, group, rows, blocks, LADDER_TAIL)
            layout = frozenset(fixed.values())    # (an up block past the tail changes nothing)
            if layout not in seen:
                seen.add(layout)
                label = f"ladder of {group}s, {rows} x {cols} a block" + (f", up at {up}" if up else "")
                self.search(Placements.build(self.n, self.margin, fixed=fixed), label, until)
        return False

    def beams(self, stage: Stage, until: Deadline) -> bool:
        took = 0.0
        for width in BEAM_WIDTHS if self.patient else BEAM_WIDTHS[:1]:   # each 4 times the one before
            if until.passed() or until.left() < 4 * took:
                break
            began = Deadline()
            out = beam(self.unrestricted, width, self.best, until)
            self.record(out.best, out.witness, f"beam of {width}")
            if out.complete:                  # every greedy choice followed: wider adds nothing
                break
            took = began.elapsed()
        return False

    def greedy(self, stage: Stage, until: Deadline) -> bool:
        if not stage.spacing:
            self.search(self.unrestricted, stage.name, until, greedy_upto=self.n)
            return True
        pl = Placements.build(self.n, self.margin, lattice=(stage.spacing, stage.above))
        self.search(pl, f"lattice {stage.spacing} above {stage.above}, greedy", until, greedy_upto=self.n)
        return False

    def runs(self, stage: Stage, until: Deadline) -> bool:
        pl = Placements.build(self.n, self.margin, lattice=(stage.spacing, stage.above), runs_above=stage.above)
        self.search(pl, f"runs above {stage.above}, lattice {stage.spacing}, 2s", until, sides=stage.sides)
        return False

    def lattice(self, stage: Stage, until: Deadline) -> bool:
        pl = Placements.build(self.n, self.margin, lattice=(stage.spacing, stage.above))
        self.search(pl, f"lattice {stage.spacing} above {stage.above}, 2s", until, sides=stage.sides)
        return False

    def polish(self, stage: Stage, until: Deadline) -> bool:
        if self.found:
            self.record(*polish(self.n, self.margin, self.found, self.best, until), f"{self.how}, polished")
        return False

    def plain(self, stage: Stage, until: Deadline) -> bool:
        return self.search(self.unrestricted, stage.name, until, sides=stage.sides) or self.deadline.passed()


def upper_bound(n: int, margin: int = 0, deadline: Deadline = NEVER, diagonal_above: int = 20,
                patient: bool = True) -> tuple[int, list[Placement], str]:
    """The STAGES in turn, each searching under the best bound so far with its share of the time
    left, until one proves its bound or the last reaches the deadline.
    Not `patient` (before an exact search): only the HASTY stages, the beam at its narrowest width.
    Why: together they take 0.1-0.5 s for n = 20..35 and reach the optimum at n = 29..32 and 35,
    where the diagonal stage alone is 3 to 6 matches off, which costs the exact search more than
    the bound it then finds; the ladder stage (3.4 s at n = 28) costs more than the exact search
    below n = 26.
    Returns (cost, placements, which heuristic found it and when)."""
    h = _Heuristics(n, margin, diagonal_above, deadline, patient)
    for stage in STAGES if patient else [s for s in STAGES if s.name in HASTY]:
        if getattr(h, stage.run)(stage, deadline.share(stage.share)):
            break
    return h.best, h.found, h.how
