"""The record hunt's uses of the exact kernel (kernel.subtree): the lookahead beam, whose children
are ranked by the best value the exact search reaches from them, and the exhaustive ending of a
best board (finish)."""
from __future__ import annotations

import heapq
from collections.abc import Callable

import numpy as np

from ....search import tasks
from ....search.deadline import NEVER, Deadline
from ....search.outcome import Outcome
from ..kernel import subtree
from .beam import (
    FILTERS,
    LEXICOGRAPHIC,
    ONE,
    LevelHook,
    _gather,
    _grid,
    _level,
    _pack,
    _records,
    _table,
    prime_below,
    score_cap,
    starts,
    to_board,
    value_cap,
)

ONE_WORTH = 10.0        # numbers a one in hand is worth in the lookahead's potential (about a(n) / n)
WORTHS = (10.0, 13.0)   # the hunt draws it from this range (n = 5, width 300: 8 and 9.1 gave 47, 10 and 12 gave 49)
LOOKAHEAD_POSITIONS = 50_000    # the exact kernel's budget per child of a lookahead beam
LOOKAHEAD_WIDTH = 300   # the hunt's first lookahead beam (n = 5: 49 at 300 in 4 min, 47 at 150)


def _look(seq: np.ndarray, nmax: int, budget: int) -> tuple[list[list[int]], int, int, Outcome[list[list[int]]]]:
    """A child's board, its ones, the extra one its lookahead may place, and that lookahead."""
    board = to_board(seq)
    ones = sum(1 for *_, v in board if v == 1)
    extra = min(1, nmax - ones)
    return board, ones, extra, subtree(ones + extra, board, budget)


def lookahead(nmax: int, width: int, seed: int, filt: np.ndarray = FILTERS["near"], start: list[int] | None = None,
              deadline: Deadline = NEVER, on_record: Callable[[int, int, list[list[int]]], None] | None = None,
              worth: float = ONE_WORTH, threads: int = 1, on_level: LevelHook | None = None) -> dict[int, int]:
    """A narrow beam ranked by an exact lookahead. Each child is scored by its potential: the best
    value the exact kernel reaches from it with one more one (v1), plus `worth` per further one in
    hand. Why: the known best boards look ordinary to the counting keys until 20 to 30 numbers in,
    and a wide beam drops them at 15 to 22; on v1 they rank in the top percent from about 10 on
    (docs/notes/stones-record.md). Every lookahead also yields a whole board (its witness), so a run
    reports records for u and u + 1 ones as it goes. The lookaheads of a level run on `threads`
    threads (the kernel releases the GIL). Calls on_record(ones, value, board) for each
    improvement, and on_level(k, potentials, boards) with the boards kept after each level (best
    first: what scripts/stones_synergy.py traces a known board against); returns {ones: largest value
    reached}."""
    length = value_cap(nmax) + nmax + 2
    parents: list[np.ndarray] = [np.array(s, dtype=np.int16) for s in ([start] if start else starts())]
    k = sum(1 for e in parents[0] if e < ONE) + 1
    rng = np.random.default_rng(seed)
    grid = _grid(length)
    reached: dict[int, int] = {}

    def offer(ones: int, value: int, board: list[list[int]]) -> None:
        if ones <= nmax and value > reached.get(ones, 1):
            reached[ones] = value
            if on_record is not None:
                on_record(ones, value, board)

    potential = [float("inf")] * len(parents)
    batch = 1 if threads == 1 else 64 * threads     # children scored between two looks at the cut-off
    with tasks.fan_out(threads) as each:
        while parents and k + 1 < value_cap(nmax) and not deadline.passed():
            k += 1
            nb = len(parents)
            boards, prime = _pack(parents, nb, length), prime_below(40 * nb + 100)
            table, rec = _table(prime), _records(nmax, length)
            _level(k, nmax, score_cap(nmax), int(rng.integers(1 << 31)), (LEXICOGRAPHIC, filt), boards, nb, table,
                   grid, rec)
            children, keys = _pack([], prime, length), np.empty(prime)
            made = _gather(table, boards, nb, children, keys)
            parent_of = {p.tobytes(): b for b, p in enumerate(parents)}
            kept: list[tuple[float, float, int, np.ndarray]] = []      # a min-heap of the best `width`
            for first in range(0, made, batch):
                if deadline.passed():
                    break
                todo = []
                for i in range(first, min(made, first + batch)):
                    seq = children[0][i, :children[1][i]].copy()
                    spends = seq[-2] >= ONE          # a parent ends with a number, so this entry is a new one
                    bound = float("inf") if spends else potential[parent_of[seq[:-1].tobytes()]]
                    if len(kept) < width or bound > kept[0][0]:    # else it cannot beat its parent's potential
                        todo.append((i, seq))
                looks = each(lambda t: _look(t[1], nmax, LOOKAHEAD_POSITIONS), todo)
                for (i, seq), (board, ones, extra, out) in zip(todo, looks):
                    offer(ones, k, board)
                    if out.witness is not None:
                        offer(sum(1 for *_, v in out.witness if v == 1), out.best or k, out.witness)
                    item = ((out.best or k) + worth * (nmax - ones - extra), float(keys[i]), -i, seq)
                    if len(kept) < width:
                        heapq.heappush(kept, item)
                    elif item[:3] > kept[0][:3]:
                        heapq.heapreplace(kept, item)
            kept.sort(key=lambda t: t[:3], reverse=True)
            parents, potential = [t[3] for t in kept], [t[0] for t in kept]
            if on_level is not None:
                on_level(k, potential, parents)
    return reached


def prefix(board: list[list[int]], k: int) -> list[list[int]]:
    """The part of a board that exists just after k was placed: numbers 2..k and the ones they
    touch (other ones go back into hand)."""
    loose = loose_ones(board, k)
    return [[r, c, v] for r, c, v in board if 2 <= v <= k or (v == 1 and (r, c) not in loose)]


def loose_ones(board: list[list[int]], k: int) -> set[tuple[int, int]]:
    """The ones that touch no number up to k: a re-run from k may move one of them."""
    nums = {(r, c) for r, c, v in board if 2 <= v <= k}
    return {(r, c) for r, c, v in board
            if v == 1 and not any((r + dr, c + dc) in nums for dr in (-1, 0, 1) for dc in (-1, 0, 1))}


EXACT_DEPTH = 10        # the first exhaustive ending re-searches the best board's last 10 numbers
POSITIONS_PER_SECOND = 2.5e6    # the exact kernel's speed here (measured: 5e7 positions in 19.5 s), for budgets


def finish(n: int, board: list[list[int]], seconds: float) -> tuple[int, list[list[int]]]:
    """The best board's ending searched exhaustively by the exact search's kernel (a beam keeps too
    few boards near the end). First its whole layout: with every one fixed, the numbers from the 2
    on are searched to the end in 0.02 to 3 s (n = 6..9; the published layouts give 60, 71, 80, 90),
    so the board becomes the best for its ones. Then with the later ones back in hand: 10 numbers
    back, 5 more each time that ending is searched to the end without a better one, again from 10
    after an improvement; each call within 10 s. Returns the best value and board found (the input
    when nothing better)."""
    stop = Deadline.after(seconds)
    best = max(v for *_, v in board)
    layout = subtree(n, [[r, c, v] for r, c, v in board if v <= 2], int(POSITIONS_PER_SECOND * min(seconds, 10.0)))
    if layout.witness is not None and (layout.best or 0) > best:
        best, board = layout.best or 0, layout.witness
    depth = EXACT_DEPTH
    while best >= 10 and (left := stop.left()) > 0.5:
        cut = max(3, best - depth)
        out = subtree(n, prefix(board, cut), int(POSITIONS_PER_SECOND * min(left, 10.0)))
        if out.witness is not None and (out.best or 0) > best:
            best, board, depth = out.best or 0, out.witness, EXACT_DEPTH
        elif out.complete and cut > 3:
            depth += 5
        else:
            break
    return best, board
