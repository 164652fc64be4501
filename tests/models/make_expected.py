"""Writes expected.csv: each corpus file's optimum from outside tools, never from the workbench.

LP/MPS: HiGHS (highspy, run directly) and SCIP (pyscipopt reading the file itself); glpsol where its
readers take the file; the two or three must agree. WCNF: brute force over every assignment, the
weights read as written. MiniZinc: minizinc with Gecode. Files the workbench must refuse keep their
true optimum (status `refused`) from the tool that takes the feature. Run from the repository root:
`python tests/models/make_expected.py` (a few seconds).
"""
from __future__ import annotations

import csv
import gzip
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
UNBOUNDED = {"infeasible or unbounded": "unbounded", "inforunbd": "unbounded"}   # read with the primal feasible
REFUSED = {"quadratic.lp": "quadratic", "semicontinuous.lp": "semi-continuous", "sos.lp": "SOS"}


def plain(path: Path, folder: str) -> Path:
    if path.suffix != ".gz":
        return path
    out = Path(folder) / path.stem
    with gzip.open(path, "rb") as a, open(out, "wb") as b:
        shutil.copyfileobj(a, b)
    return out


def by_highs(path: Path) -> tuple[str, float | None]:
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    if h.readModel(str(path)) == highspy.HighsStatus.kError:
        return "unreadable", None
    h.run()
    status = h.modelStatusToString(h.getModelStatus()).lower()
    return status, h.getInfo().objective_function_value if status == "optimal" else None


def by_scip(path: Path) -> tuple[str, float | None]:
    import pyscipopt

    m = pyscipopt.Model()
    m.hideOutput()
    try:
        m.readProblem(str(path))
    except Exception:
        return "unreadable", None
    m.optimize()
    status = m.getStatus()
    return status, m.getObjVal() if status == "optimal" else None


def by_glpsol(path: Path) -> tuple[str, float | None]:
    flag = "--lp" if path.suffix == ".lp" else "--mps" if "FIXED" in path.read_text()[:200] else "--freemps"
    out = subprocess.run(["glpsol", flag, str(path), "-o", "/dev/stdout"], capture_output=True, text=True).stdout
    status = re.search(r"^Status:\s+(.*)$", out, re.M)
    objective = re.search(r"^Objective:\s+\S+ = (\S+)", out, re.M)
    if status is not None and status.group(1) in ("INTEGER EMPTY", "EMPTY"):
        return "infeasible", None
    if status is None or "OPTIMAL" not in status.group(1):
        return "unreadable" if status is None else status.group(1).lower(), None
    return "optimal", float(objective.group(1)) if objective else None


def by_brute_force(path: Path) -> tuple[str, float | None]:
    hard, soft, nv = [], [], 0
    for line in path.read_text().splitlines():
        parts = line.split()
        if not parts or parts[0] in ("c", "p"):
            continue
        lits = [int(x) for x in parts[1:-1]]
        nv = max([nv, *map(abs, lits)])
        top = None
        if parts[0] != "h":
            top = next((int(p.split()[-1]) for p in path.read_text().splitlines() if p.startswith("p wcnf")), None)
        if parts[0] == "h" or (top is not None and float(parts[0]) >= top):
            hard.append(lits)
        else:
            soft.append((lits, float(parts[0])))
    best = None
    for bits in itertools.product([False, True], repeat=nv):
        def sat(c):
            return any(bits[abs(x) - 1] == (x > 0) for x in c)
        if all(sat(c) for c in hard):
            cost = sum(w for c, w in soft if not sat(c))
            best = cost if best is None else min(best, cost)
    return ("optimal", best) if best is not None else ("infeasible", None)


def by_minizinc(path: Path) -> tuple[str, float | None]:
    out = subprocess.run(["minizinc", "--solver", "gecode", "--output-objective", "--output-mode", "dzn",
                          str(path)], capture_output=True, text=True).stdout
    found = re.findall(r"_objective = (-?\d+)", out)
    return ("optimal", float(found[-1])) if "==========" in out else ("unknown", None)


def main() -> int:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(HERE.iterdir()):
            kind = path.name.removesuffix(".gz").rsplit(".", 1)[-1]
            if kind not in ("lp", "mps", "wcnf", "mzn"):
                continue
            if kind == "wcnf":
                found = {"brute force": by_brute_force(path)}
            elif kind == "mzn":
                found = {"minizinc (gecode)": by_minizinc(path)}
            else:
                readable = plain(path, tmp)
                found = {"highspy": by_highs(readable), "pyscipopt": by_scip(readable)}
                if path.name not in REFUSED:
                    found["glpsol"] = by_glpsol(readable)
            agreeing = {tool: (UNBOUNDED.get(s, s), o) for tool, (s, o) in found.items()
                        if UNBOUNDED.get(s, s) in ("optimal", "infeasible", "unbounded")}
            answers = {(s, None if o is None else round(o, 5)) for s, o in agreeing.values()}
            if len(answers) != 1:
                print(f"{path.name}: tools disagree or none answered: {found}", file=sys.stderr)
                return 1
            (status, objective), = answers
            tools = list(agreeing)
            rows.append({"file": path.name, "status": "refused" if path.name in REFUSED else status,
                         "objective": "" if objective is None else f"{objective:.10g}",
                         "source": " = ".join(tools),
                         "note": REFUSED.get(path.name, "")})
    with open(HERE / "expected.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, ["file", "status", "objective", "source", "note"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"{len(rows)} files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.chdir(HERE.parent.parent)
    sys.exit(main())
