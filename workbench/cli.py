"""Command line: list, solvers, solve, count, table, compare, export, verify, bench."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console
from rich.table import Table

from . import pipeline, tables
from .puzzles import available, get, published
from .puzzles.base import BadInput, Puzzle
from .solvers import UnknownSolver, available_solvers, canonical, require
from .solvers.base import Options, Status, Unavailable, clean_number

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)
RESULTS = Path("results")


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:     # one line, status 2, no usage dump
        sys.stderr.write(f"workbench: error: {message}\n")
        sys.exit(2)


def n_range(text: str) -> list[int]:
    """'6', '1..10' or '3,5,7'."""
    try:
        if ".." in text:
            a, b = text.split("..")
            return list(range(int(a), int(b) + 1))
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise BadInput(f"bad --n '{text}': use N, A..B or a comma list") from None


def positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: '{text}'") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive: '{text}'")
        return value
    return parse


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="workbench", description="Integer-programming and constraint-model workbench "
                                             "for combinatorial puzzles")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    sub.add_parser("list", help="the puzzles")
    sub.add_parser("solvers", help="backends with versions, or why they are unavailable")

    def common(q: argparse.ArgumentParser, many_n: bool = False, many_solvers: bool = False) -> None:
        q.add_argument("puzzle")
        q.add_argument("--n", help="N, or A..B" if many_n else "N")
        if many_solvers:
            q.add_argument("--solvers", required=True, help="comma list, e.g. highs,cbc,maxsat")
        else:
            q.add_argument("--solver", help="backend (default: the puzzle's fastest)")
        q.add_argument("--time-limit", type=positive(float), default=60.0, help="seconds (default 60)")
        q.add_argument("--threads", type=positive(int), default=2)
        q.add_argument("--seed", type=int, default=0)
        q.add_argument("--formulation", help="model formulation (see `workbench list`)")
        q.add_argument("-v", "--verbose", action="store_true", help="solver log on stderr")
        q.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="puzzle parameter, e.g. --set margin=1 (puzzle flags below do the same)")
        for opt in _puzzle_options():
            if opt.type is None:
                q.add_argument(opt.flag, action="store_true", default=None, help=opt.help)
            else:
                q.add_argument(opt.flag, type=opt.type, default=None, help=opt.help)

    s = sub.add_parser("solve", help="solve one N")
    common(s)
    s.add_argument("--json", action="store_true")
    s.add_argument("--png", help="write a PNG drawing of the solution")
    s.add_argument("--certify", nargs="?", type=positive(float), const=600.0, metavar="SECONDS",
                   help="check the lower bound with a DRUP proof checked by drup (hitting sets; limit 600 s)")
    c = sub.add_parser("count", help="count all solutions (counting puzzles)")
    common(c)
    c.add_argument("--json", action="store_true")
    c.add_argument("--show", type=int, default=0, help="draw K example solutions")
    c.add_argument("--png", help="write a PNG drawing of the example solutions")
    t = sub.add_parser("table", help="a row per N appended to results/<puzzle>.csv; reruns resume")
    common(t, many_n=True)
    t.add_argument("-o", "--output", help="CSV file (default results/<puzzle>.csv)")
    t.add_argument("--redo", action="store_true", help="recompute rows already in the file")
    k = sub.add_parser("compare", help="every backend on the same model and limit")
    common(k, many_solvers=True)
    k.add_argument("-o", "--output", help="CSV file (default results/compare-<puzzle>-n<N>.csv)")
    e = sub.add_parser("export", help="write the model as LP, MPS, WCNF or MiniZinc")
    common(e)
    e.add_argument("--format", required=True, choices=["lp", "mps", "wcnf", "mzn"])
    e.add_argument("-o", "--output", required=True)
    v = sub.add_parser("verify", help="check a saved solution (a `solve --json` file or a bare solution)")
    common(v)
    v.add_argument("file")
    b = sub.add_parser("bench", help="the canonical performance cases; figures to results/bench.csv")
    b.add_argument("--puzzle", action="append", help="only these puzzles (repeatable)")
    b.add_argument("--solver", action="append", help="only these backends (repeatable)")
    b.add_argument("--label", help="only cases whose label contains this text")
    b.add_argument("-o", "--output", default=str(RESULTS / "bench.csv"))
    return p


def _puzzle_options():
    seen = {}
    for puzzle in available():
        for opt in puzzle.options:
            seen.setdefault(opt.flag, opt)
    return seen.values()


def _params(args: argparse.Namespace, puzzle: Puzzle) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for item in args.set:
        key, eq, value = item.partition("=")
        if not eq:
            raise BadInput(f"--set wants KEY=VALUE, got '{item}'")
        try:
            params[key] = json.loads(value)
        except ValueError:
            params[key] = value
    known = {o.dest: o for o in puzzle.options}
    for opt in _puzzle_options():
        value = getattr(args, opt.dest, None)
        if value is None:
            continue
        if opt.dest not in known:
            raise BadInput(f"{opt.flag} does not apply to {puzzle.name}")
        params[opt.dest] = value
    for key in params:
        if key not in known:
            raise BadInput(f"{puzzle.name} has no parameter '{key}' "
                           f"(known: {', '.join(known) or 'none'})")
    for opt in puzzle.options:
        if opt.dest not in params and opt.default is not None:
            params[opt.dest] = opt.default
    return params


def _options(args: argparse.Namespace, count: bool = False) -> Options:
    return Options(time_limit=args.time_limit, threads=args.threads, seed=args.seed,
                   verbose=args.verbose, count=count)


def _single_n(args: argparse.Namespace, puzzle: Puzzle) -> int | None:
    if not puzzle.needs_n:
        if args.n is not None:
            raise BadInput(f"{puzzle.name} takes no --n")
        return None
    if args.n is None:
        raise BadInput(f"{puzzle.name} needs --n")
    try:
        return int(args.n)
    except ValueError:
        raise BadInput(f"--n must be an integer, got '{args.n}'") from None


# -- commands -------------------------------------------------------------------------------

def cmd_list(args) -> int:
    table = Table("puzzle", "question", "N", "formulations", "default solver", "native search")
    for p in available():
        table.add_row(p.name, p.title, f"{p.n_min}..{p.n_max}" if p.needs_n else "-",
                      ", ".join(f.name for f in p.formulations), p.default_solver,
                      "yes" if p.native_search else "-")
    out.print(table)
    return 0


def cmd_solvers(args) -> int:
    table = Table("solver", "status", "version / note")
    for info in available_solvers():
        table.add_row(info.name, "ok" if info.available else "missing",
                      info.version if info.available else info.note)
    out.print(table)
    return 0


def _run_one(args, puzzle: Puzzle, n: int | None, solver: str, count: bool = False) -> pipeline.Run:
    options = _options(args, count)
    if count and getattr(args, "show", 0):
        options.params["show"] = args.show
    return pipeline.solve(puzzle.name, n, solver, options, args.formulation, _params(args, puzzle))


def _print_run(run: pipeline.Run, puzzle: Puzzle, show_drawing: bool = True) -> None:
    rec, r = run.record(), run.result
    head = f"{puzzle.name}" + (f" N={run.n}" if run.n is not None else "")
    out.print(f"[bold]{head}[/]  solver {r.solver} ({r.solver_version or '?'})  formulation {run.formulation}")
    what = "count" if run.counting else "value"
    value = run.value
    proven = "proven" if r.proven else "not proven"
    out.print(f"{what} {value if value is not None else '-'}   status {r.status} ({proven})   "
              f"bound {rec['bound'] if rec['bound'] is not None else '-'}   time {rec['seconds']:.2f} s "
              f"(generate {run.generate_seconds:.2f}, build {r.build_seconds:.2f}, solve {r.solve_seconds:.2f})")
    if r.count is not None and not run.counting:
        out.print(f"optimal solutions counted: {r.count}")
    if r.message and (r.status in (Status.ERROR, Status.UNKNOWN, Status.FEASIBLE) or r.count is not None):
        out.print(f"note: {r.message}")
    if show_drawing and r.solution is not None:
        drawings = r.solution if run.counting else [r.solution]
        for i, s in enumerate(drawings):
            out.print(("\n" if i else "") + puzzle.render(run.n, s, run.params), markup=False)
    if run.verdict is not None:
        mark = "[green]verified[/]" if run.verified else "[red]REJECTED[/]"
        out.print(f"check: {mark}: {run.verdict.message}")
    cert = r.params.get("certificate")
    if cert:
        out.print(f"certificate: no solution below {cert['lower_bound']}: {cert['verdict']} "
                  f"(CaDiCaL refutes {cert['clauses']} clauses; its trimmed proof uses {cert['core_clauses']} "
                  f"of them in {cert['proof_lines']} lemmas, "
                  f"checked by drup in {cert['check_seconds']:.1f} s; proof sha256 {cert['proof_sha256'] or '-'})")
    if run.published is not None:
        pub = run.published
        out.print(f"published: {pub.value} ({pub.status}; {pub.source})   match: {run.match or '-'}")


def cmd_solve(args, count: bool = False) -> int:
    puzzle = get(args.puzzle)
    solver = canonical(args.solver or (puzzle.default_solver if puzzle.counts or not count else "cpsat"))
    if count:
        if not puzzle.can_count:
            raise BadInput(f"{puzzle.name} is not a counting puzzle")
        if not puzzle.counts and (solver == "search" or args.formulation not in (None, *puzzle.count_formulations)):
            raise BadInput(f"{puzzle.name} counts with a model backend and the "
                           f"{'/'.join(puzzle.count_formulations)} formulation")
    n = _single_n(args, puzzle)
    require(solver)
    run = _run_one(args, puzzle, n, solver, count)
    if getattr(args, "certify", None):
        pipeline.certify(run, args.certify)
    if getattr(args, "png", None) and run.result.solution is not None:
        puzzle.png(n, run.result.solution, args.png, run.params)
    if args.json:
        print(json.dumps(run.record(), default=str))
    else:
        _print_run(run, puzzle)
        if getattr(args, "png", None) and run.result.solution is not None:
            out.print(f"drawing written to {args.png}")
    return 0 if run.result.status != Status.ERROR else 1


def cmd_table(args) -> int:
    from rich.progress import Progress

    puzzle = get(args.puzzle)
    if puzzle.needs_n and args.n is None:
        raise BadInput(f"{puzzle.name} needs --n")
    ns = n_range(args.n) if puzzle.needs_n else [None]
    for n in ns:
        puzzle.validate(n, {})
    solver = canonical(args.solver or puzzle.default_solver)
    require(solver)
    params = _params(args, puzzle)
    formulation = args.formulation if args.formulation and solver != "search" else puzzle.formulation_for(solver)
    key = puzzle.variant(params, formulation)
    path = Path(args.output) if args.output else RESULTS / f"{key}.csv"
    done = set() if args.redo else tables.done_keys(tables.read_rows(path))
    count = puzzle.is_count(formulation)
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task(f"{key} with {solver}", total=len(ns))
        for n in ns:
            k = (puzzle.name, key, "" if n is None else str(n), formulation, solver)
            if k in done:
                out.print(f"N={n}: already in {path}, skipped (--redo recomputes)")
                progress.advance(task)
                continue
            progress.update(task, description=f"{key} N={n} with {solver}")
            run = _run_one(args, puzzle, n, solver, count)
            rec = run.record()
            tables.append_row(path, tables.row_from_record(rec))
            value = run.value if run.value is not None else "-"
            pub = "" if run.published is None else f"  published {run.published.value} ({run.published.status})"
            out.print(f"{'N=' + str(n) if n is not None else puzzle.name}: {value}  {rec['status']}  bound {rec['bound'] if rec['bound'] is not None else '-'}"
                      f"  {rec['seconds']:.2f} s  verified {run.verified}{pub}  {run.match}")
            progress.advance(task)
    out.print(f"rows in {path}")
    return 0


def disagreements(runs: Sequence[pipeline.Run], sense: str) -> list[str]:
    """Contradictions between backends: different proven optima, or a solution beyond a proven bound."""
    issues = []
    sign = 1 if sense == "min" else -1
    for a in runs:
        for b in runs:
            ra, rb = a.result, b.result
            if a is b or ra.status == Status.ERROR or rb.status == Status.ERROR:
                continue
            if ra.count is not None or rb.count is not None:
                if ra.status == rb.status == Status.OPTIMAL and ra.count != rb.count and ra.solver < rb.solver:
                    issues.append(f"{ra.solver} counts {ra.count} but {rb.solver} counts {rb.count}")
                continue
            if ra.status == rb.status == Status.OPTIMAL and ra.objective != rb.objective and ra.solver < rb.solver:
                issues.append(f"{ra.solver} proves {clean_number(ra.objective)} but {rb.solver} proves "
                              f"{clean_number(rb.objective)}")
            if ra.objective is not None and rb.bound is not None and sign * (ra.objective - rb.bound) < -1e-6:
                issues.append(f"{ra.solver} found {clean_number(ra.objective)}, beyond {rb.solver}'s "
                              f"bound {clean_number(rb.bound)}")
            if {ra.status, rb.status} == {Status.INFEASIBLE, Status.OPTIMAL} and ra.status == Status.INFEASIBLE:
                issues.append(f"{ra.solver} says infeasible but {rb.solver} found a solution")
    return issues


def cmd_compare(args) -> int:
    puzzle = get(args.puzzle)
    n = _single_n(args, puzzle)
    solvers = [canonical(s.strip()) for s in args.solvers.split(",") if s.strip()]
    count = puzzle.is_count(args.formulation or "")
    runs = []
    for solver in solvers:
        err.print(f"running {solver} ...")
        runs.append(_run_one(args, puzzle, n, solver, count))
    path = Path(args.output) if args.output else RESULTS / f"compare-{puzzle.name}-n{n}.csv"
    table = Table("solver", "version", "status", "count" if count else "objective", "bound", "seconds",
                  "verified", title=f"{puzzle.name} N={n}, time limit {args.time_limit} s")
    for run in runs:
        rec = run.record()
        tables.append_row(path, tables.row_from_record(rec))
        table.add_row(rec["solver"], rec["solver_version"], rec["status"],
                      str(run.value if run.value is not None else "-"),
                      str(rec["bound"] if rec["bound"] is not None else "-"), f"{rec['seconds']:.2f}",
                      str(run.verified))
        for racer in rec["params"].get("racers", []):     # each racer of a portfolio run
            table.add_row(f"  {racer['racer']}", "", racer["status"], str(clean_number(racer["objective"]) or "-"),
                          str(clean_number(racer["bound"]) or "-"), f"{racer['seconds']:.2f}", "")
    out.print(table)
    issues = disagreements(runs, puzzle.sense)
    for issue in issues:
        out.print(f"[red]DISAGREEMENT[/]: {issue}")
    if not issues:
        out.print("no disagreement between backends")
    out.print(f"rows appended to {path}")
    return 1 if issues else 0


def cmd_export(args) -> int:
    from .models.writers import write

    puzzle = get(args.puzzle)
    n = _single_n(args, puzzle)
    params = _params(args, puzzle)
    puzzle.validate(n, params)
    made_for = {"wcnf": "maxsat", "mzn": "minizinc"}.get(args.format, "highs")
    model = puzzle.model(n, args.formulation or puzzle.formulation_for(made_for), params)
    try:
        files = write(model, args.format, args.output)
    except ValueError as e:
        raise BadInput(str(e)) from None
    out.print("wrote " + ", ".join(str(f) for f in files))
    return 0


def cmd_verify(args) -> int:
    puzzle = get(args.puzzle)
    try:
        data = json.loads(Path(args.file).read_text())
    except FileNotFoundError:
        raise BadInput(f"no such file: {args.file}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadInput(f"{args.file} is not JSON ({e})") from None
    n = data.get("n") if isinstance(data, dict) and args.n is None else _single_n(args, puzzle)
    solution = data["solution"] if isinstance(data, dict) and "solution" in data else data
    params = _params(args, puzzle)
    if isinstance(data, dict) and isinstance(data.get("params"), dict):
        params = {**{k: v for k, v in data["params"].items() if k in {o.dest for o in puzzle.options}},
                  **params}
    puzzle.validate(n, params)
    verdict = puzzle.check(n, solution, params)
    out.print(puzzle.render(n, solution, params), markup=False)
    out.print(("[green]valid[/]: " if verdict.ok else "[red]INVALID[/]: ") + verdict.message)
    return 0 if verdict.ok else 1


def cmd_bench(args) -> int:
    from .bench import run_bench

    return run_bench(args.puzzle, args.solver, args.label, Path(args.output), out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    commands = {"list": cmd_list, "solvers": cmd_solvers, "solve": cmd_solve,
                "count": lambda a: cmd_solve(a, count=True), "table": cmd_table, "compare": cmd_compare,
                "export": cmd_export, "verify": cmd_verify, "bench": cmd_bench}
    try:
        return commands[args.command](args)
    except (BadInput, UnknownSolver, Unavailable) as e:
        sys.stderr.write(f"workbench: error: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("workbench: interrupted; rows already written are kept\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
