"""OEIS b-files: `n a(n)` lines of proven terms only, after comments giving the command and method."""
import csv
import re
import subprocess
import sys
from pathlib import Path

import pytest

from workbench import bfile

PY = sys.executable


def read_bfile(path):
    lines = path.read_text().splitlines()
    comments = [line for line in lines if line.startswith("#")]
    terms = [tuple(map(int, line.split())) for line in lines if line and not line.startswith("#")]
    return comments, terms


@pytest.mark.parametrize("puzzle,anumber", [("percolation", "A146971"), ("squares", "A294249"),
                                            ("stones", "A337663")])
def test_bfile_holds_the_proven_terms_from_the_offset(puzzle, anumber, published, tmp_path):
    out = tmp_path / f"b{anumber[1:]}.txt"
    p = subprocess.run([PY, "-m", "workbench", "export", puzzle, "--bfile", "-o", str(out)], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    comments, terms = read_bfile(out)
    assert comments[0].startswith(f"# {anumber}:") and f"export {puzzle} --bfile" in comments[1]
    assert comments[2].startswith("# method: ")
    assert [n for n, _ in terms] == list(range(1, len(terms) + 1))        # consecutive from the offset
    table = bfile.SEQUENCES[puzzle]
    rows = list(csv.DictReader(open(f"results/{table.table}")))
    for n, value in terms:                  # each term is a proof in the results table
        assert any(r["n"] == str(n) and r["status"] in ("optimal", "complete") and r[table.answer] == str(value)
                   for r in rows), n
    pub = published(puzzle)
    assert all(pub[n] == value for n, value in terms if n in pub and n <= 10)


def test_a146971_bfile_starts_with_the_published_terms_and_stops_at_1000_digits(published, tmp_path):
    """Before: a(1..500) in the b-file, a(433..500) over 1000 digits each (the OEIS takes at most about 1000)."""
    comments, terms = read_bfile(bfile.write("percolation", tmp_path / "b146971.txt", "test")[0])
    first = published("percolation")
    assert [v for _, v in terms[:10]] == [first[n] for n in range(1, 11)]
    assert terms[-1][0] == 432 and len(str(terms[-1][1])) <= 1000
    _, over = read_bfile(tmp_path / "b146971-over1000digits.txt")
    assert [n for n, _ in over] == list(range(433, 501)) and all(len(str(v)) > 1000 for _, v in over)


def test_squares_rows_with_a_search_bound_prove_their_terms(tmp_path):
    """a(36..38) were proven by searches given --bound (630, 660, 685): that steers the search, the
    question stays; before, every row with a setting was dropped and the b-file stopped at a(35)."""
    _, terms = read_bfile(bfile.write("squares", tmp_path / "b.txt", "test")[0])
    assert [n for n, _ in terms] == list(range(1, 40)) and terms[-4:] == [(36, 629), (37, 659), (38, 684), (39, 713)]


def edited(results, table, tmp_path, **edits_by_n):
    """A copy of results/<table> with fields of the rows for some n edited: {n: {field: value}}."""
    rows = list(csv.DictReader(open(results / table)))
    for row in rows:
        row.update(edits_by_n.get(f"n{row['n']}", {}))
    with open(tmp_path / table, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def test_a_bfile_takes_only_rows_that_hold(tmp_path):
    """Before: a(5) edited from 1615 to 12345 went into the b-file as `5 12345`, and an objective of
    1e400 or an n of `five` was a traceback. Rows are read back as `verify` reads them."""
    edited(Path("results"), "percolation.csv", tmp_path, n5={"count": "12345"}, n7={"n": "five"})
    edited(Path("results"), "squares.csv", tmp_path, n6={"objective": "1e400"})
    for puzzle, last, why in (("percolation", 4, "a proof of 12345, but the published value 1615 is proven"),
                              ("squares", 5, "objective is '1e400', not a finite number")):
        out = tmp_path / f"{puzzle}.txt"
        p = subprocess.run([PY, "-m", "workbench", "export", puzzle, "--bfile", "--results-dir", str(tmp_path),
                            "-o", str(out)], capture_output=True, text=True)
        assert p.returncode == 0 and not p.stderr, p.stderr
        comments, terms = read_bfile(out)
        assert [n for n, _ in terms] == list(range(1, last + 1))
        assert any("a row that does not hold" in line and why in line for line in comments), comments
        assert f"--results-dir {tmp_path}" in comments[1]
    comments, _ = read_bfile(tmp_path / "percolation.txt")
    assert any("percolation.csv:" in line and "n is 'five', not an integer" in line for line in comments)


BFILES = sorted(p for p in Path("results").glob("b*.txt") if re.fullmatch(r"b\d+\.txt", p.name))


@pytest.mark.parametrize("path", BFILES, ids=lambda p: p.name)
def test_every_results_bfile_keeps_the_oeis_rules_and_is_current(path):
    """`n a(n)` lines, contiguous from the offset, ASCII, LF endings, comments only as `#` lines,
    terms of at most 1000 digits; and the terms are what `export --bfile` gives from results/ now."""
    data = path.read_bytes()
    assert data.isascii() and b"\r" not in data and data.endswith(b"\n")
    lines = data.decode().split("\n")[:-1]
    terms = [line for line in lines if not line.startswith("#")]
    assert all(re.fullmatch(r"\d+ -?\d{1,1000}", line) for line in terms)
    assert all(line.startswith("#") for line in lines[:len(lines) - len(terms)])     # comments first, none between
    seq = next(s for s in bfile.SEQUENCES.values() if s.anumber == f"A{path.stem[1:]}")
    assert [int(line.split()[0]) for line in terms] == list(range(seq.offset, seq.offset + len(terms)))
    now, _ = bfile.bfile_lines(seq.puzzle, "test")
    assert terms == [line for line in now if not line.startswith("#")]


def test_unproven_terms_are_left_out(tmp_path):
    """stones has FEASIBLE hunt rows for n = 6..12 (60, 71, ...): the b-file stops at the proven a(6)."""
    _, terms = read_bfile(bfile.write("stones", tmp_path / "b.txt", "test")[0])
    assert terms == [(1, 1), (2, 16), (3, 28), (4, 38), (5, 49), (6, 60)]


def test_bfile_bad_requests():
    for argv in (["export", "enigma144", "--bfile", "-o", "/tmp/x.txt"],
                 ["export", "percolation", "--bfile", "--n", "5", "-o", "/tmp/x.txt"],
                 ["export", "percolation", "-o", "/tmp/x.txt"]):
        p = subprocess.run([PY, "-m", "workbench", *argv], capture_output=True, text=True)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, (argv, p.stderr)
