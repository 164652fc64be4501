"""Rewrite the results tables and bench.csv in today's schema words, so that no reader keeps a shim
for the project's own old rows. Rerunnable: a table already in today's words is left as it is.

    python scripts/migrate_results.py [--check] [DIR]        (DIR: results)

What it rewrites, and nothing else (values, boards, proofs and times stay byte for byte):
- formulation `native` (the name runs had before the search methods were named) becomes the method
  the row's puzzle, N and setting imply (the one `table` would run today for that row's variant);
  a table without a setting column whose variant only an option explains (percolation-permutation)
  gains the column, with that option;
- status `optimal` on a count (a row from before counts had `complete`) becomes `complete`.
`--check` changes nothing and exits 1 if a table would change (a test and CI can ask).

A script, not a command: it is for this project's own tables, once per schema change, and a user's
tables written by this version are already in today's words."""
from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError
from workbench.models.core import Count
from workbench.puzzles import get
from workbench.puzzles.base import Puzzle
from workbench.records import setting_text

OLD_METHOD = "native"


def _method(p: Puzzle[Any], n: int | None, variant: str | None, params: Any, setting: dict[str, Any]) -> tuple[str, dict]:
    """The search method a `native` row ran, and its setting: the method whose table is the row's
    variant (the puzzle's default for N first); a table without a setting column whose variant an
    option explains gets that option; without a variant (a bench row), the default for its case."""
    tries = [(params, setting)]
    if variant is not None and not setting:
        for o in p.options:
            if o.default is False:
                try:
                    tries.append((p.params({o.dest: True}), {o.dest: True}))
                except WorkbenchError:
                    continue
    for typed, chosen in tries:
        default = p.default_method(n, typed)
        for method in [default] + [m for m in p.methods if m != default]:
            try:
                p.validate_run(n, typed, method)
            except WorkbenchError:
                continue
            if variant is None or p.variant(typed, method) == variant:
                return method, chosen
    raise SystemExit(f"no search method of {p.name} explains a native row of {variant} n = {n} {setting}")


def _counts(p: Puzzle[Any], formulation: str) -> bool:
    return formulation in [f.name for f in p.formulations] and isinstance(p.question_of(formulation), Count)


def migrate_row(row: dict[str, str], bench: bool) -> dict[str, str]:
    """The row in today's words (a copy; the same row where nothing changes)."""
    if row.get("formulation") != OLD_METHOD and row.get("status") != "optimal":
        return row
    p = get(row["puzzle"])
    n = int(row["n"]) if row.get("n") else None
    out = dict(row)
    if bench:
        case = next((c for c in p.bench_cases() if c.label == row.get("label")), None)
        params, setting = p.params(case.params if case is not None else None), {}
        counting = case is not None and case.count
    else:
        setting, counting = _setting(row.get("setting")), False
        params = p.params(setting)
    if out.get("formulation") == OLD_METHOD and bench and case is not None and case.formulation in p.methods:
        out["formulation"] = case.formulation          # the case names its method
    elif out.get("formulation") == OLD_METHOD:
        out["formulation"], setting = _method(p, n, None if bench else row.get("variant"), params, setting)
        if not bench and setting and not row.get("setting"):
            out["setting"] = setting_text(setting)
    if out.get("status") == "optimal" and (counting or p.sense is None or _counts(p, out["formulation"])):
        out["status"] = "complete"
    return out


def _setting(text: str | None) -> dict[str, Any]:
    return dict(json.loads(text)) if text else {}


def migrate_text(text: str) -> str:
    """A table's text in today's words."""
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = list(reader.fieldnames or [])
    if not header:
        return text
    bench = header[0] == "label"
    rows = [migrate_row(row, bench) for row in reader]
    if any("setting" in r for r in rows) and "setting" not in header:
        header.append("setting")
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=header, lineterminator="\n", restval="")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def migrate(folder: Path, check: bool = False) -> list[Path]:
    """Every table of `folder` in today's words; returns the tables that changed (or would)."""
    changed = []
    for path in sorted(folder.glob("*.csv")):
        text = path.read_text()
        new = migrate_text(text)
        if new != text:
            changed.append(path)
            if not check:
                tmp = path.with_suffix(".csv.tmp")
                tmp.write_text(new)
                tmp.replace(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="results", type=Path)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a table would change")
    args = parser.parse_args(argv)
    changed = migrate(args.folder, args.check)
    for path in changed:
        print(f"{'would rewrite' if args.check else 'rewrote'} {path}")
    if not changed:
        print(f"{args.folder}: every table already in today's schema")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
