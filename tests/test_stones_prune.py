"""Stepping stones: the exact search with a target (tail._viable) against the search without one."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import published_values

from workbench.puzzles.stones.check import check as check_board
from workbench.puzzles.stones.kernel import run_chunk
from workbench.puzzles.stones.search import Part, _part_in, _part_out, search, tasks_of
from workbench.search.deadline import NEVER
from workbench.search.tasks import Settings

PUBLISHED = published_values("stones")
ONE_THREAD = Settings(threads=1, journal=False)


def test_each_task_of_a3_keeps_what_reaches_the_target():
    """Each of a(3)'s 325 frontier tasks: a task whose best reaches the target keeps that best, one
    that does not finds nothing there; and the prune cuts in many of them."""
    front, _ = tasks_of(3, 4)
    assert front is not None and len(front) == 325
    plain = [run_chunk(front, np.array([i]), NEVER)[0] for i in range(len(front))]
    for target in (20, 25, PUBLISHED[3], PUBLISHED[3] + 1):
        cut = 0
        for i, whole in enumerate(plain):
            pruned, _ = run_chunk(front, np.array([i]), NEVER, target=target)
            assert pruned.complete and pruned.positions <= whole.positions
            if (whole.best or 0) >= target:
                assert pruned.best == whole.best
            else:
                assert (pruned.best or 0) < target
            cut += pruned.positions < whole.positions
        assert cut > 100


@pytest.mark.parametrize("n", [1, 2, 3])
def test_every_target_up_to_the_optimum_finds_it_and_one_above_proves_the_bound(n):
    best = PUBLISHED[n]
    for target in range(2, best + 1):
        found = search(n, ONE_THREAD, target=target)
        assert (found.best, found.complete) == (best, True)
    if n > 1:
        assert check_board(n, found.witness).objective == best
    above = search(n, ONE_THREAD, target=best + 1)
    if above.best == best:                   # the optimum was found on the way: proven
        assert above.complete
    else:
        assert (above.best or 0) < best and above.bound == best and not above.complete


def test_no_target_is_the_whole_search_and_a_target_cuts_it():
    """Without a target the positions are today's (192,651 for a(3)); with a(3) + 1 about a 28th
    (11,885 before the tail roots of a group were judged in one game, tail._live_ones; 6,971 while a
    tail board's game looked at most 10 numbers ahead)."""
    assert search(3, ONE_THREAD).positions == 192_651
    assert search(3, ONE_THREAD, target=PUBLISHED[3] + 1).positions == 6_751


def test_a_handed_back_part_keeps_its_target_through_the_journal():
    front, _ = tasks_of(3, 4)
    assert front is not None
    part = Part(front[:4], 1000, 29)
    again = _part_in(_part_out(part))
    assert (again.target, again.cap) == (29, 1000) and (again.front == part.front).all()
    assert _part_in(_part_out(Part(front[:4], 1000))).target == 0
    with pytest.raises(ValueError, match="target"):
        _part_in(_part_out(part) | {"target": -3})
    with pytest.raises(ValueError, match="a part is"):
        _part_in(_part_out(part) | {"goal": 3})


def test_solve_takes_the_target():
    """`solve stones --n 3 --target T`: T = a(3) gives the optimum with its board, proven; T = a(3) + 1
    proves a(3) < T (bound a(3)) without claiming the board it found."""
    from workbench import api

    at = api.solve("stones", 3, solver="search", target=PUBLISHED[3], time_limit=120)
    assert (at.status, at.value, at.verified) == ("optimal", PUBLISHED[3], True)
    above = api.solve("stones", 3, solver="search", target=PUBLISHED[3] + 1, time_limit=120)
    assert above.status == "feasible" and above.bound == PUBLISHED[3] and above.value < PUBLISHED[3]
    assert "no board reaches 29: proven" in above.result.message


def _rule_children(board: dict[tuple[int, int], int], k: int) -> list[tuple[int, int]]:
    """The empty cells whose neighbours sum to k: where the rules let k go."""
    near = {(r + dr, c + dc) for r, c in board for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - set(board)
    return sorted(x for x in near
                  if sum(board.get((x[0] + dr, x[1] + dc), 0) for dr in (-1, 0, 1) for dc in (-1, 0, 1)) == k)


def _carries_on(board: dict[tuple[int, int], int], k: int, t: int) -> bool:
    """Whether the rules can place every number k..t, in turn, from `board`."""
    if k > t:
        return True
    for x in _rule_children(board, k):
        board[x] = k
        ok = _carries_on(board, k + 1, t)
        del board[x]
        if ok:
            return True
    return False


def _optimal_boards() -> list[list[list[int]]]:
    """The proven optimal boards of a(2..5) in results/stones.csv."""
    from workbench.tables import read_rows

    rows = read_rows(Path(__file__).parents[1] / "results" / "stones.csv")
    boards = {int(row["n"]): json.loads(row["solution"]) for row in rows
              if 2 <= int(row["n"]) <= 5 and row["proven"] == "True"}
    assert sorted(boards) == [2, 3, 4, 5]
    return list(boards.values())


def _random_walk(rng, board: dict[tuple[int, int], int], k: int, steps: int) -> tuple[dict[tuple[int, int], int], int]:
    """`board` (next number k) after fewer than `steps` more numbers, each on a cell the rules allow,
    chosen at random (fewer where it dies): the board and its next number."""
    walk = dict(board)
    for _ in range(rng.integers(0, steps)):
        here = _rule_children(walk, k)
        if not here:
            break
        walk[here[rng.integers(len(here))]] = k
        k += 1
    return walk, k


def test_viable_lists_exactly_the_children_the_rules_carry_on_from():
    """tail._viable against a plain replay of the rules, on tail boards (every one placed): the
    prefixes of the optimal boards of a(2..5) and random continuations of them, dead ones included,
    with targets inside and past its window."""
    from workbench.puzzles.stones.kernel import viable

    rng = np.random.default_rng(7)
    checked = dead = 0
    for full in _optimal_boards():
        for top in range(3, max(v for _, _, v in full)):
            board = {(r, c): v for r, c, v in full if v < top}
            for _ in range(3):                      # the prefix, then two random walks from it
                walk, k = _random_walk(rng, board, top, 6)
                for target in (k + 2, k + 30):
                    t = min(target, 2 * k - 1)
                    want = []
                    for x in _rule_children(walk, k):
                        walk[x] = k
                        if _carries_on(walk, k + 1, t):
                            want.append(x)
                        del walk[x]
                    got = viable([[r, c, v] for (r, c), v in walk.items()], k, target)
                    assert got == want, (sorted(walk.items()), k, target)
                    checked += 1
                    dead += not want
    assert checked > 300 and 0 < dead < checked


def test_the_group_game_lists_exactly_the_ones_whose_roots_carry_on():
    """tail._live_ones against a plain replay of the rules: boards with one one in hand (prefixes of
    the optimal boards of a(2..5) and random walks from them), k on a cell of sum k - 1 with the one
    on any free neighbour not next to a number >= 2: the one game of the group lists exactly the
    ones from which the rules place every number of the window, dead groups and mixed ones included."""
    from workbench.puzzles.stones.kernel import live_ones
    from workbench.puzzles.stones.tail import GROUP_AHEAD

    def near(x):
        return [(x[0] + dr, x[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]

    rng = np.random.default_rng(11)
    groups = dead = mixed = 0
    for full in _optimal_boards():
        for top in range(4, max(v for _, _, v in full)):
            numbers = {(r, c) for r, c, v in full if 1 < v < top}
            base = {(r, c): v for r, c, v in full if v < top and (v > 1 or any(q in numbers for q in near((r, c))))}
            for _ in range(2):                      # the prefix, then a random walk from it
                walk, k = _random_walk(rng, base, top, 4)
                for target in (k + 3, k + 30):
                    t = min(target, 2 * (k + 1) - 1, k + 1 + GROUP_AHEAD)
                    for p in _rule_children(walk, k - 1):
                        ones = [e for e in near(p) if e not in walk and not any(walk.get(q, 0) >= 2 for q in near(e))]
                        if not ones:
                            continue
                        want = []
                        for e in ones:
                            walk[e], walk[p] = 1, k
                            if _carries_on(walk, k + 1, t):
                                want.append(e)
                            del walk[e], walk[p]
                        got = live_ones([[r, c, v] for (r, c), v in walk.items()], k, target, p)
                        assert got == sorted(want), (sorted(walk.items()), k, target, p)
                        groups += 1
                        dead += not want
                        mixed += 0 < len(want) < len(ones)
    assert groups > 1000 and dead > 100 and mixed > 10, (groups, dead, mixed)
