"""The probes of issue 58 (reliability, round three) and of issue 59's hostile model files, with
variants: run from the repository root, `python scripts/reliability_probes3.py [NAME-FILTER]`; prints
held / broke / misled per probe and the totals.

The same harness as round two (its helpers are imported, not copied): each probe runs the real CLI
in a scratch folder, journals go to a scratch WORKBENCH_JOURNALS, and a scratch journal key plays
this machine. `broke`: a traceback, a lost answer or journal, code run from a file, a wrong answer;
`misled`: it ended calmly but said or kept something false.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import pickle
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reliability_probes2 import (  # the round-two harness, shared
    BROKE,
    ENV,
    HELD,
    MISLED,
    PY,
    ROOT,
    SCRATCH,
    Verdict,
    crashed,
    lp_solve,
    main,
    quick_refusal,
    record,
    refused,
    rows,
    wb,
)

ENV["WORKBENCH_JOURNAL_KEY"] = str(SCRATCH / "here.key")
JOURNALS = SCRATCH / "journals"
MODELS = SCRATCH / "models"
MODELS.mkdir(exist_ok=True)


def model(name: str, text: str | bytes) -> Path:
    path = MODELS / name
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode() if isinstance(text, str) else text))
    elif isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def solved(p: subprocess.CompletedProcess) -> dict | None:
    """The JSON record a `solve --json` printed, or None."""
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        return None


# -- 1. a journal is data, never code ---------------------------------------------------------

def partial_journal(n: str = "4", seconds: float = 5) -> Path | None:
    """A journal of stones a(n) cut short by the time limit (the run leaves it to resume), with at
    least one finished task: on a loaded machine the limit is doubled until it has one."""
    while seconds <= 80:
        shutil.rmtree(JOURNALS, ignore_errors=True)
        wb("solve", "stones", "--n", n, "--time-limit", str(seconds), "--threads", "1")
        for path in JOURNALS.glob("stones-*.sqlite"):
            with sqlite3.connect(path) as db:
                table = "rows" if chained(path) else "tasks"
                if db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]:
                    return path
        seconds *= 2
    return None


def resume(n: str = "4") -> subprocess.CompletedProcess:
    return wb("solve", "stones", "--n", n, "--time-limit", "120", "--json")


def rewrite(path: Path, sql: str, *args: object) -> None:
    with sqlite3.connect(path) as db:
        db.execute(sql, args)


def chained(path: Path) -> bool:
    """Whether the journal has today's chained rows (else the older `tasks` table of pickles)."""
    with sqlite3.connect(path) as db:
        return db.execute("SELECT 1 FROM sqlite_master WHERE name = 'rows'").fetchone() is not None


class Payload:
    """Unpickling this creates a file: if the file exists, the journal ran code."""

    def __reduce__(self) -> tuple:
        return (os.system, (f"touch {SCRATCH / 'PWNED'}",))


def pickle_payload(command: str) -> Callable[[], Verdict]:
    """A pickle planted where a task's outcome is stored (a row's body, or the older outcome blob)."""
    def probe() -> Verdict:
        path = partial_journal()
        if path is None:
            return BROKE
        (SCRATCH / "PWNED").unlink(missing_ok=True)
        blob = pickle.dumps(Payload())
        if chained(path):
            rewrite(path, "UPDATE rows SET body = ? WHERE seq = (SELECT min(seq) FROM rows)", blob)
        else:
            rewrite(path, "UPDATE tasks SET outcome = ? WHERE id = (SELECT min(id) FROM tasks)", blob)
        p = resume() if command == "resume" else wb("journals", "--dir", str(JOURNALS))
        if (SCRATCH / "PWNED").exists() or crashed(p):
            return BROKE
        if command == "resume":
            return refused(p, path.name) if solved(p) is None else MISLED
        return HELD if p.returncode in (0, 2) else MISLED
    return probe


def forged(change: Callable[[Path], None], lenient: bool = False) -> Callable[[], Verdict]:
    """A journal edited by `change`: the resume refuses it in one line naming the file, or (only if
    `lenient`: an edit that honest work could make) still ends with the true answer, 38."""
    def probe() -> Verdict:
        path = partial_journal()
        if path is None:
            return BROKE
        change(path)
        p = resume()
        if crashed(p):
            return BROKE
        rec = solved(p)
        if rec is None:
            return refused(p, path.name)
        return HELD if lenient and rec["objective"] == 38 else MISLED
    return probe


Tasks = list[dict]      # a journal's finished tasks as a forger edits them: each with its "task" id


def forge(change: Callable[[Tasks], None], rechain: bool = True) -> Callable[[Path], None]:
    """Rewrite a journal's finished tasks as a forger would. Chained rows: their JSON changed and
    (`rechain`) the hash chain made anew, as anyone can (only a row's MAC needs a machine's key).
    The older format: the pickled outcomes, unpickled here only because the probe made this journal
    itself."""
    def edit(path: Path) -> None:
        with sqlite3.connect(path) as db:
            key = db.execute("SELECT key FROM search").fetchone()[0]
            if chained(path):
                rows = db.execute("SELECT seq, body, hash, mac FROM rows ORDER BY seq").fetchall()
                bodies = [json.loads(body) for _, body, _, _ in rows]
                tasks = [b for b in bodies if b.get("kind") == "task"]
                change(tasks)
                bodies = [b for b in bodies if b.get("kind") != "task"] + tasks
                previous = hashlib.sha256(f"workbench journal 1\n{key}".encode()).hexdigest()
                db.execute("DELETE FROM rows")
                for seq, body in enumerate(bodies, start=1):
                    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
                    kept = rows[seq - 1][2] if seq <= len(rows) else "0" * 64
                    digest = hashlib.sha256(f"{previous}\n{text}".encode()).hexdigest() if rechain else kept
                    previous = digest
                    db.execute("INSERT INTO rows VALUES (?, ?, ?, ?)", (seq, text, digest, "0" * 64))
                return
            from dataclasses import fields
            stored = db.execute("SELECT id, outcome, seconds, finished FROM tasks ORDER BY id").fetchall()
            outcomes = [pickle.loads(blob) for _, blob, _, _ in stored]
            kind = type(outcomes[0])
            tasks = [{"task": task, **{f.name: getattr(o, f.name) for f in fields(o)}}
                     for (task, _, _, _), o in zip(stored, outcomes)]
            change(tasks)
            db.execute("DELETE FROM tasks")
            for t in tasks:
                task, finished = t.pop("task"), t.pop("finished", stored[0][3])
                db.execute("INSERT INTO tasks VALUES (?, ?, ?, ?)", (task, pickle.dumps(kind(**t)), 0.1, finished))
    return edit


def first(**values: object) -> Callable[[Tasks], None]:
    return lambda tasks: tasks[0].update(values)


def every(**values: object) -> Callable[[Tasks], None]:
    def change(tasks: Tasks) -> None:
        for task in tasks:
            task.update(values)
    return change


def fill_with_nothing(tasks: Tasks) -> None:
    """Every task not yet done added, each saying 'done, nothing found', as the issue's forger did;
    and the done ones say so too."""
    every(best=None, witness=None, count=0)(tasks)
    done = {t["task"] for t in tasks}
    with sqlite3.connect(next(JOURNALS.glob("stones-*.sqlite"))) as db:
        key = json.loads(db.execute("SELECT key FROM search").fetchone()[0])
    tasks += [dict(tasks[-1], task=t) for t in range(int(key.get("tasks", 0))) if t not in done]


def drop_middle_row(path: Path) -> None:
    table, column = ("rows", "seq") if chained(path) else ("tasks", "id")
    with sqlite3.connect(path) as db:
        ids = [r[0] for r in db.execute(f"SELECT {column} FROM {table} ORDER BY {column}")]
        db.execute(f"DELETE FROM {table} WHERE {column} = ?", (ids[len(ids) // 2],))


def journal_key(key: str) -> Callable[[], Verdict]:
    """`journals` on a journal whose key is `key`: one line for it, no traceback."""
    def probe() -> Verdict:
        path = partial_journal("3", 1)
        folder = SCRATCH / "crafted"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        target = folder / "stones-0000000000000000.sqlite"
        if path is not None:
            shutil.copy(path, target)
        else:
            with sqlite3.connect(target) as db:
                db.execute("CREATE TABLE search (key TEXT NOT NULL)")
                db.execute("INSERT INTO search VALUES ('{}')")
        rewrite(target, "UPDATE search SET key = ?", key)
        p = wb("journals", "--dir", str(folder))
        return BROKE if crashed(p) else HELD if p.returncode in (0, 2) else MISLED
    return probe


def bad_timestamp() -> Verdict:
    path = partial_journal()
    if path is None:
        return BROKE
    forge(every(finished="yesterday-ish"))(path)
    p = wb("journals", "--dir", str(JOURNALS))
    return BROKE if crashed(p) else HELD if p.returncode in (0, 2) else MISLED


def moved_to_another_machine() -> Verdict:
    """An honest journal copied to another folder and resumed under another machine's key: the
    true answer, and the record says how many tasks were imported and re-checked."""
    path = partial_journal()
    if path is None:
        return BROKE
    elsewhere = SCRATCH / "elsewhere"
    shutil.rmtree(elsewhere, ignore_errors=True)
    elsewhere.mkdir()
    shutil.copy(path, elsewhere / path.name)
    env = dict(ENV, WORKBENCH_JOURNALS=str(elsewhere), WORKBENCH_JOURNAL_KEY=str(SCRATCH / "there.key"))
    p = subprocess.run([PY, "-m", "workbench", "solve", "stones", "--n", "4", "--time-limit", "120", "--json"],
                       capture_output=True, text=True, cwd=SCRATCH, env=env, timeout=300)
    rec = solved(p)
    if crashed(p) or rec is None or rec["objective"] != 38:
        return BROKE
    return HELD if "searched again here agreed" in rec.get("message", "") else MISLED


# -- 2. the main job ----------------------------------------------------------------------------

def showcase_time_out() -> Verdict:
    """A case cut by its limit reads 'not finished', never DIFFERS, and does not fail the job."""
    out = SCRATCH / "show-timeout"
    p = wb("showcase", "--puzzle", "percolation", "--results-dir", str(out), "--time-limit", "0.01", timeout=600)
    if crashed(p):
        return BROKE
    text = p.stdout + p.stderr
    if "DIFFERS" in text:
        return MISLED
    return HELD if "not finished" in text and p.returncode in (0, 3) else MISLED


# -- 3. claims nobody checked -------------------------------------------------------------------

def verify_status(status: str, **more: object) -> Callable[[], Verdict]:
    """A record whose status contradicts its own valid board."""
    def probe() -> Verdict:
        rec = record("solve", "enigma144", "--n", "6", "--solver", "maxsat")
        rec.update(status=status, **more)
        rec.pop("match", None)
        path = SCRATCH / f"v-status-{status}.json"
        path.write_text(json.dumps(rec))
        p = wb("verify", "enigma144", str(path))
        if crashed(p):
            return BROKE
        return HELD if p.returncode == 1 and "FALSE CLAIM" in p.stdout else MISLED
    return probe


def compare_all_fail() -> Verdict:
    """Every backend of a compare fails: it says so and does not exit 0."""
    path = model("cont-all-fail.lp", "Maximize\n obj: x\nSubject To\n c: x <= 2.5\nBounds\n 0 <= x <= 3\nEnd\n")
    p = wb("compare", "--model", str(path), "--solvers", "maxsat,sat", "--time-limit", "10",
           "-o", str(SCRATCH / "allfail.csv"))
    if crashed(p):
        return BROKE
    return HELD if p.returncode != 0 and "no disagreement" not in p.stdout else MISLED


def lp_solve_reads_the_export(reader: str) -> Callable[[], Verdict]:
    def probe() -> Verdict:
        path = SCRATCH / f"stones2-box3-{reader}.mps"
        p = wb("export", "stones", "--n", "2", "--box", "3", "--format", "mps", "-o", str(path))
        if p.returncode != 0:
            return BROKE
        if reader == "lp_solve":
            theirs = lp_solve(path)
        else:       # as the export's header says: glpsol takes no OBJSENSE section, but --max
            lines = path.read_text().splitlines()
            at = lines.index("OBJSENSE")
            path.write_text("\n".join(lines[:at] + lines[at + 2:]) + "\n")
            p = subprocess.run(["glpsol", "--freemps", str(path), "--max", "-o", str(path.with_suffix(".sol"))],
                               capture_output=True, text=True, timeout=120)
            found = re.search(r"Objective:\s+\S+\s*=\s*(-?[\d.e+]+)", path.with_suffix(".sol").read_text())
            theirs = float(found.group(1)) if p.returncode == 0 and found else None
        return HELD if theirs is not None and abs(theirs - 7) < 1e-6 else BROKE
    return probe


# -- 4. exports of stored results -----------------------------------------------------------------

def results_copy() -> Path:
    """A folder holding a copy of results/ (export --bfile reads results/ where it runs)."""
    folder = SCRATCH / f"copy-{time.monotonic_ns()}"
    shutil.copytree(ROOT / "results", folder / "results")
    return folder


def bfile_of_edited(field: str, value: str, n: str = "5", table: str = "percolation.csv") -> Callable[[], Verdict]:
    """`export --bfile` from a results copy with one row edited: the edited value never reaches the
    b-file (refused in one line, or left out)."""
    def probe() -> Verdict:
        import csv
        folder = results_copy()
        path = folder / "results" / table
        data = rows(path)
        for row in data:
            if row["n"] == n:
                row[field] = value
        with path.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(data[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(data)
        out = SCRATCH / f"b-{field}.txt"
        out.unlink(missing_ok=True)
        p = wb("export", "percolation", "--bfile", "-o", str(out), cwd=folder)
        if crashed(p):
            return BROKE
        if p.returncode == 2:
            return refused(p)
        terms = [line for line in (out.read_text() if out.exists() else "").splitlines() if not line.startswith("#")]
        return MISLED if any(line.split(" ")[-1] == value for line in terms) else HELD
    return probe


def bfile_squares_to_39() -> Verdict:
    out = SCRATCH / "b-squares.txt"
    p = wb("export", "squares", "--bfile", "-o", str(out), cwd=results_copy())
    if crashed(p) or not out.exists():
        return BROKE
    terms = [line.split() for line in out.read_text().splitlines() if line and not line.startswith("#")]
    return HELD if [int(n) for n, _ in terms] == list(range(1, 40)) and (terms[37][1], terms[38][1]) == ("684", "713") \
        else MISLED


def bfiles_follow_the_rules() -> Verdict:
    for path in sorted(p for p in (ROOT / "results").glob("b*.txt") if re.fullmatch(r"b\d+\.txt", p.name)):
        data = path.read_bytes()
        if b"\r" in data or not data.isascii():
            return MISLED
        terms = [line.split(" ") for line in data.decode().splitlines() if not line.startswith("#")]
        ns = [int(n) for n, _ in terms]
        if ns != list(range(ns[0], ns[0] + len(ns))) or any(len(a.lstrip("-")) > 1000 for _, a in terms):
            return MISLED
    return HELD


# -- 5. work lost or wasted -----------------------------------------------------------------------

def unwritable_row() -> Verdict:
    """The finished search's row cannot be written (its table turns into a folder while the search
    runs): the answer is printed, the journal kept; a rerun into a good folder replays it and writes
    the row."""
    bad = SCRATCH / "bad-results"
    shutil.rmtree(bad, ignore_errors=True)
    bad.mkdir()
    shutil.rmtree(JOURNALS, ignore_errors=True)
    p = subprocess.Popen([PY, "-m", "workbench", "table", "stones", "--n", "3", "--results-dir", str(bad)],
                         cwd=SCRATCH, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while p.poll() is None and not list(JOURNALS.glob("stones-*.sqlite")):
        time.sleep(0.05)
    (bad / "stones.csv").mkdir()
    out, err = p.communicate(timeout=300)
    if "Traceback" in err:
        return BROKE
    if "28" not in out + err or not list(JOURNALS.glob("stones-*.sqlite")):
        return BROKE
    good = SCRATCH / "good-results"
    shutil.rmtree(good, ignore_errors=True)
    q = wb("table", "stones", "--n", "3", "--results-dir", str(good))
    written = [r for r in rows(good / "stones.csv") if r["n"] == "3"]
    if q.returncode != 0 or not written or written[0]["objective"] != "28" or "journal" not in written[0]["message"]:
        return BROKE
    return HELD if not list(JOURNALS.glob("stones-*.sqlite")) and p.returncode != 0 else MISLED


def foreign_output(command: str) -> Callable[[], Verdict]:
    """A model that takes its backends 20 s each: refused at once, not after solving."""
    def probe() -> Verdict:
        path = SCRATCH / "enigma144-16.lp"
        if not path.exists():
            wb("export", "enigma144", "--n", "16", "--format", "lp", "-o", str(path))
        foreign = SCRATCH / "foreign-out.csv"
        foreign.write_text("name,age\nada,36\n")
        solvers = ("--solvers", "highs,cbc") if command == "compare" else ()
        return quick_refusal(command, "--model", str(path), *solvers, "--time-limit", "20", "-o", str(foreign),
                             within=10)
    return probe


def limit_covers(args: tuple[str, ...], limit: float, grace: float) -> Callable[[], Verdict]:
    def probe() -> Verdict:
        began = time.time()
        p = wb(*args, "--time-limit", str(limit), "--json", timeout=600)
        took = time.time() - began
        if crashed(p):
            return BROKE
        rec = solved(p)
        if rec is not None and rec["status"] == "optimal":
            return HELD if took < limit + grace else MISLED
        return HELD if took < limit + grace else BROKE
    return probe


# -- 6. hostile model files (issue 59) ------------------------------------------------------------

def model_value(name: str, text: str | bytes, want: float | None, solver: str = "highs",
                may_refuse: bool = False) -> Callable[[], Verdict]:
    """solve --model: the file's own optimum `want`, `unsupported`, or (`may_refuse`, or no `want`)
    one line and exit 2; never a wrong optimum."""
    def probe() -> Verdict:
        path = model(name, text)
        p = wb("solve", "--model", str(path), "--solver", solver, "--time-limit", "20", "--json", timeout=120)
        if crashed(p):
            return BROKE
        rec = solved(p)
        if rec is None:
            return refused(p) if may_refuse or want is None else MISLED
        if rec["status"] == "unsupported":
            return HELD
        good = rec["objective"] is not None and abs(rec["objective"] - want) < 1e-6
        return HELD if good and rec["status"] == "optimal" else MISLED
    return probe


def fifo_model() -> Verdict:
    path = MODELS / "pipe.lp"
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    try:
        return quick_refusal("solve", "--model", str(path), "--solver", "highs", within=15)
    finally:
        path.unlink(missing_ok=True)


def mzn_include_outside() -> Verdict:
    secret = SCRATCH / "outside.mzn"
    secret.write_text("int: leaked = 7;\n")
    path = model("incl.mzn", f'include "{secret}";\nvar 0..leaked: x;\nsolve maximize x;\n')
    return quick_refusal("solve", "--model", str(path), "--solver", "minizinc:gecode", within=20)


def big_model() -> Verdict:
    """10^6 variables: an honest answer within the limit, or one line."""
    lines = ["Minimize", " obj: " + " + ".join(f"x{i}" for i in range(1_000_000)), "Subject To",
             " c: x0 + x1 >= 1", "End"]
    path = model("big.lp", "\n".join(lines) + "\n")
    began = time.time()
    p = wb("solve", "--model", str(path), "--solver", "highs", "--time-limit", "20", "--json", timeout=300)
    if crashed(p):
        return BROKE
    return HELD if time.time() - began < 20 + 30 else MISLED


CONT = "Maximize\n obj: x + 0.75 y\nSubject To\n c: x + y <= 3\nBounds\n x <= 2.5\n y <= 1\nEnd\n"
PULP_TUTORIAL = ("Minimize\n obj: x + 4 y + 9 z\nSubject To\n c1: x + y <= 5\n c2: x + z >= 10\n"
                 " c3: - y + z = 7\nBounds\n x <= 4\n -1 <= y <= 1\nEnd\n")
UNBOUNDED_INT = "Maximize\n obj: - x + 2 y\nSubject To\n c: x + y <= 7.5\n d: y - x <= 1\nGeneral\n x y\nEnd\n"
QUADRATIC = "Minimize\n obj: - 4 x + [ 2 x ^ 2 ] / 2\nSubject To\n c: x <= 10\nBounds\n 0 <= x <= 10\nEnd\n"
SEMI = "Minimize\n obj: x\nSubject To\n c: x >= 0\nBounds\n 2 <= x <= 5\nSemi-continuous\n x\nEnd\n"
FRACTION_INT = "Maximize\n obj: x\nSubject To\n c: x >= 0\nBounds\n 0 <= x <= 2.7\nGeneral\n x\nEnd\n"
SENSE_COMMENT = ("*SENSE:Maximize\nNAME          MAXCOMMENT\nROWS\n N  obj\n L  c1\nCOLUMNS\n"
                 "    x         obj       1.0         c1        1.0\nRHS\n    RHS       c1        4.0\n"
                 "BOUNDS\n UP BND       x         4.0\nENDATA\n")
WCNF_FRACTION = "p wcnf 1 2 10\n1.9 1 0\n1.2 -1 0\n"
WCNF_NEGATIVE = "p wcnf 1 2 10\n-1 1 0\n2 -1 0\n"
HUGE_COEFF = "Maximize\n obj: 1e308 x\nSubject To\n c: 1e308 x <= 1e308\nBounds\n x <= 1\nEnd\n"


PROBES: dict[str, Callable[[], Verdict]] = {
    # 1. journals
    "journal: pickle payload, resume: refused, no code run": pickle_payload("resume"),
    "journal: pickle payload, `journals`: no code run": pickle_payload("journals"),
    "journal: forged 'nothing found' rows, chain made anew: refused": forged(forge(fill_with_nothing)),
    "journal: forged better value (99): refused": forged(forge(first(best=99))),
    "journal: forged witness: refused": forged(forge(first(witness=[[0, 0, 1], [5, 5, 38]]))),
    "journal: forged positions, chain not made anew: refused": forged(forge(first(positions=12345), rechain=False)),
    "journal: forged positions, chain made anew: refused": forged(forge(first(positions=12345))),
    "journal: every row forged to 'nothing': refused": forged(forge(every(best=None, witness=None))),
    "journal: a row deleted from the middle: refused or 38": forged(drop_middle_row, lenient=True),
    "journal: garbage bytes: one line": forged(lambda p: p.write_bytes(b"\x00garbage" * 64)),
    "journals: a key that is not an object": journal_key("[1, 2, 3]"),
    "journals: a key that is a number": journal_key("5"),
    "journals: markup in the key": journal_key(json.dumps({"search": "[bold red]x[/]", "tasks": "[/]"})),
    "journals: a closing tag in the key": journal_key(json.dumps({"search": "stones", "n": "[/bold]", "tasks": 9})),
    "journals: a key that is not JSON": journal_key("{not json"),
    "journals: a bad timestamp": bad_timestamp,
    "journal: moved to another machine, re-checked, 38": moved_to_another_machine,
    # 2. the main job
    "showcase: a time-out reads 'not finished'": showcase_time_out,
    # 3. claims
    "verify: 'infeasible' with a valid board": verify_status("infeasible"),
    "verify: 'unknown' with a valid board and a bound": verify_status("unknown", bound=29),
    "verify: 'optimal' with a bound above the value": verify_status("optimal", bound=35),
    "compare: every backend fails, not exit 0": compare_all_fail,
    "export mps stones n=2 box 3: lp_solve gives 7": lp_solve_reads_the_export("lp_solve"),
    "export mps stones n=2 box 3: glpsol gives 7": lp_solve_reads_the_export("glpsol"),
    # 4. exports of stored results
    "bfile: an edited count 12345 stays out": bfile_of_edited("objective", "12345"),
    "bfile: an objective of 1e400": bfile_of_edited("objective", "1e400"),
    "bfile: an n of 'five'": bfile_of_edited("n", "five"),
    "bfile: squares gives a(1..39)": bfile_squares_to_39,
    "bfile: every results b-file follows the OEIS rules": bfiles_follow_the_rules,
    # 5. work lost
    "table: the row cannot be written: answer printed, journal kept, rerun writes it": unwritable_row,
    "compare --model -o foreign.csv: refused before work": foreign_output("compare"),
    "bench --model -o foreign.csv: refused before work": foreign_output("bench"),
    "solve enigma144 N=24 --time-limit 5 ends by 15 s": limit_covers(("solve", "enigma144", "--n", "24"), 5, 10),
    "solve enigma144 N=20 --solver highs --time-limit 3 ends by 13 s": limit_covers(
        ("solve", "enigma144", "--n", "20", "--solver", "highs"), 3, 10),
    "solve enigma144 N=16 --solver minizinc:gecode --time-limit 3 ends by 13 s": limit_covers(
        ("solve", "enigma144", "--n", "16", "--solver", "minizinc:gecode"), 3, 10),
    # 6. hostile model files
    "model: continuous x <= 2.5 (max 2.875)": model_value("cont.lp", CONT, 2.875),
    "model: a fractional LP on highs (54)": model_value("pulp.lp", PULP_TUTORIAL, 54.0),
    "model: a fractional LP on cpsat: unsupported, never a wrong optimum": model_value(
        "pulp-cpsat.lp", PULP_TUTORIAL, 54.0, solver="cpsat"),
    "model: general integers with no upper bound": model_value("unbounded-int.lp", UNBOUNDED_INT, 5.0),
    "model: general 0 <= x <= 2.7, max x = 2": model_value("frac-int.lp", FRACTION_INT, 2.0),
    "model: general 0 <= x <= 2.7 on cbc = 2": model_value("frac-int-cbc.lp", FRACTION_INT, 2.0, solver="cbc"),
    "model: a quadratic objective: exact or refused": model_value("quad.lp", QUADRATIC, -4.0, may_refuse=True),
    "model: a semi-continuous variable: exact or refused": model_value("semi.lp", SEMI, 0.0, may_refuse=True),
    "model: MPS sense only in a comment warns": lambda: (
        HELD if "sense" in wb("solve", "--model", str(model("sense.mps", SENSE_COMMENT)), "--solver", "highs",
                              "--time-limit", "10").stderr.lower() else MISLED),
    "model: .mps.gz is read": model_value("sense.mps.gz", SENSE_COMMENT.replace("*SENSE:Maximize\n", ""), 0.0),
    "model: .lp.gz is read": model_value("cont.lp.gz", CONT, 2.875),
    "model: WCNF weights 1.9 and 1.2: 1.2 or refused": model_value("frac.wcnf", WCNF_FRACTION, 1.2, solver="maxsat", may_refuse=True),
    "model: a negative WCNF weight: -1 or refused": model_value("neg.wcnf", WCNF_NEGATIVE, -1.0, solver="maxsat", may_refuse=True),
    "model: 1e308 coefficients: honest or one line": model_value("huge.lp", HUGE_COEFF, 1e308, may_refuse=True),
    "model: empty file: one line": lambda: quick_refusal("solve", "--model", str(model("empty.lp", ""))),
    "model: binary garbage: one line": lambda: quick_refusal("solve", "--model", str(model("junk.mps",
                                                                                         os.urandom(4096)))),
    "model: a directory: one line": lambda: quick_refusal("solve", "--model", str(MODELS)),
    "model: a FIFO: one line, no hang": fifo_model,
    "model: MiniZinc include outside its folder: one line": mzn_include_outside,
    "model: 10^6 variables: honest within the limit": big_model,
}


if __name__ == "__main__":
    main(PROBES)
