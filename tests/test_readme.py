"""Issue 16: the README's newcomer's map names every folder and top-level module of workbench/ and
every puzzle package, so that the layout cannot grow a part the map does not show; and every command
the README shows still parses, so that a renamed flag cannot leave the README behind."""
import re
import shlex
from pathlib import Path

from workbench.cli import build_parser
from workbench.puzzles import available, get

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "workbench"
README = (ROOT / "README.md").read_text()
MAP = README.split("A newcomer's map:")[1].split("\n\n")[1]
FAMILIES = next(line for line in MAP.splitlines() if line.startswith("| `workbench/puzzles/<family>/`"))


def _folders(under: Path) -> list[Path]:
    return sorted(p for p in under.iterdir() if p.is_dir() and p.name not in ("__pycache__", "data"))


def test_the_map_is_a_table_of_one_line_per_path():
    rows = MAP.splitlines()
    assert rows[0].startswith("| path |") and len(rows) > 5
    assert all(row.startswith("| `") and row.count(" | ") == 1 for row in rows[2:])


def test_every_folder_of_workbench_is_on_the_map():
    for folder in _folders(PACKAGE):
        assert f"`workbench/{folder.name}/`" in MAP, folder
    for family in _folders(PACKAGE / "puzzles"):
        assert f"`{family.name}`" in FAMILIES, family


def test_every_top_level_module_is_on_the_map():
    for module in sorted(PACKAGE.glob("*.py")):
        if module.name not in ("__init__.py", "__main__.py"):
            assert f"`{module.name}`" in MAP or f"`workbench/{module.name}`" in MAP, module


def test_every_puzzle_is_named_with_its_package():
    for puzzle in available():
        family = type(puzzle).__module__.split(".")[2]
        assert f"`{family}`" in FAMILIES and puzzle.name in FAMILIES, (puzzle.name, family)


def _commands(text: str = README) -> list[list[str]]:
    """The README's example command lines, as argument vectors (comment and redirection dropped)."""
    lines = [line.strip() for line in text.splitlines() if line.startswith("    python -m workbench ")]
    return [shlex.split(line, comments=True)[3:] for line in lines]


def test_every_command_the_readme_shows_parses():
    commands = _commands()
    shown = {argv[0] for argv in commands}
    assert {"list", "solvers", "solve", "count", "table", "compare", "verify", "export", "bench", "plot",
            "showcase"} <= shown
    parser = build_parser()
    for argv in commands:
        words = argv[:argv.index(">")] if ">" in argv else argv
        args = parser.parse_args(words)          # exits with status 2 on an unknown or malformed flag
        if getattr(args, "puzzle", None) and isinstance(args.puzzle, str):
            assert get(args.puzzle).name == args.puzzle


def test_every_link_of_the_readme_and_the_docs_leads_to_a_file():
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:]+)\)", page.read_text()):
            assert (page.parent / target).exists(), f"{page.name} links to {target}"


OUTPUT_FLAGS = ("-o", "--output", "--out", "--results-dir", "--png")


def test_the_readme_commands_write_only_under_runs():
    """Every output the commands of the README's Use section name is under runs/ (ignored by git),
    and the ones that would write to the reference record by default (table, bench) name one:
    following them leaves `git status` clean. (The proofs' commands elsewhere write to results/ on
    purpose.)"""
    ignore = (ROOT / ".gitignore").read_text().split()
    assert "runs/" in ignore
    use = README.split("\n## Use\n")[1].split("\n## ")[0]
    for argv in _commands(use):
        outputs = [argv[i + 1] for i, word in enumerate(argv[:-1]) if word in OUTPUT_FLAGS or word == ">"]
        assert all(path.startswith("runs/") for path in outputs), argv
        if argv[0] == "table" or (argv[0] == "bench" and "--summary" not in argv):
            assert outputs, argv
    assert build_parser().parse_args(["plot"]).out.startswith("runs/")     # plot without --out
