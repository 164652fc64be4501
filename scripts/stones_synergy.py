"""Why the stepping-stones records hide from every cheap score (docs/notes/stones-record.md, "Synergy"):
measurements on the published boards (data/record-boards.csv), each a subcommand.

    python scripts/stones_synergy.py schedules              # when each board spends its ones
    python scripts/stones_synergy.py runs [STORE]           # the run of numbers each one feeds
    python scripts/stones_synergy.py cores 20               # boards per level that use 2 and 3 ones
    python scripts/stones_synergy.py prefix 6 8,12,16 1,2   # exact best from a board's prefix, j more ones
    python scripts/stones_synergy.py layouts 6 1 3,4        # some of the board's ones fixed, 1 more free
    python scripts/stones_synergy.py trace 8 300 10         # the board's prefix against a lookahead beam
    python scripts/stones_synergy.py class_rank 6 14 2      # v2 of the prefix against its class in a beam
    python scripts/stones_synergy.py finish_prefix 6 14     # lookahead beams from the board's prefix
    python scripts/stones_synergy.py sweep 6 13 3           # a class sweep at a given level
    python scripts/stones_synergy.py fresh 6                # the hunt's class sweep: where the record's prefix ranks
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import itertools
import json
import random
import time
from pathlib import Path

import numpy as np

from workbench.puzzles.stones.hunt.beam import (
    FILTERS,
    LEXICOGRAPHIC,
    ONE,
    beam,
    board_hash,
    published_boards,
    to_board,
    to_sequence,
)
from workbench.puzzles.stones.hunt.lookahead import LOOKAHEAD_POSITIONS, _look, lookahead, prefix
from workbench.puzzles.stones.hunt.sweep import fresh_class, rank_by_lookahead, sweep_order
from workbench.puzzles.stones.kernel import subtree


def touching(cell: tuple[int, int]) -> set[tuple[int, int]]:
    """The 8 cells around a cell."""
    r, c = cell
    return {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - {cell}


def schedules() -> None:
    """The number at which each one is first touched, the most new ones a number takes, and the
    numbers placed touching no earlier number (a separate group)."""
    for n, board in sorted(published_boards().items()):
        ones = {(r, c) for r, c, v in board if v == 1}
        where = {v: (r, c) for r, c, v in board if v >= 2}
        used: set[tuple[int, int]] = set()
        placed: set[tuple[int, int]] = set()
        spent, most, groups = [], 0, []
        for v in range(2, max(where) + 1):
            near = touching(where[v])
            fresh = (near & ones) - used
            spent += [v] * len(fresh)
            most = max(most, len(fresh) if v > 2 else 0)
            if v > 2 and not near & placed:
                groups.append(v)
            used |= fresh
            placed.add(where[v])
        print(f"n = {n}, {max(where)}: ones spent at {spent}; core 2..{spent[2] - 1} on the first two ones; "
              f"at most {most} new one per number; separate groups at {groups or 'none'}")


def runs(store: str | None) -> None:
    """For each one past the two beside the 2: the first number it touches, k, and how many of
    k, k + 1, ... it touches in a row (its run). With STORE, a hunt's stones.json too."""
    boards = {f"published n = {n}": b for n, b in sorted(published_boards().items())}
    if store:
        boards |= {f"stored {u} ones": e["board"] for u, e in sorted(json.loads(Path(store).read_text()).items(),
                                                                    key=lambda t: int(t[0]))}
    for name, board in boards.items():
        where = {(r, c): v for r, c, v in board}
        found = []
        for cell in (c for c, v in where.items() if v == 1):
            near = {where.get(q, 0) for q in touching(cell)} - {0, 1}
            if not near or 2 in near:
                continue
            k, length = min(near), 1
            while k + length in near:
                length += 1
            found.append((k, length))
        print(f"{name}, {max(where.values())}: " + ", ".join(f"{k}..{k + m - 1}" for k, m in sorted(found)))


def cores(kmax: int) -> None:
    """Canonical boards per level using 2 and 3 ones: a beam wide enough to keep them all (about
    2e4 boards a level, so few are lost to collisions in a table of 4e6)."""

    def level(k: int, scores: list[float], kept: list[np.ndarray]) -> None:
        if k <= kmax:
            used = np.bincount([int((seq >= ONE).sum()) for seq in kept], minlength=4)
            print(f"k = {k}: {used[2]} boards on 2 ones, {used[3]} on 3", flush=True)

    beam(3, 4 * 10**6, LEXICOGRAPHIC, 0, FILTERS["off"], on_level=level)


def prefix_values(n: int, cuts: list[int], more: list[int], budget: int) -> None:
    """The exact best from the board's prefix at k (its ones touching numbers up to k) with j more
    ones in hand: what a lookahead of depth j would see."""
    board = published_boards()[n]
    for k in cuts:
        head = prefix(board, k)
        used = sum(1 for *_, v in head if v == 1)
        for j in more:
            began = time.time()
            out = subtree(used + j, head, budget)
            print(f"n = {n}, k = {k}, {used} ones down, {j} more: {out.best} ({out.positions:.3g} positions, "
                  f"{'complete' if out.complete else 'cut'}, {time.time() - began:.1f} s)", flush=True)


def layouts(n: int, free: int, sizes: list[int], budget: int) -> None:
    """Subsets of the board's layout: the two ones beside the 2 and `size` of the others fixed,
    `free` ones more in hand, every number searched again."""
    board = published_boards()[n]
    two = next(t for t in board if t[2] == 2)
    ones = [(r, c) for r, c, v in board if v == 1]
    beside = [o for o in ones if o in touching((two[0], two[1]))]
    rest = [o for o in ones if o not in beside]
    for size in sizes:
        outs = [subtree(2 + size + free, [two] + [[r, c, 1] for r, c in beside + list(chosen)], budget)
                for chosen in itertools.combinations(rest, size)]
        values = [f"{o.best}{'' if o.complete else '+'}" for o in sorted(outs, key=lambda o: -(o.best or 0))]
        print(f"n = {n}: {2 + size} of its ones fixed, {free} free: {', '.join(values)} "
              f"(+: cut by the budget)", flush=True)


def trace(n: int, width: int, worth: float, threads: int) -> None:
    """A fresh lookahead beam for n ones; after each level, the board's prefix is scored as the beam
    scores its children: is it among the kept boards, and how does its potential compare with the
    cut-off (the width-th potential)?"""
    board = published_boards()[n]
    began = time.time()

    def level(k: int, potential: list[float], parents: list[np.ndarray]) -> None:
        seen, ones, extra, out = _look(np.array(to_sequence(board, k), dtype=np.int16), n, LOOKAHEAD_POSITIONS)
        mine = (out.best or k) + worth * (n - ones - extra)
        kept = board_hash(seen) in {board_hash(to_board(seq)) for seq in parents}
        print(f"k = {k:2d} ({time.time() - began:4.0f} s): the board has {ones} ones down, v1 {out.best}, "
              f"potential {mine:.0f}; the beam's cut {potential[-1]:.0f}, top {potential[0]:.0f}; "
              f"{'kept' if kept else 'not kept'}, {sum(p > mine for p in potential)} kept boards above it", flush=True)

    lookahead(n, width, 0, worth=worth, threads=threads, on_level=level)


def class_of(n: int, k: int, down: int, width: int) -> list[np.ndarray]:
    """The boards (placement sequences) with `down` ones after level k of a fresh counting beam
    (lexicographic, seed 0)."""
    held: list[np.ndarray] = []

    def level(at: int, scores: list[float], kept: list[np.ndarray]) -> None:
        if at == k:
            held.extend(seq for seq in kept if int((seq >= ONE).sum()) == down)

    beam(n, width, LEXICOGRAPHIC, 0, on_level=level)
    return held


def class_rank(n: int, k: int, j: int, width: int, sample: int, budget: int, threads: int) -> None:
    """The board's prefix at k against the boards of a fresh counting beam that have as many ones
    down: how many beat it on the exact best with j more ones (vj)? With sample 0, every board of
    the class."""
    mine = prefix(published_boards()[n], k)
    down = sum(1 for *_, v in mine if v == 1)
    boards = [to_board(seq) for seq in class_of(n, k, down, width)]
    kept = board_hash(mine) in {board_hash(b) for b in boards}
    if sample:
        boards = random.Random(0).sample(boards, min(sample, len(boards)))
    began = time.time()
    with cf.ThreadPoolExecutor(threads) as pool:
        values = [o.best or k for o in pool.map(lambda b: subtree(down + j, b, budget), boards)]
    out = subtree(down + j, mine, budget)
    print(f"n = {n}, k = {k}, {down} ones down: the prefix is {'' if kept else 'not '}in the beam; its v{j} "
          f"{out.best}{'' if out.complete else ' (cut)'}; {sum(v > (out.best or k) for v in values)} above it and "
          f"{sum(v == out.best for v in values)} equal, of {len(values)} boards ({time.time() - began:.0f} s)")


def finish_prefix(n: int, k: int, widths: list[int], threads: int) -> None:
    """Lookahead beams (worth 10) started from the board's own prefix at k."""
    for width in widths:
        began = time.time()
        reached = lookahead(n, width, 0, start=to_sequence(published_boards()[n], k), threads=threads)
        print(f"n = {n}, from k = {k}, width {width}: {reached.get(n)} ({time.time() - began:.1f} s)", flush=True)


def sweep(n: int, k: int, down: int, first: int, count: int, threads: int) -> None:
    """A class sweep, given the level: the boards with `down` ones at k of a width-1e5 counting
    beam, ranked by v1 (5e4 positions), the best `first` of them by v2 (1e6 positions, ties by v1),
    then a width-100 lookahead beam from each of the best `count`, in that order."""
    began = time.time()
    seqs = class_of(n, k, down, 100000)
    boards = [to_board(seq) for seq in seqs]
    mine = board_hash(prefix(published_boards()[n], k))
    order, v1, v2 = rank_by_lookahead(boards, down, threads, ranked=first)
    where = [place for place, i in enumerate(order) if board_hash(boards[i]) == mine]
    print(f"{len(boards)} boards in the class; the record's prefix ranks {where or 'nowhere'} "
          f"({time.time() - began:.0f} s)", flush=True)
    for place, i in enumerate(order[:count]):
        reached = lookahead(n, 100, 0, start=[int(e) for e in seqs[i]], threads=threads)
        print(f"{place}: v2 {v2[i]}, v1 {v1[i]}, reached {reached.get(n)} ({time.time() - began:.0f} s)", flush=True)


def fresh(n: int, seed: int, width: int, threads: int) -> None:
    """The hunt's class sweep (record.sweep_order): the boards with n - 3 ones, the last spent one
    number ago, at every level of a counting beam; which prefixes of the record board are among
    them, and where they come in the sweep's order."""
    board = published_boards()[n]
    mine = {board_hash(prefix(board, k)): k for k in range(3, max(v for *_, v in board) + 1)}
    began = time.time()
    held = fresh_class(n, width, seed, FILTERS["near"])
    levels = sorted(mine[h] for h in {board_hash(to_board(seq)) for seq in held} if h in mine)
    print(f"{len(held)} boards in the class ({time.time() - began:.0f} s); the record's prefixes among them: "
          f"k = {levels or 'none'}", flush=True)
    order = [board_hash(to_board(np.array(seq))) for seq in sweep_order(n, seed, FILTERS["near"], threads, width=width)]
    places = [(place + 1, mine[h]) for place, h in enumerate(order) if h in mine]
    print(f"in the sweep's order: {places or 'not among the first'} of {len(order)} ({time.time() - began:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("schedules")
    sub.add_parser("runs").add_argument("store", nargs="?")
    sub.add_parser("cores").add_argument("kmax", type=int)
    for name in ("prefix", "layouts"):
        p = sub.add_parser(name)
        p.add_argument("n", type=int)
        p.add_argument("first", help="prefix: the cuts k; layouts: how many ones free")
        p.add_argument("second", help="prefix: how many more ones; layouts: how many of its other ones fixed")
        p.add_argument("--budget", type=float, default=3e7)
    t = sub.add_parser("trace")
    t.add_argument("n", type=int)
    t.add_argument("width", type=int)
    t.add_argument("worth", type=float)
    t.add_argument("--threads", type=int, default=1)
    c = sub.add_parser("class_rank")
    for name in ("n", "k", "j"):
        c.add_argument(name, type=int)
    c.add_argument("--width", type=int, default=100000)
    c.add_argument("--sample", type=int, default=200, help="boards of the class scored (0: all)")
    c.add_argument("--budget", type=float, default=1e6)
    c.add_argument("--threads", type=int, default=2)
    f = sub.add_parser("finish_prefix")
    f.add_argument("n", type=int)
    f.add_argument("k", type=int)
    f.add_argument("--widths", default="100,300")
    f.add_argument("--threads", type=int, default=2)
    w = sub.add_parser("sweep")
    for name in ("n", "k", "down"):
        w.add_argument(name, type=int)
    w.add_argument("--first", type=int, default=1000, help="boards kept by v1 for v2")
    w.add_argument("--count", type=int, default=60, help="lookahead beams run")
    w.add_argument("--threads", type=int, default=2)
    e = sub.add_parser("fresh")
    e.add_argument("n", type=int)
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--width", type=int, default=100000)
    e.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    ints = lambda text: [int(x) for x in text.split(",")]
    if a.what == "schedules":
        schedules()
    elif a.what == "runs":
        runs(a.store)
    elif a.what == "cores":
        cores(a.kmax)
    elif a.what == "prefix":
        prefix_values(a.n, ints(a.first), ints(a.second), int(a.budget))
    elif a.what == "layouts":
        layouts(a.n, int(a.first), ints(a.second), int(a.budget))
    elif a.what == "finish_prefix":
        finish_prefix(a.n, a.k, ints(a.widths), a.threads)
    elif a.what == "sweep":
        sweep(a.n, a.k, a.down, a.first, a.count, a.threads)
    elif a.what == "fresh":
        fresh(a.n, a.seed, a.width, a.threads)
    elif a.what == "class_rank":
        class_rank(a.n, a.k, a.j, a.width, a.sample, int(a.budget), a.threads)
    else:
        trace(a.n, a.width, a.worth, a.threads)


if __name__ == "__main__":
    main()
