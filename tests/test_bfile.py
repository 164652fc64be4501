"""OEIS b-files: `n a(n)` lines of proven terms only, after comments giving the command and method."""
import csv
import subprocess
import sys

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


def test_a146971_bfile_starts_with_the_published_terms(published, tmp_path):
    comments, terms = read_bfile(bfile.write("percolation", tmp_path / "b146971.txt", "test")[0])
    assert len(terms) >= 500
    first = published("percolation")
    assert [v for _, v in terms[:10]] == [first[n] for n in range(1, 11)]


def test_unproven_terms_are_left_out(tmp_path):
    """stones has FEASIBLE hunt rows for n = 6..12 (60, 71, ...): the b-file stops at the proven a(5)."""
    _, terms = read_bfile(bfile.write("stones", tmp_path / "b.txt", "test")[0])
    assert terms == [(1, 1), (2, 16), (3, 28), (4, 38), (5, 49)]


def test_bfile_bad_requests():
    for argv in (["export", "enigma144", "--bfile", "-o", "/tmp/x.txt"],
                 ["export", "percolation", "--bfile", "--n", "5", "-o", "/tmp/x.txt"],
                 ["export", "percolation", "-o", "/tmp/x.txt"]):
        p = subprocess.run([PY, "-m", "workbench", *argv], capture_output=True, text=True)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, (argv, p.stderr)
