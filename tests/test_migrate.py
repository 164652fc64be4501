"""scripts/migrate_results.py: the project's tables in today's schema words, rerunnable, tested on a
copy of results/ put back into the old words."""
from __future__ import annotations

import csv
import io
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "migrate_results.py"
METHODS = {"exact", "hunt", "heuristic", "ida", "recursion", "residues", "transfer"}


def migrate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def old_words(text: str, drop_setting: bool = False) -> str:
    """The table as an older version wrote it: methods said `native`, a count's proof `optimal`
    (`residues` rows were named when written), and, `drop_setting`, no setting column."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = rows[0]
    f, s = header.index("formulation"), header.index("status")
    for row in rows[1:]:
        if row[f] in METHODS - {"residues"}:
            row[f] = "native"
        if row[s] == "complete" and row[f] == "native":
            row[s] = "optimal"
    if drop_setting:
        rows = [row[:header.index("setting")] + row[header.index("setting") + 1:] for row in rows]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def test_results_are_in_todays_words():
    done = migrate("--check", "results")
    assert done.returncode == 0 and "already in today's schema" in done.stdout, done.stdout + done.stderr


def test_a_copy_in_the_old_words_is_migrated_back_byte_for_byte_and_a_rerun_changes_nothing(tmp_path):
    tables = {"squares.csv": False, "stones.csv": False, "percolation-transfer.csv": False,
              "percolation-permutation.csv": True}
    for name, drop in tables.items():
        old = old_words((ROOT / "results" / name).read_text(), drop)
        assert old != (ROOT / "results" / name).read_text()
        (tmp_path / name).write_text(old)
    shutil.copy(ROOT / "results" / "bench.csv", tmp_path / "bench.csv")
    bench = (tmp_path / "bench.csv").read_text()
    (tmp_path / "bench.csv").write_text(old_words(bench))
    check = migrate("--check", str(tmp_path))
    assert check.returncode == 1 and check.stdout.count("would rewrite") == 5, check.stdout + check.stderr
    assert migrate(str(tmp_path)).returncode == 0
    for name in [*tables, "bench.csv"]:
        assert (tmp_path / name).read_text() == (ROOT / "results" / name).read_text(), name
    again = migrate("--check", str(tmp_path))
    assert again.returncode == 0, again.stdout
