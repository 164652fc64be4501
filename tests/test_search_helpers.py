"""The helpers every native search shares (workbench/search): bits, symmetries, deadline, outcome."""
from __future__ import annotations

import itertools
import math
import random

import numpy as np

from workbench.search import compiled, symmetry
from workbench.search.bits import low_mask, lowest_bit, popcount, reverse
from workbench.search.compiled import clock
from workbench.search.deadline import Deadline
from workbench.search.outcome import Outcome
from workbench.search.symmetry import SYMMETRIES, at_origin, canonical, transform

POINTS = [(dr, dc) for dr in range(-3, 4) for dc in range(-3, 4)]


def test_popcount_agrees_with_python_on_random_words():
    rng = random.Random(16)
    for _ in range(2000):
        v = rng.getrandbits(rng.choice([8, 31, 63, 64]))
        assert popcount(np.uint64(v)) == v.bit_count()
        if v < 1 << 63:
            assert popcount(np.int64(v)) == v.bit_count() == popcount(v)


def test_lowest_bit_agrees_with_python_on_random_words():
    rng = random.Random(17)
    for _ in range(2000):
        v = rng.getrandbits(rng.choice([8, 31, 63, 64])) or 1
        want = (v & -v).bit_length() - 1
        assert lowest_bit(np.uint64(v)) == want
        if v < 1 << 63:
            assert lowest_bit(np.int64(v)) == want == lowest_bit(v)


def test_low_mask_and_reverse():
    assert [int(low_mask(k)) for k in (0, 1, 5, 63)] == [0, 1, 31, (1 << 63) - 1]
    rng = random.Random(7)
    for _ in range(500):
        w = rng.randint(1, 20)
        x = rng.getrandbits(w)
        assert reverse(x, w) == int(format(x, f"0{w}b")[::-1], 2)


def _image(o: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(v) for v in transform(o, dr, dc)) for dr, dc in POINTS)


def test_the_eight_symmetries_form_the_group_of_the_square():
    images = {_image(o): o for o in SYMMETRIES}
    assert len(images) == 8 and _image(0) == tuple(POINTS)          # distinct, 0 is the identity
    for a, b in itertools.product(SYMMETRIES, repeat=2):                # closed under composition
        composed = tuple(tuple(int(v) for v in transform(a, *transform(b, dr, dc))) for dr, dc in POINTS)
        assert composed in images
    for a in SYMMETRIES:                                                # each has an inverse
        assert any(tuple(tuple(int(v) for v in transform(b, *transform(a, dr, dc))) for dr, dc in POINTS)
                   == tuple(POINTS) for b in SYMMETRIES)
    for o in SYMMETRIES:                       # isometries of the king's metric: neighbours stay neighbours
        for dr, dc in POINTS:
            r, c = transform(o, dr, dc)
            assert max(abs(r), abs(c)) == max(abs(dr), abs(dc)) and abs(r) + abs(c) == abs(dr) + abs(dc)


def test_transform_takes_arrays_like_numbers_and_its_compiled_form_agrees():
    rows, cols = np.array([1, -2, 3]), np.array([0, 5, -1])
    for o in SYMMETRIES:
        r, c = transform(o, rows, cols)
        assert [(int(a), int(b)) for a, b in zip(r, c, strict=True)] == [
            transform(o, int(a), int(b)) for a, b in zip(rows, cols, strict=True)]
        assert [compiled.transform(o, int(a), int(b)) for a, b in zip(rows, cols, strict=True)] == [
            transform(o, int(a), int(b)) for a, b in zip(rows, cols, strict=True)]


def test_canonical_is_invariant_under_symmetries_and_translations():
    rng = random.Random(3)
    for _ in range(50):
        cells = {(rng.randint(0, 6), rng.randint(0, 6)) for _ in range(rng.randint(1, 9))}
        board = [[r, c, rng.randint(1, 30)] for r, c in cells]
        rep = canonical(board)
        assert len(rep) == len(board)
        for o in SYMMETRIES:
            dr, dc = rng.randint(-9, 9), rng.randint(-9, 9)
            image = [[int(transform(o, r, c)[0]) + dr, int(transform(o, r, c)[1]) + dc, v] for r, c, v in board]
            assert canonical(image) == rep
        assert at_origin(rep) == rep


def test_canonical_tells_different_boards_apart():
    line = [[0, 0, 1], [0, 1, 2], [0, 2, 3]]
    bent = [[0, 0, 1], [0, 1, 2], [1, 1, 3]]
    assert canonical(line) != canonical(bent)
    assert canonical(line) == canonical([[5, 2, 3], [4, 2, 2], [3, 2, 1]])


def test_compiled_canonical_codes_agree_with_the_numpy_form():
    rng = np.random.default_rng(5)
    rows, cols = rng.integers(-9, 9, (400, 7)), rng.integers(-9, 9, (400, 7))
    values = rng.integers(1, 4, (400, 7))
    valid = np.arange(7)[None, :] < rng.integers(1, 8, 400)[:, None]     # ragged boards
    codes = compiled.canonical_codes(rows, cols, values, valid)
    assert (codes == symmetry.canonical_codes(rows, cols, values, valid)).all()
    o = 5                                    # an image of every board has the same code
    r, c = transform(o, rows, cols)
    assert (compiled.canonical_codes(r + 3, c - 2, values, valid) == codes).all()


def test_deadline():
    never = Deadline.after(None)
    assert never.left() == math.inf and not never.passed()
    soon = Deadline.after(0.001)
    while not soon.passed():
        pass
    assert soon.left() == 0.0 and soon.elapsed() >= 0.001
    assert abs(clock() - Deadline().start) < 1.0            # the kernels' clock is the same clock
    assert Deadline.after(100).within(1).left() <= 1.0
    assert 4.0 < Deadline.after(10).share(0.5).left() <= 5.0


def test_outcome_merge_keeps_the_best_and_adds_counts():
    a = Outcome(10, "a", count=2, positions=5, tasks=1)
    b = Outcome(10, "b", count=3, positions=7, complete=False, tasks=1)
    c = Outcome(9, "c", count=1, positions=1, tasks=1)
    none = Outcome(positions=4, tasks=1)
    ab = a.merge(b)
    assert (ab.best, ab.witness, ab.count, ab.positions, ab.complete, ab.tasks) == (10, "a", 5, 12, False, 2)
    for order in itertools.permutations([a, b, c, none]):
        out = Outcome.reduce(order)
        assert (out.best, out.witness, out.count, out.positions, out.complete, out.tasks) == (9, "c", 1, 17, False, 4)
    high = Outcome.reduce([Outcome(3, "x", maximise=True), Outcome(5, "y", maximise=True)], maximise=True)
    assert (high.best, high.witness) == (5, "y")
    counted = Outcome.reduce([Outcome(count=4), Outcome(count=6)])
    assert counted.best is None and counted.count == 10 and counted.complete
    assert Outcome.reduce([]).complete and Outcome.reduce([]).best is None
