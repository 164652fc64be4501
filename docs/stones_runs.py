"""The run rule (docs/stones-record.md, "Runs"): trials of a rule seen in every known record board.
Each subcommand is one measurement; the kernel and beam options they use were dropped afterwards
(no gain), so run this file at the commit that added it.

    python docs/stones_runs.py exhaustive 4 3 0               # the exact search under the rule
    python docs/stones_runs.py rank 6 10,12,14,16 5e4 3,1     # a prefix's all-ones lookahead against a beam's
    python docs/stones_runs.py lookahead 6 300 3,1 5e4 1 10 0 # lookahead beam, v1 under the rule
    python docs/stones_runs.py beam 8 5e4 3,0 0,1,2,3         # counting beams under the rule
"""
from __future__ import annotations

import math
import sys
import time

import numpy as np

from workbench.puzzles.stones import record
from workbench.puzzles.stones.kernel import MASKS, MAXC, _dfs, _workspace, subtree


def pair(text: str) -> tuple[int, int]:
    a, b = (int(x) for x in text.split(","))
    return a, b


def exhaustive(n: int, runs: tuple[int, int]) -> None:
    cells, stats = np.empty((MAXC, 2), dtype=np.int64), np.zeros(3, dtype=np.int64)
    began = time.time()
    best, _, _ = _dfs(_workspace(), np.empty((0, 2), dtype=np.int64), 2, n, 0, (0, 0, 0, math.inf), MASKS,
                      (cells, np.empty((0, 2, 2), dtype=np.int64), stats), runs)
    print(f"n = {n}, runs {runs}: best {best}, {stats[0]} positions, {time.time() - began:.1f} s")


def rank(n: int, ks: list[int], budget: int, runs: tuple[int, int]) -> None:
    board, sample = record.published_boards()[n], {}

    def level(k: int, scores: list[float], kept: list[np.ndarray]) -> None:
        if k in ks:
            pick = np.random.default_rng(k).choice(len(kept), min(60, len(kept)), replace=False)
            sample[k] = [record.to_board(kept[i]) for i in pick]

    record.beam(n, 20000, record.LEXICOGRAPHIC, 0, on_level=level)
    for k in ks:
        mine = subtree(n, record.prefix(board, k), budget, runs).best or k
        vals = np.array([subtree(n, b, budget, runs).best for b in sample[k]])
        print(f"n = {n}, k = {k}: the record's prefix {mine}; 60 beam boards: max {vals.max()}, "
              f"mean {vals.mean():.1f}, {(vals > mine).sum()} above it")


def lookahead(n: int, width: int, runs: tuple[int, int], budget: int, depth: int, worth: float, seed: int) -> None:
    def look(seq: np.ndarray, nmax: int, _: int) -> tuple:
        board = record.to_board(seq)
        ones = sum(1 for *_, v in board if v == 1)
        extra = min(depth, nmax - ones)
        return board, ones, extra, subtree(ones + extra, board, budget, runs)

    record._look = look  # type: ignore[assignment]
    began = time.time()
    got = record.lookahead(n, width, seed, worth=worth)
    print(f"n = {n}, runs {runs}, depth {depth}, seed {seed}: {got.get(n)} in {time.time() - began:.0f} s")


def beams(n: int, width: int, runs: tuple[int, int], seeds: list[int]) -> None:
    for seed in seeds:
        w = record.LEXICOGRAPHIC if seed == 0 else record.random_weights(np.random.default_rng(seed))
        got = record.beam(n, width, w, seed, runs=runs)
        print(f"n = {n}, width {width}, runs {runs}, seed {seed}: {max(v for u, v in got.items() if u <= n)}")


if __name__ == "__main__":
    what, *a = sys.argv[1:]
    ints = lambda text: [int(x) for x in text.split(",")]
    if what == "exhaustive":
        exhaustive(int(a[0]), (int(a[1]), int(a[2])))
    elif what == "rank":
        rank(int(a[0]), ints(a[1]), int(float(a[2])), pair(a[3]))
    elif what == "lookahead":
        lookahead(int(a[0]), int(a[1]), pair(a[2]), int(float(a[3])), int(a[4]), float(a[5]), int(a[6]))
    else:
        beams(int(a[0]), int(float(a[1])), pair(a[2]), ints(a[3]))
