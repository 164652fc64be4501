"""Before/after timing of the layout change (issue 16): the same commands in two checkouts, run
alternately so that both see the same load, each record's own seconds kept in a CSV.

    python scripts/layout_timing.py OLD_CHECKOUT NEW_CHECKOUT [REPEATS] > scripts/layout-timing.csv
"""
from __future__ import annotations

import json
import subprocess
import sys

CASES = [
    "solve squares --n 22 --solver search",
    "solve stones --n 4 --solver search",
    "count percolation --n 8 --formulation transfer",
    "count percolation --n 100",
    "solve enigma144 --n 10 --solver maxsat",
    "solve enigma144 --n 8 --solver highs",
    "solve magic15",
    "count magic15 --formulation squares --symmetry --solver cpsat",
]


def seconds(checkout: str, case: str) -> tuple[float, str]:
    out = subprocess.run([f"{checkout}/.venv/bin/python", "-m", "workbench", *case.split(), "--json",
                          "--time-limit", "600"], cwd=checkout, capture_output=True, text=True, check=True).stdout
    record = json.loads(out)
    value = record["count"] if record["count"] is not None else record["objective"]
    return record["seconds"], f"{record['status']} {value}"


def main() -> None:
    old, new = sys.argv[1:3]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    print("case,checkout,repeat,seconds,answer")
    for case in CASES:
        for repeat in range(repeats):
            for label, checkout in (("before", old), ("after", new)) if repeat % 2 == 0 else \
                    (("after", new), ("before", old)):
                s, answer = seconds(checkout, case)
                print(f"{case},{label},{repeat},{s:.2f},{answer}", flush=True)


if __name__ == "__main__":
    main()
