"""Obviously-correct brute force on small h x w rectangles, for the tests only: the 2-neighbour
closure on bitboards, every tight set by plain enumeration of subsets, and the splits of a set by
trying every bipartition. Nothing here uses the lemmas that the recursion is built on."""
from __future__ import annotations

import itertools
from functools import cache

Cell = tuple[int, int]
Rect = tuple[int, int, int, int]          # top, left, height, width


def _closure_bits(h: int, w: int, x: int) -> int:
    """The filling process on a bitboard (cell (r, c) is bit r * w + c), to a fixpoint: a cell
    fills when at least two of its four neighbours are filled."""
    full = (1 << h * w) - 1
    first = sum(1 << r * w for r in range(h))            # column 0
    last = first << (w - 1)                               # column w - 1
    while True:
        up, down = (x << w) & full, x >> w                # neighbour above / below is filled
        left, right = (x << 1) & ~first & full, (x >> 1) & ~last
        grown = x | (up & down) | ((up | down) & (left | right)) | (left & right)
        if grown == x:
            return x
        x = grown


def closure(h: int, w: int, cells) -> set[Cell]:
    """The closure of `cells` inside the h x w rectangle."""
    x = _closure_bits(h, w, sum(1 << r * w + c for r, c in cells))
    return {(i // w, i % w) for i in range(h * w) if x >> i & 1}


def rect_cells(rect: Rect) -> set[Cell]:
    t, l, h, w = rect
    return {(r, c) for r in range(t, t + h) for c in range(l, l + w)}


def as_rect(cells: set[Cell]) -> Rect | None:
    """The rectangle that `cells` fill exactly, or None."""
    if not cells:
        return None
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    rect = (min(rows), min(cols), max(rows) - min(rows) + 1, max(cols) - min(cols) + 1)
    return rect if len(cells) == rect[2] * rect[3] else None


def close_rect(cells) -> Rect | None:
    """The rectangle the cells close to (the closure never leaves the bounding box), or None."""
    cells = list(cells)
    t, l = min(r for r, _ in cells), min(c for _, c in cells)
    h, w = max(r for r, _ in cells) - t + 1, max(c for _, c in cells) - l + 1
    return as_rect({(r + t, c + l) for r, c in closure(h, w, [(r - t, c - l) for r, c in cells])})


@cache
def tight_sets(h: int, w: int) -> tuple[frozenset[Cell], ...]:
    """Every set of (h + w) / 2 cells whose closure is the whole h x w rectangle."""
    if (h + w) % 2:
        return ()
    full = (1 << h * w) - 1
    return tuple(frozenset(divmod(i, w) for i in s) for s in itertools.combinations(range(h * w), (h + w) // 2)
                 if _closure_bits(h, w, sum(1 << i for i in s)) == full)


def splits(m: frozenset[Cell]) -> list[tuple[frozenset[Cell], frozenset[Cell]]]:
    """Every bipartition {X, M - X} of m whose two parts each close to a single rectangle."""
    cells = sorted(m)
    first, rest = cells[0], cells[1:]
    found = []
    for k in range(len(rest)):
        for extra in itertools.combinations(rest, k):
            x = frozenset((first, *extra))
            y = m - x
            if close_rect(x) and close_rect(y):
                found.append((x, y))
    return found


def covers(split, cell: Cell) -> bool:
    return any(cell in rect_cells(close_rect(part)) for part in split)


def count_uncovered(h: int, w: int, cell: Cell) -> int:
    """U(h, w, cell): the tight sets of which no split covers `cell` (see docs/notes/percolation.md)."""
    return sum(all(not covers(s, cell) for s in splits(m)) for m in tight_sets(h, w))


# -- the recursion evaluated generically: every rectangle tried as a neighbour -----------------
def semi(rect: Rect) -> int:
    return rect[2] + rect[3]


def distance(a: Rect, b: Rect) -> int:
    """The l1 distance between the nearest cells of two rectangles."""
    dr = max(b[0] - (a[0] + a[2] - 1), a[0] - (b[0] + b[2] - 1), 0)
    dc = max(b[1] - (a[1] + a[3] - 1), a[1] - (b[1] + b[3] - 1), 0)
    return dr + dc


def bbox(rects) -> Rect:
    t = min(r[0] for r in rects)
    l = min(r[1] for r in rects)
    return (t, l, max(r[0] + r[2] for r in rects) - t, max(r[1] + r[3] for r in rects) - l)


def lossless(a: Rect, b: Rect) -> bool:
    """Disjoint, within distance 2 (so they close to their bounding box), no half-perimeter lost."""
    return 0 < distance(a, b) <= 2 and semi(bbox([a, b])) == semi(a) + semi(b)


def contact(q: Rect, d: Rect) -> Cell:
    """The one cell of q within distance 2 of d."""
    (cell,) = [c for c in rect_cells(q) if distance((*c, 1, 1), d) <= 2]
    return cell


def subrects(h: int, w: int):
    for t in range(h):
        for l in range(w):
            for hh in range(1, h - t + 1):
                for ww in range(1, w - l + 1):
                    if (hh + ww) % 2 == 0:
                        yield (t, l, hh, ww)


@cache
def stars(h: int, w: int) -> tuple:
    """Every centre D with neighbours Q_j, each lossless with D, pairwise disjoint, that together
    span the h x w rectangle with no half-perimeter lost: (D, ((Q, contact cell of Q), ...))."""
    whole = (0, 0, h, w)
    found = []
    for d in subrects(h, w):
        budget = h + w - semi(d)
        cands = [q for q in subrects(h, w) if lossless(q, d) and semi(q) <= budget]

        def extend(start: int, chosen: list, left: int) -> None:
            if left == 0:
                if bbox([d, *chosen]) == whole:
                    found.append((d, tuple((q, contact(q, d)) for q in chosen)))
                return
            for i in range(start, len(cands)):
                q = cands[i]
                if semi(q) <= left and all(not rect_cells(q) & rect_cells(p) for p in chosen):
                    extend(i + 1, chosen + [q], left - semi(q))

        extend(0, [], budget)
    return tuple(found)


def local(cell: Cell, rect: Rect) -> tuple[int, int, Cell]:
    return rect[2], rect[3], (cell[0] - rect[0], cell[1] - rect[1])


@cache
def generic_t(h: int, w: int) -> int:
    """T(h, w) by  0 = sum over (set, splits S) of (-1)^|S| (nodes - edges)."""
    if (h + w) % 2:
        return 0
    if h == w == 1:
        return 1
    total = 0
    for d, qs in stars(h, w):
        if qs:
            total -= generic_t(d[2], d[3]) * branch_product(d, qs)
    pairs = 0                         # each edge {A, B} is seen as (D=A, Q=B) and as (D=B, Q=A)
    for d, qs in stars(h, w):
        if len(qs) == 1:
            (q, cq), = qs
            pairs += generic_u(*local(cq, q)) * generic_u(*local(contact(d, q), d))
    return total - pairs // 2


def branch_product(d: Rect, qs) -> int:
    p = 1
    for q, cq in qs:
        p *= -generic_u(*local(cq, q))
    return p


@cache
def generic_u(h: int, w: int, cell: Cell) -> int:
    """U(h, w, cell) by rooting each configuration at the node holding the cell, or else at the
    node towards which every split's covering side points."""
    if (h + w) % 2:
        return 0
    total = 0
    for d, qs in stars(h, w):
        inside = cell in rect_cells(d)
        outside = (not inside and all(cell not in rect_cells(q) for q, _ in qs)
                   and all(cell in rect_cells(bbox([d, *(p for p, _ in qs if p != q)])) for q, _ in qs))
        if inside or outside:
            total += generic_t(d[2], d[3]) * branch_product(d, qs)
    return total
