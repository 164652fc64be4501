"""The probes of issue 17, as far as its text describes them: run from the repository root,
`python scripts/reliability_probes.py [NAME-FILTER]`; prints held / broke per probe and the totals.

Each probe runs the real CLI in a subprocess (in a scratch folder, so results/ is untouched) and
states what the README promises. Heavier ones (n = 56 squares, a cold numba cache) take a minute.
"""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
SCRATCH = Path(tempfile.mkdtemp(prefix="probes-"))
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def wb(*args: str, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "workbench", *args], capture_output=True, text=True, cwd=SCRATCH,
                          env=env or ENV, timeout=timeout)


def one_line_2(*args: str) -> bool:
    p = wb(*args)
    return p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def solve_json(*args: str, env: dict | None = None) -> dict:
    p = wb("solve", *args, "--json", env=env)
    return json.loads(p.stdout) if p.stdout.strip().startswith("{") else {"status": "crash", "stderr": p.stderr}


def rows(path: Path) -> list[dict]:
    return list(csv.DictReader(path.open())) if path.exists() else []


def good_record() -> Path:
    path = SCRATCH / "e4.json"
    path.write_text(json.dumps(solve_json("enigma144", "--n", "4")))
    return path


def edited(**changes) -> Path:
    rec = json.loads(good_record().read_text())
    rec.update(changes)
    path = SCRATCH / "edited.json"
    path.write_text(json.dumps(rec))
    return path


def verify_exit(puzzle: str, path: Path) -> int:
    return wb("verify", puzzle, str(path)).returncode


# -- the probes ----------------------------------------------------------------------------------

def squares_56() -> bool:
    r = solve_json("squares", "--n", "56", "--solver", "search", "--time-limit", "5")
    return r["status"] in ("feasible", "optimal") and r["verified"] and "checker rejected" not in r["message"]


def stones_5() -> bool:
    started = time.time()
    r = solve_json("stones", "--n", "5", "--solver", "search", "--time-limit", "5")
    return r["verified"] and r["solution"] and "killed" not in r["message"] and time.time() - started < 60


def cold(*args: str) -> bool:
    env = dict(ENV, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="cold-"))
    r = solve_json(*args, env=env)
    return r["status"] not in ("unknown", "error", "crash") and r["verified"]


def table_unknown_not_done() -> bool:
    out = SCRATCH / "u.csv"
    wb("table", "stones", "--n", "5", "--time-limit", "1", "-o", str(out))
    return all(r["status"] in ("optimal", "feasible") and r["verified"] == "True" for r in rows(out))


def short_write() -> bool:
    return subprocess.run([PY, "-m", "pytest", "-q", "tests/test_faults.py", "-k", "short_write or torn or full_disk"],
                          cwd=ROOT, capture_output=True).returncode == 0


def keys_start() -> bool:
    out = SCRATCH / "m.csv"
    wb("table", "magic15", "--start", "8 2 6 11 12 15 13 1 7 0 9 4 3 5 10 14", "-o", str(out))
    p = wb("table", "magic15", "--start", "1 15 14 4 12 6 7 9 8 10 11 5 13 3 2 0", "-o", str(out))
    return "skipped" not in p.stdout and len(rows(out)) == 2


def keys_exact() -> bool:
    out = SCRATCH / "s6.csv"
    wb("table", "stones", "--n", "6", "--time-limit", "2", "-o", str(out))
    p = wb("table", "stones", "--n", "6", "--formulation", "exact", "--time-limit", "2", "-o", str(out))
    return "skipped" not in p.stdout and len(rows(out)) == 2


def parent_kill() -> bool:
    p = subprocess.Popen([PY, "-m", "workbench", "solve", "stones", "--n", "5", "--time-limit", "60"], cwd=SCRATCH,
                         env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    children = Path(f"/proc/{p.pid}/task/{p.pid}/children").read_text().split()
    p.send_signal(signal.SIGKILL)
    p.communicate()
    time.sleep(1)
    alive = [c for c in children if Path(f"/proc/{c}").exists()
             and Path(f"/proc/{c}/stat").read_text().split()[2] != "Z"]
    for c in alive:
        os.kill(int(c), signal.SIGKILL)
    return bool(children) and not alive


def compare_highs_nosuch() -> bool:
    """A bad name in --solvers is refused before any backend runs (trigrid has a native method
    now, so `highs,search` is a legitimate pair and runs both)."""
    p = wb("compare", "enigma144", "--n", "3", "--solvers", "highs,nosuch", "-o", str(SCRATCH / "c.csv"))
    return p.returncode == 2 and "running highs" not in p.stderr


def table_kill_and_rerun() -> bool:
    out = SCRATCH / "k.csv"
    p = subprocess.Popen([PY, "-m", "workbench", "table", "enigma144", "--n", "1..9", "-o", str(out)], cwd=SCRATCH,
                         env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(3)
    p.kill()
    p.wait()
    wb("table", "enigma144", "--n", "1..9", "-o", str(out))
    return sorted(int(r["n"]) for r in rows(out)) == list(range(1, 10))


def two_tables() -> bool:
    out = SCRATCH / "two.csv"
    ps = [subprocess.Popen([PY, "-m", "workbench", "table", "enigma144", "--n", "1..8", "-o", str(out)],
                           cwd=SCRATCH, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
          for _ in range(2)]
    for p in ps:
        p.wait()
    return sorted(int(r["n"]) for r in rows(out)) == list(range(1, 9))


PROBES = {
    # 1 - 3
    "squares n=56 search 5 s: a verified solution, not an error": squares_56,
    "stones n=5 exact, 5 s: stops with a checked board": stones_5,
    "cold numba cache: magic15 at 5 s": lambda: cold("magic15", "--time-limit", "5"),
    "cold numba cache: stones n=2 at 10 s": lambda: cold("stones", "--n", "2", "--time-limit", "10"),
    "table stores no unchecked or unknown row": table_unknown_not_done,
    # 4 - 5
    "short write, torn row, full tmpfs (fault tests)": short_write,
    "table key: magic15 --start A then B": keys_start,
    "table key: stones n=6 hunt then exact": keys_exact,
    # 6
    "verify: edited objective/bound/match": lambda: verify_exit(
        "enigma144", edited(objective=12, bound=12, match="NEW RECORD (proven)")) == 1,
    "verify: record's puzzle field": lambda: one_line_2("verify", "enigma144", str(edited(puzzle="squares"))),
    "verify: valid record passes": lambda: verify_exit("enigma144", good_record()) == 0,
    # 7
    "verify another puzzle's JSON": lambda: one_line_2("verify", "squares", "--n", "4", str(good_record())),
    "verify malformed contents": lambda: one_line_2("verify", "enigma144", "--n", "3", str(edited(solution=[1, 2]))),
    "verify a directory": lambda: one_line_2("verify", "enigma144", "--n", "3", str(SCRATCH)),
    "--time-limit inf": lambda: one_line_2("solve", "enigma144", "--n", "3", "--time-limit", "inf"),
    "--time-limit 1e400": lambda: one_line_2("solve", "enigma144", "--n", "3", "--time-limit", "1e400"),
    "--set margin=abc": lambda: one_line_2("solve", "squares", "--n", "4", "--set", "margin=abc"),
    "--set box=abc": lambda: one_line_2("solve", "stones", "--n", "2", "--solver", "cpsat", "--set", "box=abc"),
    "--set horizon=abc": lambda: one_line_2("solve", "magic15", "--solver", "cpsat", "--formulation", "plan",
                                            "--set", "horizon=abc"),
    "--set top=[1]": lambda: one_line_2("solve", "stones", "--n", "2", "--solver", "cpsat", "--set", "top=[1]"),
    "export -o into a missing folder": lambda: wb("export", "enigma144", "--n", "3", "--format", "lp", "-o",
                                                  str(SCRATCH / "no" / "m.lp")).returncode == 0,
    "export -o onto a directory": lambda: one_line_2("export", "enigma144", "--n", "3", "--format", "lp", "-o",
                                                     str(SCRATCH)),
    "table: a directory where the CSV should be": lambda: one_line_2("table", "enigma144", "--n", "3", "-o",
                                                                     str(SCRATCH)),
    "table: an unwritable results path": lambda: one_line_2("table", "enigma144", "--n", "3", "-o",
                                                            str(good_record() / "t.csv")),
    "--png to a bad path": lambda: one_line_2("solve", "enigma144", "--n", "3", "--png", str(SCRATCH)),
    # 8 - 10
    "--time-limit nan": lambda: one_line_2("solve", "enigma144", "--n", "3", "--time-limit", "nan"),
    "table --n 1..1000000000": lambda: one_line_2("table", "enigma144", "--n", "1..1000000000"),
    "table --n 5..3": lambda: one_line_2("table", "enigma144", "--n", "5..3"),
    "compare --solvers ''": lambda: one_line_2("compare", "enigma144", "--n", "3", "--solvers", ""),
    "bench --puzzle nosuch": lambda: one_line_2("bench", "--puzzle", "nosuch"),
    "table magic15 --n 3": lambda: one_line_2("table", "magic15", "--n", "3"),
    "--threads 1000 with cbc": lambda: one_line_2("solve", "enigma144", "--n", "3", "--solver", "cbc",
                                                  "--threads", "1000"),
    "--exact (gone)": lambda: one_line_2("solve", "stones", "--n", "4", "--exact"),
    "--all with the heuristic": lambda: one_line_2("solve", "squares", "--n", "4", "--formulation", "heuristic",
                                                   "--all"),
    "--top with the search": lambda: one_line_2("solve", "stones", "--n", "4", "--top", "30"),
    # misleading
    "squares proof says its assumption": lambda: "assumes all squares" in wb(
        "solve", "squares", "--n", "6", "--solver", "search").stdout,
    "stones box run not compared with a(n)": lambda: "DIFFERS" not in wb(
        "solve", "stones", "--n", "2", "--solver", "cpsat", "--formulation", "max", "--box", "4").stdout,
    "parent SIGKILL: the worker goes too": parent_kill,
    "compare highs,nosuch: refused before highs runs": compare_highs_nosuch,
    # what held before
    "unknown puzzle": lambda: one_line_2("solve", "nosuch", "--n", "3"),
    "unknown solver": lambda: one_line_2("solve", "enigma144", "--n", "3", "--solver", "nosuch"),
    "n out of range": lambda: one_line_2("solve", "enigma144", "--n", "31"),
    "negative time limit": lambda: one_line_2("solve", "enigma144", "--n", "3", "--time-limit", "-1"),
    "malformed JSON": lambda: one_line_2("verify", "enigma144", "--n", "3", str(SCRATCH / "nope.json")),
    "per-backend time limit (highs, squares n=12, 3 s)": lambda: solve_json(
        "squares", "--n", "12", "--solver", "highs", "--time-limit", "3")["seconds"] < 3 + 5 + 5,
    "SIGKILL during table, rerun complete": table_kill_and_rerun,
    "two concurrent table runs": two_tables,
    "compare agrees with the published value": lambda: "no disagreement" in wb(
        "compare", "enigma144", "--n", "5", "--solvers", "highs,maxsat,cpsat", "-o", str(SCRATCH / "a.csv")).stdout,
}


if __name__ == "__main__":
    held, only = 0, sys.argv[1] if len(sys.argv) > 1 else ""
    chosen = {name: probe for name, probe in PROBES.items() if only in name}
    for name, probe in chosen.items():
        try:
            ok = bool(probe())
        except Exception as e:           # a probe that crashes counts as broken
            ok = False
            name += f" ({type(e).__name__}: {e})"
        held += ok
        print(f"{'held ' if ok else 'BROKE'}  {name}", flush=True)
    print(f"{held} of {len(chosen)} held")
