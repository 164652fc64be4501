"""The recursion over rectangles for A146971: each lemma it rests on, checked on every tight set of
small rectangles by brute force; the recursion against brute force, against a generic evaluation
that finds neighbours by geometric search, against its own modular evaluation, against the
transfer-matrix counter on rectangles, and against the published terms."""
from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys

import pytest
from percolation_small import (
    bbox,
    close_rect,
    closure,
    count_uncovered,
    distance,
    generic_t,
    generic_u,
    lossless,
    rect_cells,
    semi,
    splits,
    stars,
    subrects,
    tight_sets,
)
from test_percolation import A146971

from workbench.puzzles.percolation import residues
from workbench.puzzles.percolation.recursion import tables, terms

SMALL = [(h, w) for h in range(1, 7) for w in range(h, 8) if (h + w) % 2 == 0 and h * w <= 30]


def components(cells: set) -> list[set]:
    """The pieces of a closure: cells joined through edge-neighbours."""
    todo, pieces = set(cells), []
    while todo:
        stack, piece = [todo.pop()], set()
        while stack:
            r, c = stack.pop()
            piece.add((r, c))
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nb in todo:
                    todo.remove(nb)
                    stack.append(nb)
        pieces.append(piece)
    return pieces


@pytest.mark.parametrize("h,w", SMALL)
def test_lemma1_tight_sets_never_lose_half_perimeter(h, w):
    """Every subset X of a tight set closes to rectangles at distance >= 3 from each other whose
    half-perimeters sum to exactly 2|X|: no merge, in any order, loses anything."""
    for m in tight_sets(h, w):
        for k in range(1, len(m) + 1):
            for x in itertools.combinations(sorted(m), k):
                pieces = components(closure(h, w, x))
                rects = [close_rect(p) for p in pieces]
                assert all(r is not None and rect_cells(r) == p for r, p in zip(rects, pieces)), (m, x)
                assert sum(semi(r) for r in rects) == 2 * k, (m, x)
                assert all(distance(a, b) >= 3 for a, b in itertools.combinations(rects, 2)), (m, x)


def lemma2_kind(a, b) -> str | None:
    """The lemma's three lossless shapes, read off the gaps between the rectangles' row and
    column ranges (gap = empty lines between, or minus the overlap)."""
    def gap(a0, al, b0, bl):
        return max(b0 - (a0 + al), a0 - (b0 + bl), -(min(a0 + al, b0 + bl) - max(a0, b0)))
    rows, cols = gap(a[0], a[2], b[0], b[2]), gap(a[1], a[3], b[1], b[3])
    return {(0, 0): "diagonal", (1, -1): "one empty row", (-1, 1): "one empty column"}.get((rows, cols))


def test_lemma2_lossless_pairs_are_the_three_shapes():
    """Every pair of disjoint rectangles in a 6 x 6 box at distance <= 2: the closure of their union
    is its bounding box (the simulation), it loses no half-perimeter exactly for the lemma's three
    shapes, and then each rectangle has exactly one cell within distance 2 of the other."""
    rects = [(t, l, hh, ww) for t in range(6) for l in range(6) for hh in range(1, 7 - t) for ww in range(1, 7 - l)]
    seen = set()
    for a, b in itertools.combinations(rects, 2):
        if rect_cells(a) & rect_cells(b) or distance(a, b) > 2:
            continue
        assert close_rect(rect_cells(a) | rect_cells(b)) == bbox([a, b])
        kind = lemma2_kind(a, b)
        assert (semi(bbox([a, b])) == semi(a) + semi(b)) == (kind is not None), (a, b)
        if kind:
            seen.add(kind)
            for p, q in ((a, b), (b, a)):
                assert sum(distance((*c, 1, 1), q) <= 2 for c in rect_cells(p)) == 1, (p, q)
    assert seen == {"diagonal", "one empty row", "one empty column"}


@pytest.mark.parametrize("h,w", SMALL)
def test_lemma3_splits_never_cross_and_exist(h, w):
    """Every tight set of more than one cell has a split; any two splits nest (one of the four
    intersections of their parts is empty); each split's rectangles are a lossless pair."""
    for m in tight_sets(h, w):
        found = splits(m)
        assert bool(found) == (len(m) > 1), m
        for x, y in found:
            assert lemma2_kind(close_rect(x), close_rect(y)) is not None, (m, x)
        for (x1, y1), (x2, y2) in itertools.combinations(found, 2):
            assert not (x1 & x2 and x1 & y2 and y1 & x2 and y1 & y2), (m, x1, x2)


@pytest.mark.parametrize("h,w", [(h, w) for h in range(1, 6) for w in range(h, 7) if (h + w) % 2 == 0])
def test_lemma4_stars_extend_each_direction_at_most_once(h, w):
    """Centre D, lossless disjoint neighbours Q_j: the whole keeps its half-perimeter exactly when
    no direction beyond D is extended by two neighbours (found by search over all neighbour sets)."""
    whole = (0, 0, h, w)

    def extends(q, d):
        return {"up": q[0] < d[0], "down": q[0] + q[2] > d[0] + d[2],
                "left": q[1] < d[1], "right": q[1] + q[3] > d[1] + d[3]}

    found = {(d, tuple(q for q, _ in qs)) for d, qs in stars(h, w)}
    for d in subrects(h, w):
        cands = [q for q in subrects(h, w) if lossless(q, d)]
        for k in range(0, 5):
            for qs in itertools.combinations(cands, k):
                if any(rect_cells(a) & rect_cells(b) for a, b in itertools.combinations(qs, 2)):
                    continue
                if bbox([d, *qs]) != whole:
                    continue
                once = all(sum(extends(q, d)[side] for q in qs) <= 1 for side in ("up", "down", "left", "right"))
                tight = semi(whole) == semi(d) + sum(semi(q) for q in qs)
                assert once == tight, (d, qs)
                assert tight == ((d, qs) in found), (d, qs)


@pytest.mark.parametrize("h,w", SMALL)
def test_generic_recursion_equals_brute_force(h, w):
    """T by the generic evaluation (every rectangle tried as a neighbour) equals the number of tight
    sets, and U (no split covers the cell) on every boundary cell equals its brute-force count."""
    assert generic_t(h, w) == generic_t(w, h) == len(tight_sets(h, w))
    if h * w <= 20:
        for cell in rect_cells((0, 0, h, w)):
            if cell[0] in (0, h - 1) or cell[1] in (0, w - 1):
                assert generic_u(h, w, cell) == count_uncovered(h, w, cell), cell


def test_closed_form_equals_generic_evaluation():
    """The closed-form recursion (neighbours by their classified shapes, sums as convolutions)
    against the generic one, T, the corner refinement and the side sums, all rectangles to 6 x 6 (7
    costs 15 s more; T beyond is held against the transfer matrix below, an independent count)."""
    n = 6
    t = tables(n)
    for h in range(1, n + 1):
        for w in range(1, n + 1):
            assert t.T[h, w] == generic_t(h, w), (h, w)
            assert t.Uc[h, w] == generic_u(h, w, (h - 1, 0)), (h, w)
            assert t.SS[h, w] == sum(generic_u(h, w, (h - 1, k)) for k in range(w)), (h, w)


def test_recursion_reproduces_published_terms():
    assert terms(10) == [A146971[n] for n in range(1, 11)]


def test_exact_and_modular_evaluations_agree():
    """Big integers against residues modulo primes below 2^26 joined by the CRT, every term to
    a(60), with its own primes (14 lanes, padded to 16) and with those for a(500) in batches."""
    exact = terms(60)
    assert residues.terms(60) == exact and exact[-1] > 2 ** 256
    kept = residues.Residues(500)
    assert kept.terms(40, threads=2) == exact[:40]
    assert kept.terms(45, first=45) == [exact[44]]       # a table's next row: its own term only
    assert residues.terms(1) == [1] and residues.terms(3) == exact[:3]


def test_residue_tables_equal_the_exact_ones_modulo_each_prime():
    """Every entry of T, Uc and SS (not only the diagonal), lane by lane, and one prime alone."""
    primes = residues.primes_for(30)[:11] + residues.check_primes(2, 30)
    exact, lanes = tables(30), tables(30, primes)
    for name in ("T", "Uc", "SS"):
        e, r = getattr(exact, name), getattr(lanes, name)
        assert r.shape == (*e.shape, len(primes))
        for j, p in enumerate(primes):
            assert all(int(e[h, w]) % p == int(r[h, w, j]) for h in range(1, 31) for w in range(1, 31)), (name, p)
    one = tables(30, primes[0]).T
    assert all(int(exact.T[h, w]) % primes[0] == int(one[h, w]) for h in range(1, 31) for w in range(1, 31))


def test_residue_primes_cover_the_bound():
    """The CRT is exact only if the primes' product exceeds a bound on a(n); the check primes are others."""
    for n in (1, 2, 10, 100, 500):
        primes = residues.primes_for(n)
        assert math.prod(primes) > math.comb(n * n, n) and all(p < 2 ** 26 for p in primes)
        assert math.prod(primes[:-1]) <= math.comb(n * n, n)
    assert not set(residues.check_primes(8, 500)) & set(residues.primes_for(500))
    with pytest.raises(ValueError):
        tables(5, 2 ** 26 + 15)


def test_cli_residue_count_equals_the_exact_one():
    out = [subprocess.run([sys.executable, "-m", "workbench", "count", "percolation", "--n", "45", "--json", *extra],
                          capture_output=True, text=True, timeout=300, check=True).stdout
           for extra in ([], ["--formulation", "residues"])]
    exact, by_residues = (json.loads(o) for o in out)
    assert by_residues["count"] == exact["count"] == terms(45)[-1] and by_residues["status"] == "complete"
    assert "Chinese remainder" in by_residues["message"]


def test_cli_json_count_is_an_exact_integer():
    out = subprocess.run([sys.executable, "-m", "workbench", "count", "percolation", "--n", "40", "--json"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    record = json.loads(out)
    assert isinstance(record["count"], int) and record["count"] == terms(40)[-1]
    assert record["status"] == "complete" and record["count"] > 2 ** 64


def test_puzzle_knows_the_transfer_limit_without_loading_numba():
    from workbench.puzzles.percolation import puzzle, transfer

    assert puzzle.TRANSFER_N_MAX == transfer.N_MAX
    code = "import sys, workbench.puzzles.percolation; print('numba' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


@pytest.mark.parametrize("args,message", [
    (["--n", "0"], "between 1 and 500"), (["--n", "501"], "between 1 and 500"),
    (["--n", "2.5"], "must be an integer"), (["--n", "13", "--formulation", "transfer"], "between 1 and 12"),
    (["--n", "5", "--formulation", "rows"], "recursion, residues, transfer")])
def test_cli_bad_n_one_line_exit_2(args, message):
    r = subprocess.run([sys.executable, "-m", "workbench", "count", "percolation", *args],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_transfer_matrix_on_rectangles_equals_recursion():
    """The row-by-row transfer matrix, run on h x w rectangles (h rows), against the recursion:
    every rectangle with h <= 5 rows up to width 11 (9 for h >= 4), the strips 1 x 25 and 2 x 18,
    the strips 19 and 21 x 3, 16 x 4 and 13 x 5 run with their short side as the row, and squares
    up to 7 x 7 (8 x 8 is test_tasks' kill and resume, 9 a bench case: 154 s). Wide rows are slow for the
    transfer matrix (its states are whole closures and it tries every row pattern: 3 x 19 takes
    53 s), so the longer strips stay out of CI."""
    from workbench.puzzles.percolation.transfer import count_rectangle

    t = tables(25)
    for h in range(1, 6):
        for w in range(1, 12 if h <= 3 else 10):
            assert count_rectangle(h, w, threads=1) == t.T[h, w], (h, w)
    for h, w in ((1, 25), (2, 18), (19, 3), (21, 3), (16, 4), (13, 5)):    # long strips, rows across
        assert count_rectangle(h, w) == t.T[h, w], (h, w)
    for n in range(6, 8):
        assert count_rectangle(n, n) == t.T[n, n] == A146971[n]
