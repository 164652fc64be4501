"""The probes of issue 43 (reliability, round two), with variants: run from the repository root,
`python scripts/reliability_probes2.py [NAME-FILTER]`; prints held / broke / misled per probe and the
totals.

Each probe runs the real CLI (or the API) in a subprocess, in a scratch folder, so results/ and
runs/ are untouched (journals and the hunt store go to a scratch WORKBENCH_JOURNALS). `broke`: a
traceback, a lost row or result, a wrong answer from an export; `misled`: it ended calmly but said
or kept something false, or passed in silence what docs/usage.md promises to refuse.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
SCRATCH = Path(tempfile.mkdtemp(prefix="probes2-"))
ENV = dict(os.environ, PYTHONPATH=str(ROOT), WORKBENCH_JOURNALS=str(SCRATCH / "journals"))
HELD, BROKE, MISLED, SKIPPED = "held", "BROKE", "MISLED", "skipped"
Verdict = str


def wb(*args: str, timeout: float = 300, cwd: Path = SCRATCH) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "workbench", *args], capture_output=True, text=True, cwd=cwd, env=ENV,
                          timeout=timeout)


def crashed(p: subprocess.CompletedProcess) -> bool:
    return "Traceback" in p.stderr or "Error:" in p.stderr.split("workbench: error:")[0]


def refused(p: subprocess.CompletedProcess, *words: str) -> Verdict:
    """Exit 2 with one line (naming `words`), or what went wrong instead."""
    if crashed(p):
        return BROKE
    lines = p.stderr.strip().splitlines()
    if p.returncode == 2 and len(lines) == 1 and all(w.lower() in lines[0].lower() for w in words):
        return HELD
    return MISLED


def quick_refusal(*args: str, words: tuple[str, ...] = (), within: float = 20) -> Verdict:
    """Refused at once: before anything is solved."""
    began = time.time()
    p = wb(*args)
    verdict = refused(p, *words)
    return verdict if verdict != HELD or time.time() - began < within else MISLED


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f)) if path.exists() else []


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def signal_worker(p: subprocess.Popen, sig: int, after: float) -> bool:
    """Send `sig` to the worker (the parent's child) once it has run `after` seconds."""
    time.sleep(after)
    kids = children(p.pid)
    for kid in kids:
        os.kill(kid, sig)
    return bool(kids)


# -- 1. a crashed or stalled backend --------------------------------------------------------

def compare_kill_highs() -> Verdict:
    out = SCRATCH / "compare-kill.csv"
    p = subprocess.Popen([PY, "-m", "workbench", "compare", "enigma144", "--n", "8", "--solvers", "highs,maxsat",
                          "--time-limit", "40", "--threads", "1", "-o", str(out)], cwd=SCRATCH, env=ENV,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = signal_worker(p, signal.SIGKILL, 6)
    _, err = p.communicate(timeout=300)
    if "Traceback" in err or not out.exists():
        return BROKE
    got = {r["solver"]: r for r in rows(out)}
    if not killed or set(got) != {"highs", "maxsat"} or got["maxsat"]["objective"] != "50":
        return BROKE
    return HELD if got["highs"]["status"] in ("error", "feasible", "unknown") else MISLED


def solve_signal(sig: int, time_limit: str, after: float) -> Callable[[], Verdict]:
    def probe() -> Verdict:
        p = subprocess.Popen([PY, "-m", "workbench", "solve", "enigma144", "--n", "8", "--solver", "highs",
                              "--time-limit", time_limit, "--threads", "1", "--json"], cwd=SCRATCH, env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        signal_worker(p, sig, after)
        out, err = p.communicate(timeout=300)
        if "Traceback" in err or not out.strip().startswith("{"):
            return BROKE
        rec = json.loads(out)
        if rec["status"] == "optimal" or (rec["bound"] is not None and not isinstance(rec["bound"], (int, float))):
            return MISLED
        return HELD if rec["status"] in ("error", "feasible", "unknown") else MISLED
    return probe


def table_kill_highs() -> Verdict:
    out = SCRATCH / "table-kill.csv"
    p = subprocess.Popen([PY, "-m", "workbench", "table", "enigma144", "--n", "3,8,4", "--solver", "highs",
                          "--time-limit", "40", "--threads", "1", "-o", str(out)], cwd=SCRATCH, env=ENV,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    signal_worker(p, signal.SIGKILL, 7)
    _, err = p.communicate(timeout=300)
    if "Traceback" in err:
        return BROKE
    ns = sorted(r["n"] for r in rows(out))
    return HELD if {"3", "4"} <= set(ns) and p.returncode == 0 else BROKE


# -- 2. exports ---------------------------------------------------------------------------

def optimum(*args: str) -> float | None:
    p = wb("solve", *args, "--json", "--time-limit", "60")
    return json.loads(p.stdout)["objective"] if p.stdout.startswith("{") else None


def glpsol(path: Path, fmt: str) -> float | None:
    flag = {"lp": "--lp", "mps": "--freemps"}[fmt]
    sol = path.with_suffix(".sol")
    p = subprocess.run(["glpsol", flag, str(path), "-o", str(sol)], capture_output=True, text=True, timeout=120)
    match = re.search(r"Objective:\s+\S+\s*=\s*(-?[\d.e+]+)", sol.read_text() if sol.exists() else p.stdout)
    return float(match.group(1)) if match else None


def lp_solve(path: Path) -> float | None:
    p = subprocess.run(["lp_solve", "-fmps", str(path), "-S3"], capture_output=True, text=True, timeout=120)
    match = re.search(r"objective function:\s*(-?[\d.e+]+)", p.stdout)
    return float(match.group(1)) if match else None


def highs(path: Path, fmt: str) -> float | None:
    code = ("import highspy, sys\nh = highspy.Highs()\nh.setOptionValue('output_flag', False)\n"
            "h.readModel(sys.argv[1])\nh.run()\nprint('objective', h.getInfo().objective_function_value)")
    p = subprocess.run([PY, "-c", code, str(path)], capture_output=True, text=True, timeout=120)
    match = re.search(r"objective (-?[\d.e+]+)", p.stdout)
    return float(match.group(1)) if match else None


def round_trip(puzzle: str, n: str, fmt: str, reader: Callable[[Path, str], float | None] | None = None,
               *flags: str) -> Callable[[], Verdict]:
    def probe() -> Verdict:
        path = SCRATCH / f"{puzzle}-{n}-{'-'.join(flags)}.{fmt}"
        p = wb("export", puzzle, "--n", n, "--format", fmt, "-o", str(path), *flags)
        if p.returncode != 0:
            return BROKE
        theirs = (reader or glpsol)(path, fmt)
        ours = optimum(puzzle, "--n", n, *flags)
        return HELD if theirs is not None and ours is not None and abs(theirs - ours) < 1e-6 else BROKE
    return probe


def mzn_onto_dzn() -> Verdict:
    path = SCRATCH / "m.dzn"
    p = wb("export", "enigma144", "--n", "3", "--format", "mzn", "-o", str(path))
    if p.returncode == 2:
        return refused(p)
    text = path.read_text() if path.exists() else ""
    return HELD if "solve" in text else BROKE


# -- 3. results files ---------------------------------------------------------------------

def table_file(name: str, ns: str = "1..3") -> Path:
    path = SCRATCH / name
    path.unlink(missing_ok=True)
    wb("table", "enigma144", "--n", ns, "-o", str(path))
    return path


def kept(path: Path, before: list[dict[str, str]]) -> bool:
    """Every row of `before` is still in the file, as it was (not recomputed)."""
    after = {(r["n"], r["timestamp"]) for r in rows(path)}
    return all((r["n"], r["timestamp"]) in after for r in before)


def no_final_newline() -> Verdict:
    path = table_file("nl.csv")
    before = rows(path)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    p = wb("table", "enigma144", "--n", "1..4", "-o", str(path))
    if crashed(p):
        return BROKE
    return HELD if kept(path, before) and sorted(r["n"] for r in rows(path)) == ["1", "2", "3", "4"] else BROKE


def widened_header() -> Verdict:
    """An older file (without the last column) holding, besides its own rows, one row a newer
    version appended whole: widening it to the new columns keeps every row."""
    path = table_file("old.csv")
    before = rows(path)
    lines = list(csv.reader(path.read_text().splitlines()))
    old = io.StringIO()
    csv.writer(old, lineterminator="\n").writerows(line[:-1] if i < 3 else line for i, line in enumerate(lines))
    path.write_text(old.getvalue())                     # the header and rows 1, 2 without `solution`
    p = wb("table", "enigma144", "--n", "1..4", "-o", str(path))
    if crashed(p):
        return BROKE
    return HELD if kept(path, before) and {r["n"] for r in rows(path)} == {"1", "2", "3", "4"} else BROKE


def foreign_in_showcase() -> Verdict:
    folder = SCRATCH / "show"
    folder.mkdir(exist_ok=True)
    mine = folder / "summary.csv"
    mine.write_text("name,age\nada,36\n")
    p = wb("showcase", "--puzzle", "magic15", "--results-dir", str(folder), "--time-limit", "30")
    if crashed(p):
        return BROKE
    return HELD if mine.read_text() == "name,age\nada,36\n" else BROKE


def foreign_table() -> Verdict:
    path = SCRATCH / "foreign.csv"
    path.write_text("a,b,c\n1,2,3\n4,5,6")
    p = wb("table", "enigma144", "--n", "3", "-o", str(path))
    if crashed(p):
        return BROKE
    return (refused(p, str(path)) if path.read_text() == "a,b,c\n1,2,3\n4,5,6" else BROKE)


def edited_row(field: str, value: str) -> Callable[[], Verdict]:
    def probe() -> Verdict:
        path = table_file(f"edit-{field}-{abs(hash(value))}.csv")
        data = rows(path)
        data[1][field] = value
        with path.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(data[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(data)
        p = wb("table", "enigma144", "--n", "1..5", "-o", str(path))
        if crashed(p):
            return BROKE
        got = rows(path)
        fives = [r for r in got if r["n"] == "5"]
        good_two = [r for r in got if r["n"] == "2" and r["objective"] == "4" and r["status"] == "optimal"]
        if not fives or len(got) < 5:
            return BROKE
        return HELD if good_two and "N=2: 4" in p.stdout else MISLED
    return probe


# -- 4. refused before the work -------------------------------------------------------------

def certify_squares() -> Verdict:
    return quick_refusal("solve", "squares", "--n", "26", "--solver", "search", "--certify", "30",
                         words=("--certify",), within=15)


def showcase_onto_file() -> Verdict:
    f = SCRATCH / "afile"
    f.write_text("x")
    return quick_refusal("showcase", "--puzzle", "magic15", "--results-dir", str(f), words=(str(f),))


def showcase_read_only() -> Verdict:
    folder = SCRATCH / "ro"
    folder.mkdir(exist_ok=True)
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):       # root writes anywhere: the probe says nothing then
            return SKIPPED
        return quick_refusal("showcase", "--puzzle", "magic15", "--results-dir", str(folder), words=(str(folder),))
    finally:
        folder.chmod(0o755)


# -- 5. verify recomputes every claim ---------------------------------------------------------

def record(*args: str) -> dict:
    p = wb(*args, "--json")
    return json.loads(p.stdout)


def verify_edited(args: tuple[str, ...], puzzle: str, extra: bool = False, **changes) -> Callable[[], Verdict]:
    """A record edited (`extra`: one more element in its solution, a valid but worse one), with no
    match field: verify must find the false claim from the published value itself."""
    def probe() -> Verdict:
        rec = record(*args)
        if extra:
            sys.path.insert(0, str(ROOT))
            from workbench.puzzles import get
            p = get(puzzle)
            built = p.build(rec["n"], rec["formulation"], p.params(None))
            every = built.decode([1] * built.model.n_elements)
            rec["solution"].append(next(m for m in every if m not in rec["solution"]))
        rec.update(changes)
        rec.pop("match", None)
        path = SCRATCH / f"v-{puzzle}-{abs(hash(json.dumps(changes)))}.json"
        path.write_text(json.dumps(rec))
        p = wb("verify", puzzle, str(path))
        if crashed(p):
            return BROKE
        return HELD if p.returncode == 1 and "FALSE CLAIM" in p.stdout else MISLED
    return probe


def verify_huge_stones() -> Verdict:
    rec = record("solve", "stones", "--n", "2")
    rec.update(objective=10**12, bound=10**12)
    path = SCRATCH / "v-stones-huge.json"
    path.write_text(json.dumps(rec))
    p = wb("verify", "stones", str(path))
    if crashed(p):
        return BROKE
    return HELD if p.returncode in (1, 2) else MISLED


def verify_huge_board() -> Verdict:
    rec = record("solve", "stones", "--n", "2")
    rec["solution"][-1][2] = 10**12
    path = SCRATCH / "v-stones-board.json"
    path.write_text(json.dumps(rec))
    p = wb("verify", "stones", str(path))
    return BROKE if crashed(p) else HELD if p.returncode in (1, 2) else MISLED


# -- 6. the hunt's record store ----------------------------------------------------------------

def store() -> Path:
    path = SCRATCH / "journals" / "hunts" / "stones.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def hunt_bad_entry() -> Verdict:
    path = store()
    path.write_text(json.dumps({"6": {"value": 999, "board": [[0, 0, 1]], "found": "x", "by": "hand"}}))
    p = wb("solve", "stones", "--n", "6", "--time-limit", "8", "--json", "--set", "sweep=0")
    if crashed(p):
        return BROKE
    data = json.loads(path.read_text())
    return HELD if data.get("6", {}).get("value") != 999 else MISLED


def hunt_garbage() -> Verdict:
    path = store()
    path.write_text("{not json")
    p = wb("solve", "stones", "--n", "6", "--time-limit", "5", "--set", "sweep=0")
    text = p.stdout + p.stderr
    if "Traceback" in text:
        return BROKE
    return HELD if str(path) in text and "JSONDecodeError" not in text else MISLED


# -- 7. unclear ends --------------------------------------------------------------------------

def broken_journal() -> Verdict:
    folder = SCRATCH / "journals"
    wb_p = subprocess.Popen([PY, "-m", "workbench", "solve", "stones", "--n", "4", "--time-limit", "60"],
                            cwd=SCRATCH, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)
    wb_p.kill()
    wb_p.communicate()
    journals = list(folder.glob("*.sqlite"))
    if not journals:
        return BROKE
    for j in journals:
        j.write_bytes(b"garbage" * 100)
        for suffix in ("-wal", "-shm"):
            Path(f"{j}{suffix}").unlink(missing_ok=True)
    p = wb("solve", "stones", "--n", "4", "--time-limit", "20")
    text = p.stdout + p.stderr
    if "Traceback" in text:
        return BROKE
    return HELD if "--fresh" in text and str(journals[0]) in text else MISLED


def unreachable_scheduler() -> Verdict:
    p = wb("solve", "stones", "--n", "3", "--cluster", "tcp://127.0.0.1:1", "--time-limit", "5")   # n = 4: broken above
    text = p.stdout + p.stderr
    if "Traceback" in text:
        return BROKE
    return HELD if "scheduler" in text.lower() or "127.0.0.1:1" in text else MISLED


def api(code: str) -> Verdict:
    p = subprocess.run([PY, "-c", "import workbench\n" + code], capture_output=True, text=True, cwd=SCRATCH,
                       env=ENV, timeout=120)
    if p.returncode == 0 and p.stdout.strip() == "refused":
        return HELD
    return BROKE if "Traceback" in p.stderr and "BadInput" not in p.stderr else MISLED


def api_refuses(call: str) -> Callable[[], Verdict]:
    """Refused with BadInput (looked up by name: whether it is exported is a probe of its own)."""
    return lambda: api(f"try:\n    {call}\n    print('ran')\nexcept Exception as e:\n"
                       f"    print('refused' if type(e).__name__ == 'BadInput' else type(e).__name__)")


def plot_folder(setup: Callable[[Path], None]) -> Callable[[], Verdict]:
    """An empty or odd results folder: one line naming it (exit 2), or the pictures it can give."""
    def probe() -> Verdict:
        folder = Path(tempfile.mkdtemp(dir=SCRATCH))
        setup(folder)
        p = wb("plot", "--results-dir", str(folder), "--out", str(folder / "out"))
        if p.returncode == 0:
            return HELD
        return refused(p, str(folder)) if "unrecognized" not in p.stderr else MISLED
    return probe


def plot_results_copy() -> Verdict:
    """plot --results-dir on a copy of results/: the pictures, drawn from there."""
    folder = SCRATCH / "results-copy"
    shutil.copytree(ROOT / "results", folder, dirs_exist_ok=True)
    p = wb("plot", "--results-dir", str(folder), "--out", str(SCRATCH / "plots"))
    if crashed(p):
        return BROKE
    return HELD if p.returncode == 0 and (SCRATCH / "plots" / "time-vs-n.png").exists() else MISLED


PROBES: dict[str, Callable[[], Verdict]] = {
    # 1. a crashed or stalled backend
    "compare highs,maxsat, highs worker SIGKILLed at 6 s: both rows": compare_kill_highs,
    "solve highs, worker SIGKILLed at 5 s": solve_signal(signal.SIGKILL, "40", 5),
    "solve highs, worker SIGSTOPped, --time-limit 5": solve_signal(signal.SIGSTOP, "5", 3),
    "table highs 3,8,4, worker SIGKILLed in n = 8: rows 3 and 4": table_kill_highs,
    # 2. exports
    "export stones n=1 mps (max, constant): lp_solve's optimum": round_trip("stones", "1", "mps",
                                                                           lambda p, f: lp_solve(p)),
    "export stones n=1 lp (max, constant): glpsol's optimum": round_trip("stones", "1", "lp"),
    "export stones n=2 box 3 mps (max, constant): HiGHS's reader": round_trip(
        "stones", "2", "mps", highs, "--solver", "highs", "--box", "3"),
    "export stones n=2 box 3 lp (max, constant): glpsol's optimum": round_trip(
        "stones", "2", "lp", None, "--solver", "highs", "--box", "3"),
    "export enigma144 n=4 mps (min): lp_solve's optimum": round_trip("enigma144", "4", "mps",
                                                                     lambda p, f: lp_solve(p), "--solver", "highs"),
    "export squares n=5 lp (maxsat offset): glpsol's optimum": round_trip("squares", "5", "lp", None,
                                                                          "--solver", "maxsat"),
    "export mzn -o m.dzn keeps its model": mzn_onto_dzn,
    # 3. results files
    "table: a complete last row without a final newline is kept": no_final_newline,
    "table: widening an older file keeps every row": widened_header,
    "showcase: a foreign summary.csv is left alone": foreign_in_showcase,
    "table -o a foreign CSV: refused, file untouched": foreign_table,
    "table: a row edited to a non-number": edited_row("objective", "abc"),
    "table: a row edited to bad JSON": edited_row("solution", "[[1,"),
    "table: a row edited to 1e400": edited_row("bound", "1e400"),
    "table: a row edited to a wrong value is redone": edited_row("objective", "3"),
    "table: a row edited to a wrong status is redone": edited_row("status", "banana"),
    "table: a row edited to a huge count": edited_row("count", "9" * 5000),
    # 4. refused before the work
    "solve squares n=26 --certify: refused first": certify_squares,
    "showcase --results-dir a file: refused first": showcase_onto_file,
    "showcase --results-dir read-only: refused first": showcase_read_only,
    "count percolation --show 10^12: refused": lambda: quick_refusal("count", "percolation", "--n", "4", "--show",
                                                                     "1000000000000", words=("--show",)),
    "count percolation --show -1: refused": lambda: quick_refusal("count", "percolation", "--n", "4", "--show", "-1",
                                                                  words=("--show",)),
    "solve --show: refused (count only)": lambda: quick_refusal("solve", "percolation", "--n", "4", "--show", "2"),
    # 5. verify
    "verify percolation count 131, no match field": verify_edited(("count", "percolation", "--n", "4"),
                                                                  "percolation", count=131),
    "verify enigma144 'optimal 30' (29 proven), no match": verify_edited(
        ("solve", "enigma144", "--n", "6", "--solver", "maxsat"), "enigma144", extra=True, objective=30, bound=30, status="optimal"),
    "verify stones value 10^12": verify_huge_stones,
    "verify stones board holding 10^12": verify_huge_board,
    # 6. the hunt's store
    "hunt: an unreplayable stored entry does not block records": hunt_bad_entry,
    "hunt: a garbage store gives one line with its path": hunt_garbage,
    # 7. unclear ends
    "broken journal: one line with its path and --fresh": broken_journal,
    "--cluster tcp://head:notaport refused at once": lambda: quick_refusal(
        "solve", "stones", "--n", "4", "--cluster", "tcp://head:notaport", words=("--cluster",)),
    "--cluster tcp://head (no port) refused at once": lambda: quick_refusal(
        "solve", "stones", "--n", "4", "--cluster", "tcp://head", words=("--cluster",)),
    "--cluster local:0 refused": lambda: quick_refusal("solve", "stones", "--n", "4", "--cluster", "local:0"),
    "unreachable scheduler is named": unreachable_scheduler,
    "--cluster with highs: refused": lambda: quick_refusal("solve", "enigma144", "--n", "3", "--solver", "highs",
                                                           "--cluster", "local:2", words=("--cluster",)),
    "--cluster with magic15: refused": lambda: quick_refusal("solve", "magic15", "--cluster", "local:2",
                                                             words=("--cluster",)),
    "--fresh with highs: refused": lambda: quick_refusal("solve", "enigma144", "--n", "3", "--solver", "highs",
                                                         "--fresh", words=("--fresh",)),
    "API time_limit=-5 refused": api_refuses("workbench.solve('enigma144', 3, time_limit=-5)"),
    "API threads=-1 refused": api_refuses("workbench.solve('enigma144', 3, threads=-1)"),
    "API solver=123 refused": api_refuses("workbench.solve('enigma144', 3, solver=123)"),
    "API time_limit=nan refused": api_refuses("workbench.solve('enigma144', 3, time_limit=float('nan'))"),
    "API n='3' refused": api_refuses("workbench.solve('enigma144', '3')"),
    "API show=-1 refused": api_refuses("workbench.count('percolation', 4, show=-1)"),
    "API cluster with highs refused": api_refuses("workbench.solve('enigma144', 3, solver='highs', cluster='local:2')"),
    "API exception types exported": lambda: api(
        "print('refused' if all(issubclass(getattr(workbench, e, int), Exception) for e in "
        "('BadInput', 'UnknownSolver', 'Unavailable', 'JournalBusy')) else 'no')"),
    "plot --results-dir, empty folder": plot_folder(lambda f: None),
    "plot --results-dir, odd files": plot_folder(lambda f: ((f / "bench.csv").write_text("a,b\n1"),
                                                            (f / "enigma144.csv").write_text("\x00\x01garbage"))),
    "plot --results-dir a copy of results/": plot_results_copy,
    "plot --results-dir a missing folder": lambda: refused(wb("plot", "--results-dir", str(SCRATCH / "nope"),
                                                              "--out", str(SCRATCH / "po")), "no results folder"),
}


def main(probes: dict[str, Callable[[], Verdict]]) -> None:
    """Run the probes whose names hold the filter (argv[1]), a line each, then the totals."""
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    tally = {HELD: 0, BROKE: 0, MISLED: 0, SKIPPED: 0}
    for name, probe in probes.items():
        if only not in name:
            continue
        began = time.time()
        try:
            verdict = probe()
        except Exception as e:           # a probe that crashes counts as broken
            verdict = BROKE
            name += f" ({type(e).__name__}: {e})"
        tally[verdict] += 1
        print(f"{verdict:6}  {name}  ({time.time() - began:.1f} s)", flush=True)
    print(f"{tally[HELD]} held, {tally[BROKE]} broke, {tally[MISLED]} misled, of {sum(tally.values())}"
          + (f" ({tally[SKIPPED]} skipped: not meaningful as root)" if tally[SKIPPED] else ""))


if __name__ == "__main__":
    main(PROBES)
