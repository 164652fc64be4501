"""Record hunt for stepping stones (n >= 6): a portfolio of beam searches (beam.py), each new
best board then finished by exhaustive search.

Why: one beam run is cheap and its outcome depends a lot on the scoring weights and the width, so
the hunt runs many of them: fresh runs cycling through a few scorings, restarts from a prefix of
the best board (the beam then spends all its width on the last part, where boards die), and runs
with jittered weights. Widths double after each cycle. A beam keeps too few boards near the end to
find the best ending, so every new best board's ending is searched exhaustively (kernel.subtree),
10 numbers back at first and 5 more each time that ending proves best. Measured: n = 9, 81 became
82 that way. Every improvement is reported, so a hard kill loses nothing. No bound is proven (the
result is FEASIBLE). Single-threaded: `threads` is accepted for the interface and ignored.
"""
from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from typing import Any, TextIO

import numpy as np

from ...search.deadline import Deadline
from ...solvers.base import Incumbent, Options, Report, Result, Status
from .beam import Beam, Scoring, default_weights, prefix
from .kernel import subtree

POSITIONS_PER_SECOND = 2.5e6    # the exact kernel's speed here (measured: 5e7 positions in 19.5 s), for budgets

# Scorings (see beam._score): ones in hand, small-sum "fuel" cells, near-future sums.
SCORINGS: list[Scoring] = [
    Scoring(wones=3.0, fuel=(0.3, 0.3, 0.3, 0.3), weights=default_weights(12)),
    Scoring(wones=3.0, fuel=(0.3, 0.3, 0.3, 0.3), weights=default_weights(20)),
    Scoring(wones=3.0, fuel=(0.3,) * 8, weights=default_weights(12)),
    Scoring(wones=4.15, fuel=(0.52, 0.04, 0.2, 0.47),
            weights=np.array([1.28, 1.08, 0.47, 0.56, 0.44, 0.3, 0.39, 0.33, 0.11, 0.27])),
    Scoring(wones=3.0, fuel=(0.23, 0.21, 0.07, 0.47), wlazy=0.03,
            weights=np.array([0.88, 0.69, 0.53, 0.46, 0.67, 0.45, 0.22, 0.44, 0.26, 0.29])),
]


EXACT_DEPTH = 10               # the first exhaustive tail re-searches the best board's last 10 numbers


def _jitter(cfg: Scoring, rng: random.Random) -> Scoring:
    """A scoring near `cfg`: restarts from the same prefix need different choices to find more."""
    wones = cfg.wones * rng.uniform(0.8, 1.25)
    fuel = tuple(f * rng.uniform(0.7, 1.4) for f in cfg.fuel)
    weights = np.asarray(cfg.weights) * np.exp(np.array([rng.gauss(0, 0.15) for _ in cfg.weights]))
    return replace(cfg, wones=wones, fuel=fuel, weights=weights)


def hunt(n: int, time_limit: float | None, threads: int = 1, seed: int = 0, budget: int = 100000,
         log: TextIO | None = None, report: Report | None = None, width: int = 1000) -> dict:
    """Beam runs until the time limit (None: 60 s); returns the best board found. `budget` caps the
    beam width, `width` is the first one."""
    deadline = Deadline.after(60.0 if time_limit is None else time_limit)
    rng = random.Random(seed)
    best, board, runs, found_at = 1, [[0, 0, 1]], 0, 0.0
    if n < 2:                       # nothing to place; still compile the beam (warm_up uses this)
        b = Beam(2, 4)
        while b.step():
            pass
        return {"best": 1, "board": board, "runs": 0, "seconds": deadline.elapsed(), "found_at": 0.0}
    last_report, pending = 0.0, False

    def flush() -> None:
        nonlocal pending, last_report
        if pending and report is not None:
            report(Incumbent(best, None, board))
        pending, last_report = False, time.monotonic()

    width = max(4, min(width, budget))
    stop = False

    def polish() -> None:
        """Search the best board's ending exhaustively, longer and longer, while that ends within
        its budget (at most 10 s each); an improvement starts again from the shortest ending."""
        nonlocal best, board, found_at, pending, runs
        depth = EXACT_DEPTH
        while best >= 10:
            left = deadline.left()
            if left < 1.0:
                return
            cut = max(3, best - depth)
            out = subtree(n, prefix(board, cut), int(POSITIONS_PER_SECOND * min(left, 10.0)))
            value, found, complete = out.best or 0, out.witness, out.complete
            runs += 1
            if log is not None:
                print(f"{deadline.elapsed():8.1f}s run {runs} exhaustive from {cut}: reached {value}"
                      f"{'' if complete else ' (budget spent)'}", file=log, flush=True)
            if value > best and found:
                best, board, found_at, pending = value, found, deadline.elapsed(), True
                flush()
                depth = EXACT_DEPTH
            elif complete and cut > 3:
                depth += 5
            else:
                return

    while not stop:
        cycle = ([("fresh", cfg) for cfg in SCORINGS] + [("jitter", _jitter(rng.choice(SCORINGS), rng))
                 for _ in SCORINGS] + [("tail", None)] * 2)
        for kind, cfg in cycle:
            if kind == "tail":
                if best < 10:
                    continue
                cut = max(3, best - rng.randint(4, max(5, best // 3)))
                beam = Beam(n, width, seed=rng.randrange(1 << 30), start=prefix(board, cut),
                            scoring=_jitter(rng.choice(SCORINGS), rng))
            else:
                assert cfg is not None
                beam = Beam(n, width, seed=rng.randrange(1 << 30), scoring=cfg)
            runs += 1
            dt, before = 0.0, best
            while True:
                if deadline.passed() or deadline.left() < 1.5 * dt:
                    stop = True
                    break
                t0 = time.monotonic()
                if not beam.step():
                    break
                dt = time.monotonic() - t0
                if beam.k > best:
                    best, board, found_at, pending = beam.k, beam.board(), deadline.elapsed(), True
                    if time.monotonic() - last_report > 0.5:
                        flush()
            flush()
            if log is not None:
                print(f"{deadline.elapsed():8.1f}s run {runs} {kind} width {width}: reached {beam.k}, "
                      f"best {best}", file=log, flush=True)
            if best > before and not stop:
                polish()
            if stop:
                break
        width = min(budget, width * 2)
    return {"best": best, "board": board, "runs": runs, "seconds": deadline.elapsed(),
            "found_at": found_at}


def solve(n: int, params: Any, options: Options, report: Report) -> Result:
    """The record hunt as the native search's answer for n >= 6 (or with --hunt)."""
    out = hunt(n, options.time_limit, options.threads, options.seed, params.budget,
               sys.stderr if options.verbose else None, report)
    return Result(status=Status.FEASIBLE, objective=out["best"], values=out["board"], solution=out["board"],
                  message=f"record hunt: {out['runs']} beam runs, best found after {out['found_at']:.1f} s")


if __name__ == "__main__":
    import argparse
    import json
    ap = argparse.ArgumentParser(description="stepping-stones record hunt with a progress log")
    ap.add_argument("n", type=int)
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=int, default=100000, help="largest beam width")
    ap.add_argument("--width", type=int, default=1000, help="first beam width")
    ap.add_argument("--out", help="write the best board here as JSON")
    a = ap.parse_args()
    res = hunt(a.n, a.time_limit, 1, a.seed, a.budget, sys.stdout, width=a.width)
    print({k: v for k, v in res.items() if k != "board"})
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"n": a.n, "objective": res["best"], "solution": res["board"]}, f)
