"""Command line: list, solvers, solve, count, table, compare, export, verify, bench, showcase, plot,
journals."""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import api, checks, frames, pipeline, tables
from .checks import SEED, SHOW, THREADS, TIME_LIMIT, writable
from .errors import WorkbenchError
from .models.core import Count, Optimise
from .puzzles import available, get
from .puzzles.base import BadInput, Puzzle, PuzzleOption
from .search.survey import Unreadable
from .search.tasks import cluster_address, code_version, copy_journal, journals, survey
from .solvers import BACKENDS, available_solvers, backend_class, known
from .solvers.base import Options
from .solvers.search import warm_up
from .tables import RESULTS

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:     # one line, status 2, no usage dump
        sys.stderr.write(f"workbench: error: {message}\n")
        sys.exit(2)


# The method flags of the last release, each now a formulation: refused with the one spelling that
# replaced it (remove them in the release after).
RETIRED = {"--exact": "exact", "--hunt": "hunt", "--heuristic": "heuristic", "--counter": "recursion|residues|transfer"}


class _Retired(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        parser.error(f"{option_string} is gone: use --formulation {values or self.const}")


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="workbench", description="Integer-programming and constraint-model workbench "
                                             "for combinatorial puzzles")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    sub.add_parser("list", help="the puzzles")
    sub.add_parser("solvers", help="backends with versions, or why they are unavailable")

    def common(q: argparse.ArgumentParser, many_n: bool = False, many_solvers: bool = False,
               model: bool = False) -> None:
        q.add_argument("puzzle", nargs="?" if model else None, help="the puzzle (or --model FILE)")
        if model:
            model_flags(q, many_solvers)
        q.add_argument("--n", help="N, or A..B" if many_n else "N")
        if many_solvers:
            q.add_argument("--solvers", help="comma list, e.g. highs,cbc,maxsat (with --model: default every "
                                             "backend that takes the file)")
        else:
            q.add_argument("--solver", help="backend (default: the puzzle's fastest)")
        q.add_argument("--time-limit", type=TIME_LIMIT, default=60.0, help="seconds (default 60)")
        q.add_argument("--threads", type=THREADS, default=2)
        q.add_argument("--seed", type=SEED, default=0)
        q.add_argument("--formulation", help="model formulation or search method (see `workbench list`)")
        q.add_argument("-v", "--verbose", action="store_true", help="solver log on stderr")
        q.add_argument("--cluster", type=cluster_address, metavar="WHERE",
                       help="native searches: local:K worker processes, tcp://HOST:PORT or a scheduler file "
                            "(default: threads)")
        q.add_argument("--fresh", action="store_true",
                       help="native searches: start over instead of resuming an interrupted run's journal")
        q.add_argument("-q", "--quiet", action="store_true", help="native searches: no progress on stderr")
        q.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="puzzle parameter, e.g. --set margin=1 (puzzle flags below do the same)")
        for opt in _puzzle_options():
            if opt.type is None:
                q.add_argument(opt.flag, action="store_true", default=None, help=opt.help)
            else:
                q.add_argument(opt.flag, type=opt.type, default=None, help=opt.help)
        for flag, method in RETIRED.items():
            q.add_argument(flag, action=_Retired, nargs="?" if "|" in method else 0, const=method,
                           help=argparse.SUPPRESS)

    s = sub.add_parser("solve", help="solve one N")
    common(s, model=True)
    s.add_argument("--json", action="store_true")
    s.add_argument("--png", help="write a PNG drawing of the solution")
    s.add_argument("--certify", nargs="?", type=TIME_LIMIT, const=600.0, metavar="SECONDS",
                   help="check the lower bound with a DRUP proof checked by drup (hitting sets; limit 600 s)")
    c = sub.add_parser("count", help="count all solutions (counting puzzles)")
    common(c)
    c.add_argument("--json", action="store_true")
    c.add_argument("--show", type=SHOW, default=0, help=f"draw K example solutions (at most {checks.MAX_SHOW})")
    c.add_argument("--png", help="write a PNG drawing of the example solutions")
    t = sub.add_parser("table", help="a row per N appended to results/<puzzle>.csv; reruns resume")
    common(t, many_n=True)
    t.add_argument("-o", "--output", help="CSV file (default <results-dir>/<puzzle>.csv)")
    t.add_argument("--results-dir", default=str(RESULTS), help="folder of the tables (default results)")
    t.add_argument("--redo", action="store_true", help="recompute rows already in the file")
    t.add_argument("--json", action="store_true", help="the rows as one JSON list on stdout, nothing else")
    k = sub.add_parser("compare", help="every backend on the same model and limit")
    common(k, many_solvers=True, model=True)
    k.add_argument("-o", "--output", help="CSV file (default <results-dir>/compare-<puzzle>-n<N>.csv; with "
                                          "--model <results-dir>/compare-models-<time>.csv)")
    k.add_argument("--results-dir", help="folder of the tables (default runs: a comparison is a run, not the "
                                         "reference record)")
    e = sub.add_parser("export", help="write the model as LP, MPS, WCNF or MiniZinc")
    common(e)
    e.add_argument("--format", choices=["lp", "mps", "wcnf", "mzn", "mathprog"])
    e.add_argument("--bfile", action="store_true", help="the puzzle's OEIS b-file of proven terms (from results/)")
    e.add_argument("--results-dir", default=str(RESULTS), help="with --bfile: folder of the tables (default results)")
    e.add_argument("-o", "--output", required=True)
    v = sub.add_parser("verify", help="check a saved solution (a `solve --json` file or a bare solution)")
    common(v)
    v.add_argument("file")
    w = sub.add_parser("showcase", help="the main job: one table per puzzle recomputed, then a summary")
    w.add_argument("--puzzle", action="append", help="only these puzzles (repeatable)")
    w.add_argument("--results-dir", help="folder for the tables (default: a fresh runs/<time>/)")
    w.add_argument("--time-limit", type=TIME_LIMIT,
                   help="seconds per run for every table (default: each table's own, ample on a slow laptop)")
    w.add_argument("--threads", type=THREADS, default=2)
    g = sub.add_parser("plot", help="PNGs: time against N per backend, and the record boards; with --from, a "
                                    "model comparison's cactus plot and objective over time")
    g.add_argument("--out", default="runs/plots", help="folder (default runs/plots; `make plot` writes docs/)")
    g.add_argument("--from", dest="sources", nargs="+", metavar="FILE",
                   help="model-comparison CSV files (compare --model, bench --model)")
    g.add_argument("--results-dir", default=str(RESULTS), help="folder of the tables read (default results)")
    b = sub.add_parser("bench", help="the canonical performance cases; figures to results/bench.csv")
    b.add_argument("--puzzle", action="append", help="only these puzzles (repeatable)")
    b.add_argument("--solver", action="append", help="only these backends (repeatable)")
    b.add_argument("--label", help="only cases whose label contains this text")
    b.add_argument("--n", type=int, action="append", dest="ns", help="only cases at this N (repeatable)")
    b.add_argument("--threads", type=THREADS, default=2, help="threads for every case (default 2)")
    b.add_argument("--time-limit", type=TIME_LIMIT, default=600.0, help="with --model: seconds (default 600)")
    b.add_argument("--seed", type=SEED, default=0, help="with --model: the first repeat's seed")
    model_flags(b, many=True)
    b.add_argument("-o", "--output", help="CSV file (default results/bench.csv; with --model "
                                          "runs/bench-models-<time>.csv)")
    b.add_argument("--summary", action="store_true",
                   help="run nothing: the file's rows (those matching the filters) as `workbench report` shows them")
    r = sub.add_parser("report", help="a model comparison or the bench as tables: statuses per backend, model x "
                                      "backend, disagreements")
    r.add_argument("files", nargs="+", metavar="FILE", help="model-comparison CSV files, or results/bench.csv")
    r.add_argument("--format", default="text", choices=["text", "markdown", "csv", "json", "latex"])
    j = sub.add_parser("journals", help="the native searches' journals: how far each run got; consistent copies")
    j.add_argument("--dir", help="folder of the journals (default $WORKBENCH_JOURNALS, else runs/journals)")
    j.add_argument("--copy-to", metavar="DIR", help="write a consistent copy of each journal there (safe while "
                                                    "its run goes on): to resume it on another machine")
    sub.add_parser("compile", help="compile every native search into numba's cache, one after another: before "
                                   "many processes start on a fresh checkout (tests, a cluster)")
    return p


def model_flags(q: argparse.ArgumentParser, many: bool = False) -> None:
    """--model and what goes with it; `many`: files, folders and globs, and --repeat."""
    q.add_argument("--model", metavar="FILE", nargs="+" if many else None,
                   help="the user's own model instead of a puzzle: .lp, .mps, .wcnf or .mzn (.gz too), run on every "
                        "backend that takes it" + ("; several files, folders and globs" if many else ""))
    q.add_argument("--data", metavar="FILE", help="with a MiniZinc --model: its data file (.dzn)")
    q.add_argument("--option", action="append", default=[], metavar="BACKEND:NAME=VALUE",
                   help="a backend's own option, e.g. highs:mip_rel_gap=0 (repeatable; checked against its names)")
    if many:
        q.add_argument("--repeat", type=checks.REPEAT, default=1, metavar="K",
                       help="with --model: K runs per backend, seeds seed, seed+1, ...")


def _by_model(args: argparse.Namespace, command: str) -> bool:
    """Whether the command runs a model file; a command without a puzzle and without --model is bad input."""
    if args.model is None and getattr(args, "puzzle", "") is None:
        raise BadInput(f"{command} needs a puzzle, or --model FILE")
    if args.model is None and getattr(args, "data", None):
        raise BadInput("--data goes with a MiniZinc --model")
    return args.model is not None


def _puzzle_options() -> list[PuzzleOption]:
    seen: dict[str, PuzzleOption] = {}
    for puzzle in available():
        for opt in puzzle.options:
            seen.setdefault(opt.flag, opt)
    return list(seen.values())


def _given(args: argparse.Namespace, puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle's parameters given by its flags and `--set KEY=VALUE`, as given."""
    given: dict[str, Any] = {}
    for item in args.set:
        key, eq, value = item.partition("=")
        if not eq:
            raise BadInput(f"--set wants KEY=VALUE, got '{item}'")
        given[key] = value
    known = {o.dest for o in puzzle.options}
    for opt in _puzzle_options():
        value = getattr(args, opt.dest, None)
        if value is None:
            continue
        if opt.dest not in known:
            raise BadInput(f"{opt.flag} does not apply to {puzzle.name}")
        given[opt.dest] = value
    return given


def _options(args: argparse.Namespace) -> Options:
    from .solvers.tuning import parse

    settings = checks.options(args.time_limit, args.threads, args.seed, args.cluster, args.fresh, args.verbose,
                              args.quiet)
    settings.backend_options = parse(getattr(args, "option", []))
    return settings


# -- commands -------------------------------------------------------------------------------

def cmd_list(args) -> int:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=True)
    for name, ratio in (("puzzle", None), ("N", None), ("default solver", None), ("formulations", 2),
                        ("question", 3)):
        table.add_column(name, no_wrap=ratio is None, ratio=ratio)
    for p in available():
        formulations = [f.name for f in p.models] + [f"{m} (search)" for m in p.methods]
        table.add_row(p.name, f"{p.n_min}..{p.n_max}" if p.needs_n else "-", p.default_solver,
                      ", ".join(formulations), p.title)
    out.print(table)
    made: dict[str, list[str]] = {}         # "subgrid for minizinc:gecode" -> the puzzles that have it
    for p in available():
        for f in p.models:
            if f.solvers:
                made.setdefault(f"{f.name} for {', '.join(f.solvers)}", []).append(p.name)
    out.print("Without --formulation a backend gets the one made for it (" +
              "; ".join(f"{', '.join(names)}: {what}" for what, names in made.items()) +
              "), any other backend the first.", soft_wrap=False)
    return 0


def cmd_solvers(args) -> int:
    table = Table("solver", "status", "version / note")
    for info in available_solvers():
        table.add_row(info.name, "ok" if info.available else "missing",
                      info.version if info.available else info.note)
    out.print(table)
    return 0


def _print_run(run: pipeline.Run, puzzle: Puzzle, show_drawing: bool = True) -> None:
    r = run.result
    head = f"{puzzle.name}" + (f" N={run.n}" if run.n is not None else "")
    out.print(f"[bold]{head}[/]  solver {r.solver} ({r.solver_version or '?'})  formulation {run.formulation}")
    what = "count" if run.request.counting else "value"
    value = run.value
    proven = "proven" if r.proven else "not proven"
    out.print(f"{what} {value if value is not None else '-'}   status {r.status} ({proven})   "
              f"bound {run.bound if run.bound is not None else '-'}   time {run.seconds:.2f} s "
              f"(generate {run.generate_seconds:.2f}, build {r.build_seconds:.2f}, solve {r.solve_seconds:.2f}"
              + (f", compile {r.compile_seconds:.2f})" if r.compile_seconds else ")"))
    if r.count is not None and not run.request.counting:
        out.print(f"optimal solutions counted: {r.count}")
    if r.message:
        out.print(f"note: {r.message}", markup=False)
    if show_drawing and run.solution is not None:
        drawings = run.solution if run.request.counting else [run.solution]
        for i, s in enumerate(drawings):
            out.print(("\n" if i else "") + puzzle.render(run.n, s, run.params), markup=False)
    if run.verdict is not None:
        mark = "[green]verified[/]" if run.verified else "[red]REJECTED[/]"
        out.print(f"check: {mark}: {run.verdict.message}")
    cert = r.certificate
    if cert:
        out.print(f"certificate: no solution below {cert.lower_bound}: {cert.verdict} "
                  f"(CaDiCaL refutes {cert.clauses} clauses in {cert.proof_lines} lemmas, "
                  f"checked by {cert.checker} in {cert.check_seconds + cert.drup_seconds:.1f} s; "
                  f"proof sha256 {cert.proof_sha256 or '-'})")
    if run.published is not None:
        pub = run.published
        out.print(f"published: {pub.value} ({pub.status}; {pub.source})   match: {run.match or '-'}")


def cmd_solve(args, count: bool = False) -> int:
    if not count and _by_model(args, "solve"):
        from . import modelruns
        return modelruns.command(args, "solve", out, err)
    puzzle = get(args.puzzle)
    question = Count(args.show) if count else Optimise()
    settings = _options(args)
    request = api.request(puzzle, args.n, args.solver, args.formulation, question, _given(args, puzzle), settings)
    if getattr(args, "certify", None):
        checks.certifiable(puzzle, request.n, request.formulation, request.params)
    png = writable(args.png) if getattr(args, "png", None) else None
    run = api.run(request, settings)
    n = request.n
    if getattr(args, "certify", None):
        pipeline.certify(run, args.certify)
    if args.json:
        print(json.dumps(run.record().to_json(), default=str))
    else:
        _print_run(run, puzzle)
    if png is not None and run.solution is not None:
        puzzle.png(n, run.solution, str(png), run.params)
        if not args.json:
            out.print(f"drawing written to {png}")
    run.answer_kept()
    return 0 if run.result.status.answered else 1


@contextmanager
def _rows_printed(label: str, total: int, quiet: bool = False) -> Iterator[api.OnRow]:
    """A table's rows printed as they come (skipped ones marked; none when `quiet`), a progress bar
    on stderr meanwhile."""
    from rich.progress import Progress

    with Progress(console=err, transient=True) as progress:
        task = progress.add_task(label, total=total)

        def show(run: pipeline.Run, note: str) -> None:
            if not quiet:
                out.print(run.line() + (f"  {note}" if note else ""), markup=False)
            progress.advance(task)

        yield show


def cmd_table(args) -> int:
    puzzle = get(args.puzzle)
    planned, settings = api.table_request(puzzle, args.n, args.solver, formulation=args.formulation,
                                          output=args.output, results_dir=args.results_dir, settings=_options(args),
                                          **_given(args, puzzle))
    path = planned.path
    try:
        with _rows_printed(f"{path.stem} with {planned.solver}", len(planned.requests), args.json) as show:
            runs = api.run_table(planned, settings, args.redo, show)
    except api.RowNotStored as e:       # the answer first (as rows are printed), then the error line
        if args.json:
            print(json.dumps([run.record().to_json() for run in e.runs], default=str))
        sys.stderr.write(f"workbench: error: {e}\n")
        return e.exit_status
    if args.json:
        print(json.dumps([run.record().to_json() for run in runs], default=str))
    else:
        out.print(f"{len(runs)} row(s) of {path} above")
    return 0


def cmd_showcase(args) -> int:
    from . import showcase

    cases = [case for case in showcase.cases() if not args.puzzle or case.puzzle in args.puzzle]
    if not cases:
        raise BadInput(f"no showcase table for {', '.join(args.puzzle)}")
    folder = checks.folder(args.results_dir) if args.results_dir else showcase.run_folder()
    checks.table_file(folder / "summary.csv", showcase.SUMMARY_COLUMNS)
    planned = [api.table_request(case.puzzle, case.n, case.solver,
                                 time_limit=args.time_limit or case.time_limit, threads=args.threads,
                                 formulation=case.formulation, results_dir=folder, **case.params)
               for case in cases]     # every table (its file too) is checked before the first is computed
    done, lines = [], []
    for case, (table, settings) in zip(cases, planned):
        out.print(f"\n[bold]table {case.name}[/]" + (f" --n {case.n}" if case.n else "")
                  + f"  ({settings.time_limit:g} s a run)")
        with _rows_printed(case.name, len(table.requests)) as show:
            done.append(showcase.run_case(case, table, settings, show))
        lines.append(showcase.summary(done[-1]))
        tables.append_row(folder / "summary.csv", lines[-1], showcase.SUMMARY_COLUMNS)
    out.print(f"\n[bold]summary[/]: tables recomputed in {folder}")
    out.print(showcase.format_summary(lines), markup=False)
    last_words, status = showcase.verdict(done)
    for line in last_words:
        out.print(line, markup=False)
    return status


def _store(path: Path, run: pipeline.Run) -> None:
    tables.append_row(path, tables.row_from_record(run.record()))


def cmd_compare(args) -> int:
    if _by_model(args, "compare"):
        from . import modelruns
        return modelruns.command(args, "compare", out, err)
    if args.repeat != 1:
        raise BadInput("--repeat goes with compare --model")
    if args.solvers is None:
        raise BadInput("compare needs --solvers")
    puzzle = get(args.puzzle)
    n = api.single_n(puzzle, args.n)
    path = checks.table_file(args.output if args.output else
                             Path(args.results_dir or "runs") / f"compare-{puzzle.name}-n{n}.csv")
    runs = api.compare(puzzle.name, n, solvers=[s.strip() for s in args.solvers.split(",") if s.strip()],
                       time_limit=args.time_limit, threads=args.threads, seed=args.seed,
                       formulation=args.formulation, verbose=args.verbose, options=args.option,
                       on_start=lambda solver: err.print(f"running {solver} ..."),
                       on_run=lambda run: _store(path, run), **_given(args, puzzle))
    view = frames.comparison(runs).rename(columns={"value": "count" if runs[0].request.counting else "objective"})
    common = Counter(run.formulation for run in runs).most_common(1)[0][0]
    own = "".join(f", {run.request.solver}: {run.formulation}" for run in runs if run.formulation != common)
    table = frames.rich_table(view, f"{puzzle.name} N={n}, formulation {common}{own}, time limit {args.time_limit} s")
    out.print(table)
    lines, status = api.comparison_summary(runs, puzzle.sense)
    for line in lines:
        out.print(line, markup=False, style="red" if status else None)
    out.print(f"rows appended to {path}")
    return status


def cmd_export(args) -> int:
    from .models import mathprog
    from .models.writers import MODEL_AND_DATA, data_file, write

    puzzle = get(args.puzzle)
    if args.bfile or not args.format:
        return _export_bfile(args, puzzle)
    n = api.single_n(puzzle, args.n)
    if args.solver:
        known(args.solver)       # the format picks the formulation; a wrong name is still an error
    made_for = next(name for name in BACKENDS if args.format in backend_class(name).exports)
    request = pipeline.plan(puzzle, n, made_for, args.formulation, _given(args, puzzle))
    try:
        data = [data_file(args.output, args.format)] if args.format in MODEL_AND_DATA else []
        for target in [args.output, *data]:
            writable(target)
        model = puzzle.build(n, request.formulation, request.params).model
        files = mathprog.write(model, args.output) if args.format == "mathprog" else \
            write(model, args.format, args.output)
    except ValueError as e:
        raise BadInput(str(e)) from None
    out.print("wrote " + ", ".join(str(f) for f in files))
    return 0


def _export_bfile(args, puzzle: Puzzle) -> int:
    from . import bfile

    if not args.bfile or args.format or args.n is not None:
        raise BadInput("export needs --format, or --bfile (the whole sequence: no --n, no --format)")
    given = "" if Path(args.results_dir) == RESULTS else f" --results-dir {args.results_dir}"
    command = f"python -m workbench export {puzzle.name} --bfile{given} -o {Path(args.output).name}"
    path, count = bfile.write(puzzle.name, writable(args.output), command, args.results_dir)
    over = bfile.overflow_path(path)
    out.print(f"wrote {path}: {count} terms" + (f"; the longer ones to {over}" if over.exists() else ""))
    return 0


def cmd_verify(args) -> int:
    """Check a saved solution, and every claim its record makes about it."""
    puzzle = get(args.puzzle)
    if args.solver:
        known(args.solver)       # verify runs no backend, but a wrong name is still an error
    found = api.verify(puzzle, args.file, args.n, **_given(args, puzzle))
    if found.drawing:
        out.print(found.drawing, markup=False)
    for claim in found.false_claims:
        out.print(f"[red]FALSE CLAIM[/]: {claim}")
    out.print("[green]valid[/]: " if found.ok else "[red]INVALID[/]: ", end="")
    out.print(found.verdict.message, markup=False)
    return 0 if found.ok else 1


def cmd_plot(args) -> int:
    from .plots import plot_all

    if args.sources:
        from .plots import plot_comparison

        for path in plot_comparison(args.sources, checks.folder(args.out)):
            out.print(f"wrote {path}")
        return 0
    results = Path(args.results_dir)
    if not results.is_dir():
        raise BadInput(f"no results folder {results}")
    written, skipped = plot_all(checks.folder(args.out), results)
    if not written:
        raise BadInput(f"nothing to plot from {results}: {skipped[0] if skipped else 'no tables'}")
    for note in skipped:
        sys.stderr.write(f"workbench: skipped {note}\n")
    for path in written:
        out.print(f"wrote {path}")
    return 0


def cmd_bench(args) -> int:
    from .bench import run_bench

    if args.model:
        from . import modelruns
        return modelruns.command(args, "bench", out, err)
    for name in args.puzzle or []:
        get(name)
    from .bench import COLUMNS as BENCH_COLUMNS

    if args.option or args.repeat != 1 or args.seed:
        raise BadInput("--option, --repeat and --seed go with bench --model (the cases fix their own settings)")
    args.output = args.output or str(RESULTS / "bench.csv")
    if args.summary:
        from . import report

        rows = frames.bench_rows(frames.bench_results(args.output), args.puzzle, args.solver, args.label, args.ns)
        if rows.empty:
            raise BadInput(f"no row of {args.output} matches these --puzzle, --solver, --label and --n")
        sys.stdout.write(report.render(report.runs(rows, args.output), title=args.output))
        return 0
    return run_bench(args.puzzle, args.solver, args.label, checks.table_file(args.output, BENCH_COLUMNS), out,
                     args.threads, args.ns)


def cmd_report(args) -> int:
    from . import report

    sys.stdout.write(report.report(args.files, args.format))
    return 0


def cmd_journals(args) -> int:
    folder = Path(args.dir) if args.dir else journals()
    if not folder.is_dir():
        raise BadInput(f"no journal folder {folder}")
    if args.copy_to and Path(args.copy_to).resolve() == folder.resolve():
        raise BadInput("--copy-to names the journals' own folder")
    states = survey(folder)
    if not states:
        out.print(f"no journals in {folder}")
        return 0
    for st in states:
        if isinstance(st, Unreadable):         # one line, plainly: its contents are not shown
            sys.stderr.write(f"workbench: error: {st.why}\n")
            continue
        what = "  ".join(f"{k} {json.dumps(v)}" for k, v in st.key.items()
                         if k not in ("search", "tasks", "code", "maximise"))
        out.print(f"[bold]{escape(st.path.name)}[/]" + escape(f" ({'a run holds it' if st.running else 'idle'})\n"
                         f"  {st.key.get('search')}  {what}\n"
                         f"  {st.done} of {st.total} tasks done, {st.positions:,} positions, best "
                         f"{'-' if st.best is None else st.best}, {st.task_seconds / 3600:.2f} task-hours"
                         + ("" if st.seconds_left is None else f"\n  left: {st.left()}")
                         + (f"\n  last task finished {st.last}" if st.last else "")
                         + (f"\n  {st.foreign} tasks written elsewhere: a resume here searches a sample of them "
                            "again first" if st.foreign else "")), soft_wrap=False)
        package = Path(__file__).parent / "puzzles" / str(st.key.get("search"))
        if package.is_dir():              # a journal resumes only under the code that made it
            here = code_version(package)
            out.print("  resumes from this checkout" if here == st.key.get("code") else
                      escape(f"  made by other code (package hash {st.key.get('code')}, this checkout's {here}): "
                             "resume it from the commit that made it"), soft_wrap=False)
    readable = [st for st in states if not isinstance(st, Unreadable)]
    if args.copy_to:
        for st in readable:
            out.print(escape(f"copied to {copy_journal(st.path, Path(args.copy_to))}"))
    return 0 if len(readable) == len(states) else 2


def cmd_compile(args) -> int:
    """Numba's on-disk cache is not safe against two processes compiling the same function at once
    (a crash, numba issue 10128): compiled here first, every later process only loads it."""
    entries = dict.fromkeys(f.warm_up for p in available() for f in p.formulations if f.warm_up)
    for entry in entries:
        watch = time.perf_counter()
        warm_up(entry)
        out.print(f"{entry}  {time.perf_counter() - watch:.1f} s", soft_wrap=False)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    commands = {"list": cmd_list, "solvers": cmd_solvers, "solve": cmd_solve,
                "count": lambda a: cmd_solve(a, count=True), "table": cmd_table, "compare": cmd_compare,
                "export": cmd_export, "verify": cmd_verify, "bench": cmd_bench,
                "showcase": cmd_showcase, "plot": cmd_plot, "report": cmd_report, "journals": cmd_journals,
                "compile": cmd_compile}
    try:
        args = parser.parse_args(argv)
        if isinstance(getattr(args, "n", None), str) and args.command != "table":
            args.n = checks.n_text(args.n, single=True)
        return commands[args.command](args)
    except WorkbenchError as e:      # one line; status 2 (bad input) unless the error says otherwise
        sys.stderr.write(f"workbench: error: {e}\n")
        return e.exit_status
    except OSError as e:       # say, a disk that filled up during compare or bench: the rows written are whole
        sys.stderr.write(f"workbench: error: {e}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("workbench: interrupted; rows already written are kept\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
