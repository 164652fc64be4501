"""python -m workbench.puzzles.stones.hunt N: a hunt with its log on stdout, its boards checked."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..check import check
from .beam import FILTERS
from .lookahead import LOOKAHEAD_WIDTH
from .plan import HuntOptions
from .run import hunt, warm_up
from .sweep import SWEEP_SHARE


def main() -> None:
    """The hunt from the command line (scripts/device_check.sh runs it): its log, then each count's board."""
    ap = argparse.ArgumentParser(description="stepping-stones record hunt with a progress log")
    ap.add_argument("n", type=int)
    ap.add_argument("--nmax", type=int, default=None, help="largest number of ones in the beam (default n)")
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--cluster", default=None, help="local:K, tcp://HOST:PORT or a scheduler file")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--width", type=int, default=200000, help="largest beam width")
    ap.add_argument("--filter", default="near", choices=sorted(FILTERS))
    ap.add_argument("--lookahead", type=int, default=LOOKAHEAD_WIDTH, help="first lookahead width (0: none)")
    ap.add_argument("--sweep", type=float, default=None,
                    help=f"the class sweep's share of the worker time (default {SWEEP_SHARE} for n = 6)")
    ap.add_argument("--out", help="write the best board per ones count here as JSON (checked)")
    a = ap.parse_args()
    warm_up()
    recs, nruns = hunt(a.n, a.time_limit, HuntOptions(a.threads, a.seed, a.width, a.filter, a.nmax, a.cluster,
                                                         a.lookahead, a.sweep), print)
    found = {u: (v, b) for u, (v, b) in enumerate(zip(recs.value, recs.board)) if b is not None}
    for u, (v, b) in found.items():
        print(f"{u} ones: {v} ({check(u, b).message})")
    if a.out:
        Path(a.out).write_text(json.dumps({str(u): {"objective": v, "solution": b} for u, (v, b) in found.items()}))


if __name__ == "__main__":
    main()
