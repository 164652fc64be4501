"""The layout's contracts, checked statically over workbench/, and a toy puzzle from this folder
taken through solve, table and verify with nothing in workbench/ changed."""
from __future__ import annotations

import ast
import builtins
import importlib
import json
from pathlib import Path

import pytest

from workbench import api, cli
from workbench.puzzles.base import BadInput
from workbench.solvers import BACKENDS

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports(name: str) -> set[str]:
    """The workbench modules `name` imports, at module level or inside functions alike."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = f"{base}.{node.module}" if node.level and node.module else (node.module or base)
            submodules = {f"{target}.{alias.name}" for alias in node.names} & MODULES.keys()
            found |= submodules if node.module is None and submodules else {target} | submodules
    return {m for m in found if m in MODULES and m != name}


def test_no_import_cycles():
    graph = {name: imports(name) for name in MODULES}
    state: dict[str, int] = {}          # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(graph[name]):
            assert state.get(nxt) != 1, "import cycle: " + " -> ".join(path[path.index(nxt):] + [name, nxt])
            if nxt not in state:
                visit(nxt, path + [name])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


# The floors of workbench/, lowest first: a module imports its own floor and the floors below, never
# one above. Each name is a top-level module or package of workbench/ ("workbench": its __init__).
FLOORS = [
    {"errors", "records", "kernel_cache"},                              # imports nothing of the project above
    {"models", "search", "tables", "drawing", "lrat", "certify"},       # models, native tools, storage
    {"puzzles", "solvers"},                                             # siblings: neither imports the other
    {"userfile"},                                                       # model files: read, run, checked
    {"checks", "pipeline", "usermodel", "frames"},                      # a run planned, made and checked
    {"api", "bench", "bfile", "modelruns", "report", "showcase", "plots"},  # the commands as functions
    {"cli", "__main__", "workbench"},                                   # the front doors
]
UPWARD = {   # imports known to run up a floor, each with its reason
    # the MiniZinc backend runs a user's .mzn file as written: it takes the file from the file reader
    ("workbench.solvers.minizinc", "workbench.userfile.flatzinc"),
}


def part(name: str) -> str:
    """The top-level module or package of workbench/ that module `name` belongs to."""
    return name.split(".")[1] if "." in name else name


def floor(name: str) -> int:
    return next(i for i, names in enumerate(FLOORS) if part(name) in names)


def test_every_module_sits_on_a_floor_and_imports_only_its_floor_and_below():
    unplaced = [n for n in MODULES if not any(part(n) in names for names in FLOORS)]
    assert not unplaced, f"give these a floor in FLOORS: {unplaced}"
    upward = {(n, m) for n in MODULES for m in imports(n) if floor(m) > floor(n)}
    assert upward == UPWARD, sorted(upward ^ UPWARD)
    siblings = {(n, m) for n in MODULES for m in imports(n) if {part(n), part(m)} == {"puzzles", "solvers"}}
    assert not siblings, sorted(siblings)


def _exception_classes(path: Path, known: set[str]) -> list[str]:
    """The classes `path` defines over an exception: a builtin one or a name in `known`."""
    def based_on_exception(base: ast.expr) -> bool:
        name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
        builtin = getattr(builtins, name, None)
        return name in known or isinstance(builtin, type) and issubclass(builtin, BaseException)
    return [node.name for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.ClassDef) and any(based_on_exception(b) for b in node.bases)]


def test_every_error_raised_on_purpose_is_a_workbench_error_from_errors_py():
    """errors.py defines them all (the others import and re-export them); a class over an exception
    anywhere else is private control flow (`_Timeout`), never one a caller has to know of."""
    from workbench import errors

    public = {name for name, obj in vars(errors).items()
              if isinstance(obj, type) and issubclass(obj, BaseException) and obj.__module__ == errors.__name__}
    assert len(public) == 15 and all(issubclass(getattr(errors, name), errors.WorkbenchError) for name in public)
    elsewhere = [(p, name) for p in MODULES.values() if p.name != "errors.py"
                 for name in _exception_classes(p, public | {"_Timeout", "_BuildCut"})]
    assert len(elsewhere) >= 2, elsewhere        # _Timeout, _BuildCut: the scan finds classes
    assert not [(str(p.relative_to(PACKAGE)), name) for p, name in elsewhere if not name.startswith("_")]
    old_homes = {"puzzles.base": "BadInput", "solvers": "UnknownSolver Unavailable UnsupportedModel",
                 "search.tasks": "JournalBusy JournalBroken SchedulerUnreachable", "search.outcome": "Refused",
                 "api": "RowNotStored", "pipeline": "BadRow", "tables": "NotOurs",
                 "puzzles.stones.hunt.store": "BrokenStore", "userfile.flatzinc": "CompileCut NotLinear"}
    for module, names in old_homes.items():
        for name in names.split():
            assert getattr(importlib.import_module(f"workbench.{module}"), name) is getattr(errors, name)
    assert issubclass(errors.UnknownSolver, ValueError) and issubclass(errors.BadRow, ValueError)
    assert issubclass(errors.NotOurs, errors.BadInput)


def test_checkers_import_neither_generator_nor_search():
    checkers = [n for n in MODULES if n.startswith("workbench.puzzles.") and n.endswith(".check")]
    assert len(checkers) == 5
    for name in checkers:
        assert imports(name) <= {"workbench.puzzles.base", "workbench.puzzles"}, (name, imports(name))


def _backend_name_checks(path: Path) -> list[str]:
    """A solver or backend compared with a backend's name, or startswith() one: code that
    special-cases a backend (formulations may share a backend's name, as squares' maxsat does)."""
    names = set(BACKENDS)

    def named(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value.partition(":")[0] in names
        return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(named(e) for e in node.elts)

    def about_backends(node: ast.AST) -> bool:
        return any(word in ast.unparse(node) for word in ("solver", "backend", "base", "sub"))

    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        operands = [node.left, *node.comparators] if isinstance(node, ast.Compare) else []
        if any(named(x) for x in operands) and any(about_backends(x) for x in operands if not named(x)):
            found.append(f"{path.name}:{node.lineno}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "startswith" and any(named(a) for a in node.args):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_backend_is_named_outside_its_own_module():
    own = {PACKAGE / "solvers" / f"{mod.split(':')[0].rsplit('.', 1)[-1]}.py" for mod in BACKENDS.values()}
    checks = [hit for path in MODULES.values() if path not in own for hit in _backend_name_checks(path)]
    assert not checks, checks


def test_a_toy_puzzle_from_the_test_folder_runs_through_solve_table_and_verify(toy, tmp_path, capsys):
    run = api.solve(toy, 7, solver="maxsat", time_limit=30)
    assert (run.value, run.status, run.verified, run.match) == (4, "optimal", True, "yes")
    rows = api.table(toy, "2..6", solver="highs", time_limit=30, results_dir=tmp_path)
    assert [r.value for r in rows] == [1, 2, 2, 3, 3] and all(r.match == "yes" for r in rows)
    assert (tmp_path / "cyclecover.csv").is_file()
    record = tmp_path / "seven.json"
    record.write_text(json.dumps(run.record().to_json()))
    assert cli.main(["verify", toy, "--n", "7", str(record)]) == 0
    bad = dict(run.record().to_json(), solution=run.solution[1:])
    record.write_text(json.dumps(bad))
    assert cli.main(["verify", toy, "--n", "7", str(record)]) == 1
    assert "INVALID" in capsys.readouterr().out


def test_the_toy_gains_a_search_method_and_a_count_each_one_module_and_one_formulation_line(toy, tmp_path):
    """tests/toy/search.py and covers.py, each named by one Formulation line of the toy's puzzle.py:
    the native backend runs them, and their answers go through the toy's own checker."""
    searched = api.solve(toy, 7, solver="search", formulation="brute", time_limit=30)
    assert (searched.value, searched.status, searched.verified, searched.match) == (4, "optimal", True, "yes")
    assert searched.formulation == "brute" and searched.solver == "search"
    counted = api.count(toy, 8, show=3, time_limit=30)           # the default: the backend that runs counts
    assert (counted.value, counted.status, counted.verified, counted.match) == (47, "complete", True, "yes")
    assert counted.formulation == "covers" and len(counted.solution) == 3
    assert [r.value for r in api.table(toy, "3..6", formulation="covers", solver="search", time_limit=30,
                                       results_dir=tmp_path)] == [4, 7, 11, 18]
    with pytest.raises(BadInput, match="search method"):
        api.solve(toy, 7, solver="highs", formulation="brute")
    with pytest.raises(BadInput, match="counts"):
        api.solve(toy, 7, solver="search", formulation="covers")


def _name_checks(path: Path) -> list[str]:
    """Comparisons or isinstance() tests that name NATIVE or NativeTask: code that special-cases the
    native search instead of asking a formulation or a backend."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        tested = [node.left, *node.comparators] if isinstance(node, ast.Compare) else \
            node.args if isinstance(node, ast.Call) and ast.unparse(node.func) == "isinstance" else []
        if any(name in ast.unparse(x) for x in tested for name in ("NATIVE", "NativeTask")):
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_only_the_native_backend_and_the_base_modules_check_for_the_native_search():
    allowed = {PACKAGE / "solvers" / "search.py", PACKAGE / "solvers" / "base.py", PACKAGE / "puzzles" / "base.py"}
    checks = [hit for path in MODULES.values() if path not in allowed for hit in _name_checks(path)]
    assert not checks, checks


def test_no_puzzle_package_imports_the_solvers():
    """A search answers with an Outcome; the native backend alone makes a Result of it."""
    puzzles = [n for n in MODULES if n.startswith("workbench.puzzles.") and n.count(".") >= 3]
    assert len(puzzles) > 20
    bad = {n: sorted(m for m in imports(n) if m.startswith("workbench.solvers")) for n in puzzles}
    assert not {n: m for n, m in bad.items() if m}, bad


MOST_LINES = 600


def test_no_file_in_workbench_is_over_600_lines():
    """Every file in workbench/ (code and data, numba's caches aside) counted: none over 600 lines."""
    files = [p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len(files) > 80
    over = {str(p.relative_to(PACKAGE)): p.read_bytes().count(b"\n") for p in files}
    over = {name: lines for name, lines in over.items() if lines > MOST_LINES}
    assert not over, over


def test_a_run_is_planned_once_and_looks_its_puzzle_up_once(monkeypatch):
    """plan() makes the Request once; every later step takes it, so the registry is asked once."""
    from workbench import puzzles

    plans = []
    real_plan = api.plan
    monkeypatch.setattr(api, "plan", lambda *a, **k: plans.append(a[1]) or real_plan(*a, **k))
    lookups = puzzles.get.cache_info()
    run = api.solve("enigma144", 4, solver="maxsat", time_limit=30)
    after = puzzles.get.cache_info()
    assert (run.value, run.verified, run.match) == (13, True, "yes")
    assert plans == [4] and (after.hits + after.misses) - (lookups.hits + lookups.misses) == 1
    plans.clear()
    counted = api.count("percolation", 4)
    assert (counted.value, counted.status, plans) == (130, "complete", [4])


ROW_READERS = {"read_rows", "numbered_rows", "DictReader"}       # what yields a stored run's row as text
ROW_TYPES = ("dict[str, str]", "Mapping[str, str]")


def _root(node: ast.AST) -> str:
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def _names(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def string_keyed_row_access(source: str, columns: set[str]) -> list[int]:
    """Lines that read a stored run's column by its name off a row dict. A row dict is a name bound
    (by assignment or a for loop, also a comprehension's) to what a CSV row reader yields
    (tables.read_rows / numbered_rows, csv.DictReader) or to an element of such a name, or a
    parameter annotated dict[str, str] or Mapping[str, str] (a row's text); an access is a
    subscript `row["proven"]` or a call `row.get("status", ...)` whose key is a column of
    records.COLUMNS or BENCH_COLUMNS. pandas DataFrames (frames.py, report.py: `df["status"]`) are
    no row dicts: they are bound by pandas, never by a row reader, so they pass."""
    tree = ast.parse(source)
    rows = {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg) and a.annotation is not None
            and any(t in ast.unparse(a.annotation) for t in ROW_TYPES)}
    bindings = [(_names(t), node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)
                for t in node.targets]
    bindings += [(_names(node.target), node.iter) for node in ast.walk(tree)
                 if isinstance(node, (ast.For, ast.comprehension))]
    read = [(names, value) for names, value in bindings if any(
        isinstance(c, ast.Call) and ast.unparse(c.func).rpartition(".")[2] in ROW_READERS for c in ast.walk(value))]
    for names, _ in read:
        rows |= names
    for _ in range(3):           # names bound from names bound from a reader
        for names, value in bindings:
            if _root(value) in rows:
                rows |= names
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            key, owner = node.slice.value, node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and node.args and isinstance(node.args[0], ast.Constant):
            key, owner = node.args[0].value, node.func.value
        else:
            continue
        if key in columns and _root(owner) in rows:
            found.append(node.lineno)
    return found


def test_stored_runs_are_read_as_records_not_by_column_names():
    """Only records.py (the schema) and tables.py (the file format) read a row by its column names;
    every other reader takes a Record. puzzles/__init__.py and stones/hunt/beam.py read published
    reference data (values, record boards), schemas of their own (n, value, status, source; n,
    board), not stored runs."""
    from workbench.records import BENCH_COLUMNS, COLUMNS

    columns = set(COLUMNS) | set(BENCH_COLUMNS)
    caught = string_keyed_row_access(
        "def f(path, row: dict[str, str]):\n"
        "    a = [r for r in tables.read_rows(path) if r['proven'] == 'True']\n"
        "    for line, r in numbered_rows(path):\n        b = r.get('status')\n"
        "    rows = read_rows(path)\n    c = rows[-1]['n']\n    d = row.get('verified')\n"
        "    df = pd.read_csv(path)\n    e = df['status']\n    params = {}\n    g = params['threads']\n", columns)
    assert sorted(caught) == [2, 4, 6, 7], caught          # the DataFrame and a plain dict pass
    exempt = {PACKAGE / "records.py", PACKAGE / "tables.py", PACKAGE / "puzzles" / "__init__.py",
              PACKAGE / "puzzles" / "stones" / "hunt" / "beam.py"}
    hits = {str(p.relative_to(PACKAGE)): lines for p in MODULES.values() if p not in exempt
            if (lines := string_keyed_row_access(p.read_text(), columns))}
    assert not hits, hits
