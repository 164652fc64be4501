"""Stepping stones: the optimal boards counted up to symmetry (`solve stones --all --target a(n)`)
against a plain enumeration written from the rules alone, across cuts, capped tasks and a journal."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from conftest import published_values

from workbench import api
from workbench.cli import main
from workbench.puzzles.stones.check import check as check_board
from workbench.puzzles.stones.search import search
from workbench.search.symmetry import canonical
from workbench.search.tasks import Settings, journal_log

PUBLISHED = published_values("stones")
NEAR = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
Cells = tuple[tuple[int, int, int], ...]


def plain_optimal_boards(n: int) -> tuple[int, set[Cells]]:
    """a(n) and its boards up to symmetry, by a plain recursion that shares nothing with the kernel:
    number k goes on an empty cell whose sum, with the j new ones put around it (j <= ones left),
    is k; a new one never touches a number >= 2 (it would have changed that number's sum). For
    n <= 3 every number after the 2 touches the board (a separate start needs k >= 3 new ones). The 2
    and its ones are tried once a shape up to symmetry: every board has an image that starts so."""
    board: dict[tuple[int, int], int] = {}
    sums: Counter[tuple[int, int]] = Counter()
    big: Counter[tuple[int, int]] = Counter()          # neighbours of value >= 2
    best, boards = 0, set()
    starts: set[Cells] = set()

    def put(cell: tuple[int, int], v: int, sign: int) -> None:
        if sign > 0:
            board[cell] = v
        else:
            del board[cell]
        for dr, dc in NEAR:
            q = (cell[0] + dr, cell[1] + dc)
            sums[q] += sign * v
            big[q] += sign * (v >= 2)

    def go(k: int, ones: int) -> None:
        nonlocal best, boards
        if k - 1 > best:
            best, boards = k - 1, set()
        if k - 1 == best >= 2:
            boards.add(tuple(map(tuple, canonical([[r, c, v] for (r, c), v in board.items()]))))
        for cell in [q for q, s in sums.items() if s and q not in board] if board else [(0, 0)]:
            need = k - sums[cell]
            if not 0 <= need <= ones:
                continue
            free = [q for q in ((cell[0] + dr, cell[1] + dc) for dr, dc in NEAR) if q not in board and not big[q]]
            for new in combinations(free, need):
                if k == 2:
                    start = tuple(map(tuple, canonical([[0, 0, 2], *([r, c, 1] for r, c in new)])))
                    if start in starts:
                        continue
                    starts.add(start)
                for q in new:
                    put(q, 1, 1)
                put(cell, k, 1)
                go(k + 1, ones - need)
                put(cell, k, -1)
                for q in new:
                    put(q, 1, -1)

    go(2, n)
    return best, boards


def counted(n: int, cut: int | None = None, split_after: int = 200_000_000, **settings) -> tuple[int | None, set]:
    out = search(n, Settings(**({"threads": 2, "journal": False, "quiet": True} | settings)), cut=cut,
                 target=PUBLISHED[n], count=True, split_after=split_after)
    assert out.complete and out.count == len(out.examples)
    for board in out.examples:
        verdict = check_board(n, board)
        assert verdict.ok and verdict.objective == PUBLISHED[n], verdict.message
    return out.best, {tuple(map(tuple, b)) for b in out.examples}


@pytest.mark.parametrize("n", [2, 3])
def test_the_optimal_boards_are_those_of_a_plain_enumeration(n):
    """The same optimum and exactly the same boards up to symmetry (a(2): 2, a(3): 8)."""
    best, plain = plain_optimal_boards(n)
    assert best == PUBLISHED[n]
    assert counted(n) == (best, plain)
    assert len(plain) == {2: 2, 3: 8}[n]


def test_the_count_does_not_depend_on_the_cut_nor_on_handed_back_parts():
    """a(3) cut at 4 and 5, and with tasks capped at 300 positions (parts handed back through
    Part): the same 8 boards."""
    boards = counted(3, cut=4)
    assert counted(3, cut=5) == boards and counted(3, split_after=300) == boards


def test_the_count_survives_the_journal(tmp_path):
    """Each task row keeps its boards: a rerun that reads every task from the journal gives them
    back, each replayed by the checker as it is read."""
    with pytest.raises(RuntimeError), journal_log():
        first = counted(3, split_after=300, runs=tmp_path, journal=True)
        raise RuntimeError("the answer could not be made")
    again = counted(3, split_after=300, runs=tmp_path, journal=True)
    assert again == first and len(first[1]) == 8


def test_solve_counts_the_optimal_boards_and_needs_the_target(capsys):
    """The count goes to the run's record; above a(n) there is nothing to count; --all without
    --target is one line and exit status 2."""
    run = api.solve("stones", 3, solver="search", target=PUBLISHED[3], all=True, time_limit=120)
    assert (run.status, run.value, run.verified, run.result.count) == ("optimal", 28, True, 8)
    assert "8 optimal boards up to symmetry" in run.result.message
    above = api.solve("stones", 3, solver="search", target=PUBLISHED[3] + 1, all=True, time_limit=120)
    assert not above.result.count and "optimal boards" not in above.result.message
    assert main(["solve", "stones", "--n", "3", "--all"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
