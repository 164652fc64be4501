"""Writes docs/cactus-comparison.csv (a model comparison in the row format of docs/usage.md) from real
`solve --model F --solver S --json` runs on tests/models files, for docs/cactus.png:

    python scripts/cactus_comparison.py && python -m workbench plot --from docs/cactus-comparison.csv --out docs
"""
import csv
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

MODELS = ["knapsack_binary.lp", "mixed.lp", "negative_int.lp", "infeasible_int.lp", "objsense_max.mps",
          "fixed_format.mps", "ranged_equality.mps", "semicontinuous.lp", "sos.lp", "new_format.wcnf",
          "old_format.wcnf"]
SOLVERS = ["highs", "cbc", "cpsat", "scip", "glpk", "lpsolve"]
COLUMNS = ["model", "model_sha256", "kind", "solver", "options", "repeat", "seed", "status", "value", "bound",
           "proven", "verified", "seconds", "time_limit", "threads", "solver_version", "incumbents", "timestamp",
           "message", "command"]
LIMIT = 20


def row(model: Path, solver: str) -> dict:
    command = [sys.executable, "-m", "workbench", "solve", "--model", str(model), "--solver", solver,
               "--time-limit", str(LIMIT), "--json"]
    done = subprocess.run(command, capture_output=True, text=True)
    rec = json.loads(done.stdout) if done.stdout.strip() else {"status": "error", "message": done.stderr.strip()}
    value = rec.get("objective")
    return {"model": str(model), "model_sha256": hashlib.sha256(model.read_bytes()).hexdigest(),
            "kind": model.suffix[1:], "solver": solver, "options": "{}", "repeat": 1, "seed": 0,
            "status": rec["status"], "value": "" if value is None else value,
            "bound": "" if rec.get("bound") is None else rec["bound"], "proven": rec.get("proven", False),
            "verified": rec.get("verified", False), "seconds": rec.get("seconds", ""), "time_limit": LIMIT,
            "threads": 2, "solver_version": rec.get("solver_version", ""), "incumbents": "[]",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S"), "message": rec.get("message", "")[:200],
            "command": " ".join(["python", *command[1:]])}


if __name__ == "__main__":
    with open(Path(__file__).resolve().parents[1] / "docs" / "cactus-comparison.csv", "w", newline="") as f:
        out = csv.DictWriter(f, COLUMNS)
        out.writeheader()
        for name in MODELS:
            model = Path("tests/models") / name
            for solver in (["maxsat", "maxsat:cd195", "cpsat"] if model.suffix == ".wcnf" else SOLVERS):
                out.writerow(row(model, solver))
