"""Property: bad input to any command, or a malformed record for `verify`, gives exit status 2, one
line on stderr and no traceback (hypothesis, derandomized: the same examples on every run)."""
from __future__ import annotations

import json
import string
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench import pipeline
from workbench.cli import build_parser, main
from workbench.models.core import OPTIMISE, Count
from workbench.puzzles import REGISTRY
from workbench.solvers import BACKENDS
from workbench.solvers.base import Options

FIXED = settings(derandomize=True, database=None, deadline=None, max_examples=80,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

LETTERS = string.ascii_letters + " .,;:/_-=[]{}"
words = st.text(alphabet=LETTERS, min_size=1, max_size=12)


def known_flags() -> set[str]:
    flags: set[str] = set()
    parser = build_parser()
    for action in parser._subparsers._group_actions[0].choices.values():   # every command's options
        for a in action._actions:
            flags.update(a.option_strings)
    return flags


FLAGS = known_flags()


def exit_2_one_line(capsys, argv: list[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2, (argv, code, captured.out[-300:], captured.err[-300:])
    assert len(lines) == 1 and "Traceback" not in captured.err, (argv, captured.err)


@pytest.fixture(scope="module")
def paths(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("bad")
    good = root / "good.json"
    good.write_text(json.dumps(pipeline.solve(pipeline.plan("enigma144", 3, "maxsat"),
                                              Options(time_limit=30)).record().to_json(),
                               default=str))
    a_file = root / "file"
    a_file.write_text("")
    return {"dir": str(root), "csv": str(root / "t.csv"), "lp": str(root / "m.lp"), "good": str(good),
            "under_file": str(a_file / "x.csv"), "missing": str(root / "missing.json")}


def bases(p: dict[str, str]) -> dict[str, list[str]]:
    """A valid argument vector per command; each example spoils exactly one thing in one of them."""
    return {
        "solve": ["solve", "enigma144", "--n", "3"],
        "count": ["count", "percolation", "--n", "3"],
        "table": ["table", "enigma144", "--n", "1..2", "-o", p["csv"]],
        "compare": ["compare", "enigma144", "--n", "3", "--solvers", "highs,maxsat", "-o", p["csv"]],
        "export": ["export", "enigma144", "--n", "3", "--format", "lp", "-o", p["lp"]],
        "verify": ["verify", "enigma144", "--n", "3", p["good"]],
    }


def not_between(low: float, high: float) -> st.SearchStrategy[str]:
    return st.one_of(st.floats(allow_nan=True, allow_infinity=True).filter(lambda x: not low <= x <= high).map(repr),
                     st.integers().filter(lambda x: not low <= x <= high).map(str),
                     st.sampled_from(["nan", "inf", "-inf", "1e400", "", "1_0x"]),
                     words.filter(lambda t: t.strip() not in ("", "-")))


def spoil(argv: list[str], where: str, value: str) -> list[str]:
    """Replace the value of option `where` (adding the option if absent)."""
    if where in argv:
        i = argv.index(where)
        return argv[:i + 1] + [value] + argv[i + 2:]
    return argv + [where, value]


@st.composite
def bad_argv(draw, p: dict[str, str]) -> list[str]:
    command = draw(st.sampled_from(sorted(bases(p))))
    argv = list(bases(p)[command])
    how = draw(st.sampled_from(["puzzle", "n", "time", "threads", "seed", "set", "flag", "solver", "path"]))
    if how == "puzzle":
        return [command, draw(words.filter(lambda t: t not in REGISTRY))] + argv[2:]
    if how == "n":
        bad_n = st.one_of(st.integers().filter(lambda k: not 1 <= k <= 30).map(str),
                          st.text(alphabet=string.ascii_letters + " .,;", min_size=1, max_size=8))
        if command == "table":
            backwards = st.tuples(st.integers(1, 30), st.integers(-10, 0)).map(lambda t: f"{t[0]}..{t[1]}")
            bad_n = st.one_of(bad_n, backwards)
        return spoil(argv, "--n", draw(bad_n))
    if how == "time":
        return spoil(argv, "--time-limit", draw(not_between(0.01, 1e7)))
    if how == "threads":
        return spoil(argv, "--threads", draw(not_between(1, 64)))
    if how == "seed":
        return spoil(argv, "--seed", draw(not_between(0, 2**32 - 1)))
    if how == "set":            # enigma144 and percolation have no such parameters, and '=' is required
        key = draw(st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=8)
                   .filter(lambda k: k != "permutation"))
        return argv + ["--set", draw(st.sampled_from([f"{key}={draw(words)}", key]))]
    if how == "flag":
        flag = "--" + draw(st.text(alphabet=string.ascii_lowercase + "-", min_size=1, max_size=10))
        if any(known.startswith(flag) for known in FLAGS):   # a prefix would select a real option
            flag = "--no-such-" + flag.lstrip("-")
        return argv + [flag]
    if how == "solver":
        name = draw(st.one_of(words.filter(lambda t: t.partition(":")[0] not in BACKENDS),
                              words.map(lambda t: "minizinc:" + t)))
        return spoil(argv, "--solvers" if command == "compare" else "--solver", name) \
            if command != "verify" else argv[:-1] + ["--solver", name, argv[-1]]
    target = draw(st.sampled_from([p["dir"], p["under_file"]]))
    if command in ("table", "compare", "export"):
        return spoil(argv, "-o", target)
    if command == "solve":
        return argv + ["--png", target]
    if command == "verify":
        return argv[:-1] + [draw(st.sampled_from([p["dir"], p["missing"]]))]
    return argv + ["--png", target]


@FIXED
@given(data=st.data())
def test_every_command_refuses_bad_arguments_with_one_line(data, paths, capsys):
    exit_2_one_line(capsys, data.draw(bad_argv(paths)))


@FIXED
@given(word=words)
def test_bench_refuses_bad_selections(word, paths, capsys):
    """bench with a puzzle, a backend, a label or an N that matches nothing, or a bad output path."""
    exit_2_one_line(capsys, ["bench", "--puzzle", word + "\x00"])
    exit_2_one_line(capsys, ["bench", "--label", word + "\x00"])
    exit_2_one_line(capsys, ["bench", "--solver", word + "\x00", "--puzzle", "magic15"])
    exit_2_one_line(capsys, ["bench", "--puzzle", "magic15", "-o", paths["dir"]])
    exit_2_one_line(capsys, ["bench", "--puzzle", "stones", "--label", "scale-out", "--n", "3"])


# -- malformed records for verify --------------------------------------------------------------

@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    """Valid records, from real runs, of puzzles whose solutions are lists and objects."""
    runs = {"enigma144": ("enigma144", 3, "maxsat", False), "squares": ("squares", 3, "search", False),
            "stones": ("stones", 2, "search", False), "magic15": ("magic15", None, "search", False),
            "percolation": ("percolation", 3, "search", True)}
    out = {}
    for key, (puzzle, n, solver, count) in runs.items():
        question = Count(2) if count else OPTIMISE
        run = pipeline.solve(pipeline.plan(puzzle, n, solver, None, None, question), Options(time_limit=60))
        assert run.verified, run.result.message
        out[key] = json.loads(json.dumps(run.record().to_json(), default=str))
    return out


junk = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), words,
                 st.dictionaries(words, st.integers(), max_size=2))
not_a_number = st.one_of(st.booleans(), words, st.lists(st.integers(), max_size=2),
                         st.dictionaries(words, st.integers(), max_size=2))


@st.composite
def malformed(draw, records: dict[str, dict]) -> tuple[str, bytes]:
    puzzle = draw(st.sampled_from(sorted(records)))
    rec = json.loads(json.dumps(records[puzzle]))
    how = draw(st.sampled_from(["truncate", "puzzle", "n", "params", "claim", "status", "solution", "inside"]))
    if how == "truncate":
        text = json.dumps(rec).encode()
        return puzzle, text[:draw(st.integers(0, len(text) - 1))]
    if how == "puzzle":
        rec["puzzle"] = draw(st.one_of(st.sampled_from([p for p in REGISTRY if p != puzzle]), junk)
                             .filter(lambda v: v != puzzle))
    elif how == "n":
        rec["n"] = draw(st.one_of(not_a_number, st.floats(allow_nan=False)) if puzzle != "magic15"
                        else st.integers(-5, 100))
    elif how == "params":
        option = {"squares": "margin", "stones": "box", "magic15": "horizon"}.get(puzzle)
        bad = st.one_of(not_a_number.filter(lambda v: not isinstance(v, bool)), st.integers(-50, -1))
        rec["params"] = draw(st.one_of(not_a_number.filter(lambda v: not isinstance(v, dict)),
                                       st.builds(dict, st.just([(option, draw(bad))]))
                                       if option else st.integers()))
    elif how == "claim":
        rec[draw(st.sampled_from(["objective", "bound"]))] = draw(not_a_number)
    elif how == "status":
        rec["status"] = draw(words.filter(lambda t: t not in ("optimal", "feasible", "infeasible", "unknown",
                                                              "error", "unsupported")))
    elif how == "solution":
        rec["solution"] = draw(junk)
    else:              # one element or field of the solution replaced by junk of the wrong kind
        solution = rec["solution"]
        if isinstance(solution, list):
            item = draw(st.one_of(st.none(), st.booleans(), st.floats(), words,
                                  st.dictionaries(words, st.integers(), max_size=2)))
            solution[draw(st.integers(0, len(solution) - 1))] = item
        elif puzzle == "squares":
            solution["matches"] = draw(st.one_of(st.none(), st.booleans(), st.integers(),
                                                 st.dictionaries(words, st.integers(), min_size=1, max_size=2)))
        else:
            solution["moves"] = draw(st.one_of(st.none(), st.booleans(), st.integers()))
    return puzzle, json.dumps(rec).encode()


@FIXED
@given(data=st.data())
def test_verify_refuses_malformed_records_with_one_line(data, records, tmp_path, capsys):
    puzzle, contents = data.draw(malformed(records))
    path = tmp_path / "record.json"
    path.write_bytes(contents)
    exit_2_one_line(capsys, ["verify", puzzle, str(path)])


@pytest.mark.parametrize("argv", [
    ["solve", "enigma144", "--n", "3", "--time-limit", "nan"],
    ["table", "squares", "--n", "1..1000000000", "--solver", "search"],
    ["solve", "stones", "--n", "2", "--set", "top=[1]"],
])
def test_a_few_bad_commands_in_a_real_process(argv):
    p = subprocess.run([sys.executable, "-m", "workbench", *argv], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
