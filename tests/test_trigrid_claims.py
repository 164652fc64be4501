"""Issue 44: every value the README's triangular-grid tables call proven has a row in
results/<variant>.csv that says proven, carries its board, and whose board the independent checker
accepts with exactly that many matches removed; a value marked "proven twice" has two such rows by
different methods (solver or formulation)."""
import json
import re
from pathlib import Path

import pytest

from workbench.puzzles import get
from workbench.tables import read_rows

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
TABLES = ("enigma144", "enigma82", "triangles")


def readme_claims(puzzle: str) -> dict[int, tuple[int, bool]]:
    """N -> (value, marked "proven twice") from the README's "workbench, proven" row of the puzzle."""
    section = README.split(f"**{puzzle}**", 1)[1]
    lines = [line for line in section.split("\n\n")[1].splitlines() if line.startswith("|")]
    ns = [int(cell) for cell in _cells(lines[0])[1:]]
    row = next(_cells(line) for line in lines if _cells(line)[0] == "workbench, proven")
    claims = {}
    for n, cell in zip(ns, row[1:]):
        value = re.match(r"\**(\d+)", cell)
        if value:
            claims[n] = (int(value.group(1)), "proven twice" in cell)
    return claims


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def proven_rows(puzzle: str, n: int, value: int) -> list[dict[str, str]]:
    return [r for r in read_rows(ROOT / "results" / f"{puzzle}.csv")
            if r["n"] == str(n) and r["status"] == "optimal" and r["proven"] == "True"
            and r["verified"] == "True" and r["objective"] == str(value) and r["solution"]]


def method(row: dict[str, str]) -> tuple[str, str, str]:
    """What a second computation must change: the backend or its configuration, or the model."""
    racer = row["solver_version"].split(":")[0] if row["solver"] == "auto" else row["solver"]
    return racer, row["formulation"], row["setting"]


def test_the_readme_tables_are_parsed():
    claims = {p: readme_claims(p) for p in TABLES}
    assert claims["enigma144"][10] == (78, False) and claims["enigma144"][16][0] == 196
    assert claims["enigma82"][6][0] == 20 and claims["triangles"][12][0] == 78


@pytest.mark.parametrize("puzzle", TABLES)
def test_every_proven_readme_value_has_a_checked_row(puzzle):
    p = get(puzzle)
    params = p.params(None)
    for n, (value, twice) in readme_claims(puzzle).items():
        rows = proven_rows(puzzle, n, value)
        assert rows, f"README: {puzzle} N = {n} = {value} proven, but no proven row in results/{puzzle}.csv"
        boards = {row["solution"] for row in rows}
        for board in boards:
            verdict = p.check(n, json.loads(board), params)
            assert verdict.ok and verdict.objective == value, (puzzle, n, verdict.message)
        if twice:
            assert len({method(r) for r in rows}) >= 2, f"{puzzle} N = {n}: 'proven twice' by one method"
