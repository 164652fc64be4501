"""The class sweep: the boards of one line of play, ranked on their own by exact lookaheads rather
than against each other in a beam (docs/notes/stones-record.md)."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ....search import tasks
from ....search.deadline import NEVER, Deadline
from ..kernel import subtree
from .beam import LEXICOGRAPHIC, ONE, beam, to_board
from .lookahead import LOOKAHEAD_POSITIONS

SWEEP_SHARE = 0.9         # the worker time for the class sweep while it has work (0.5: 10 boards finished in 14.5 min)
SWEPT_BY_DEFAULT = (6,)   # counts swept unless told: at 7 and 8 a width-1e5 beam loses the records' prefixes first
SWEEP_WIDTH = 100_000     # the counting beam a sweep draws its boards from
SWEEP_RANKED = 1000       # boards with the best v1 that get a v2
SWEEP_FINISHED = 200      # boards, best v2 first, that a sweep finishes with a lookahead beam
SWEEP_LOOKAHEAD = 100     # that beam's width (from the 60 board's prefix: 60 at 100, 57 at 30 and 50)
V2_POSITIONS = 1_000_000  # the exact kernel's budget for a v2 (about 60 ms a board at n = 6)


def fresh_class(u: int, width: int, seed: int, filt: np.ndarray, deadline: Deadline = NEVER) -> list[np.ndarray]:
    """The boards of a lexicographic counting beam for u ones that hold u - 3 ones, the last of
    them spent on the number before the board's last: one board per line of play, taken just as
    its latest one shows what it buys, at whatever level that happens (so no level is chosen)."""
    down = u - 3
    held: list[np.ndarray] = []

    def level(k: int, scores: list[float], kept: list[np.ndarray]) -> bool:
        ones = [int((seq >= ONE).sum()) for seq in kept]
        held.extend(seq for seq, m in zip(kept, ones) if m == down and len(seq) >= 3 and seq[-3] >= ONE)
        return min(ones, default=u) > down or deadline.passed()     # no board can join the class any more

    beam(u, width, LEXICOGRAPHIC, seed, filt, on_level=level)
    return held


def sweep_order(u: int, seed: int, filt: np.ndarray, threads: int = 1, deadline: Deadline = NEVER,
                width: int = SWEEP_WIDTH, ranked: int = SWEEP_RANKED) -> list[tuple[int, ...]]:
    """A class sweep's order: the boards of fresh_class ranked by v1 (the exact best with one more
    one), the best `ranked` of them by v2 (two more ones; ties by v1), best first, the first
    SWEEP_FINISHED kept. Why: the record boards hide from every score of a beam until nearly all
    their ones are down, so a beam drops them; ranked on their own, without a beam's competition,
    the 60 board's prefix comes 51st of about 10,800 boards (docs/notes/stones-record.md)."""
    seqs = fresh_class(u, width, seed, filt, deadline)
    order, _, _ = rank_by_lookahead([to_board(seq) for seq in seqs], u - 3, threads, deadline, ranked)
    return [tuple(int(e) for e in seqs[i]) for i in order[:SWEEP_FINISHED]]


def rank_by_lookahead(boards: list[list[list[int]]], down: int, threads: int = 1, deadline: Deadline = NEVER,
                      ranked: int = SWEEP_RANKED) -> tuple[list[int], list[int], dict[int, int]]:
    """Boards with `down` ones ranked as a sweep ranks them: all by v1, the best `ranked` of those by
    v2 (ties by v1). Returns their indices best first, v1 of every board, v2 of the ranked ones."""

    def value(extra: int, budget: int) -> Callable[[int], int]:
        return lambda i: 0 if deadline.passed() else subtree(down + extra, boards[i], budget).best or 0

    with tasks.fan_out(threads) as each:
        v1 = list(each(value(1, LOOKAHEAD_POSITIONS), range(len(boards))))
        order = sorted(range(len(boards)), key=lambda i: -v1[i])[:ranked]
        v2 = dict(zip(order, each(value(2, V2_POSITIONS), order)))
    order.sort(key=lambda i: (-v2[i], -v1[i]))
    return order, v1, v2
