"""The laboratory's probe scripts stay runnable: each is run as its page says (from the repository
root, a name filter choosing a few quick probes), and what it reports is held to the truth."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "reliability.md").read_text()


@pytest.mark.parametrize(("script", "only", "probes"), [
    ("reliability_probes.py", "unknown puzzle", 1),
    ("reliability_probes2.py", "API n='3'", 1),
    ("reliability_probes3.py", "model: empty file", 1),
])
def test_a_probe_script_runs_and_its_probes_hold(script, only, probes):
    assert f"scripts/{script}" in PAGE          # the reference page names how to run it
    p = subprocess.run([sys.executable, f"scripts/{script}", only], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == probes + 1 and all(line.startswith("held") for line in lines[:-1]), p.stdout
    assert re.match(rf"{probes} (of {probes} held|held, 0 broke, 0 misled, of {probes})$", lines[-1]), lines[-1]
