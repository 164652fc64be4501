"""A journal is data, never code, and a copy from elsewhere is trusted only as far as it is checked:
an old pickle journal is refused unread, forged or edited rows are refused in one line naming the
file, and an honest copy resumed on "another machine" (another key) gives the uninterrupted answer
and counters, after a sample of its tasks was searched again."""
from __future__ import annotations

import contextlib
import json
import pickle
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.puzzles.stones.search import search
from workbench.search.journal import Journal, JournalBroken, _genesis, _link, _mac
from workbench.search.outcome import Outcome
from workbench.search.tasks import Settings, journal_log, remove_finished

N, BEST, POSITIONS, CAP = 3, 28, 192651, 300       # a(3) = 28; tasks capped at 300 positions hand parts back


def stones(folder: Path) -> object:
    return search(N, Settings(threads=2, runs=folder, quiet=True), split_after=CAP)


@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Path:
    """A journal of every task of a(3), kept: the run failed after its search."""
    folder = tmp_path_factory.mktemp("honest")
    with pytest.raises(RuntimeError), journal_log():
        stones(folder)
        raise RuntimeError("the answer could not be made")
    (path,) = folder.glob("*.sqlite")
    return path


def copied(honest: Path, folder: Path) -> Path:
    folder.mkdir()
    return Path(shutil.copy(honest, folder / honest.name))


def another_machine(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WORKBENCH_JOURNAL_KEY", str(tmp_path / "elsewhere" / "journal.key"))


def forge(path: Path, change: Callable[[list[dict]], None], rechain: bool = True) -> None:
    """Rewrite a journal's rows as a forger would: their JSON changed, and the hash chain made anew
    (anyone can; only the MAC needs a machine's key, and the forger's is their own)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        (key,) = db.execute("SELECT key FROM search").fetchone()
        rows = db.execute("SELECT seq, body, hash, mac FROM rows ORDER BY seq").fetchall()
        bodies = [json.loads(body) for _, body, _, _ in rows]
        change(bodies)
        previous = _genesis(key)
        db.execute("DELETE FROM rows")
        for (seq, _, digest, mac), body in zip(rows, bodies):
            text = json.dumps(body, sort_keys=True, separators=(",", ":"))
            if rechain:
                digest = previous = _link(previous, text)
                mac = _mac(b"the forger's own key", digest)
            db.execute("INSERT INTO rows VALUES (?, ?, ?, ?)", (seq, text, digest, mac))
        db.commit()


def refused(folder: Path, path: Path, *words: str) -> None:
    """The resume stops with one line naming the journal (and `words`): no answer is taken."""
    with pytest.raises(JournalBroken) as e, journal_log() as log:
        stones(folder)
    message = str(e.value)
    assert "\n" not in message and str(path) in message and all(w in message for w in words), message
    assert not log.notes


def test_an_honest_copy_resumes_on_another_machine_to_the_same_answer_and_counters(honest, tmp_path, monkeypatch):
    """Another key plays another machine: every task is from elsewhere, 1% of 607 (at least 5, so
    7) are searched again, agree, and the run says so; a later resume there checks none again."""
    path = copied(honest, tmp_path / "there")
    another_machine(monkeypatch, tmp_path)
    with pytest.raises(RuntimeError), journal_log() as log:
        out = stones(path.parent)
        raise RuntimeError("the answer could not be made")
    assert (out.best, out.positions, out.complete) == (BEST, POSITIONS, True)
    tasks = out.tasks
    assert log.notes[0].startswith(f"resumed from its journal: {tasks} of {tasks} tasks were done")
    assert log.notes[1].startswith(f"imported {tasks} tasks finished elsewhere") and "7 of them searched again" in \
        log.notes[1]
    with journal_log() as log:
        again = stones(path.parent)
    assert (again.best, again.positions) == (BEST, POSITIONS)
    assert log.notes == [log.notes[0]] and f"{tasks} of them imported from elsewhere" in log.notes[0]
    assert path.exists()                      # until the answer's keeper says it is kept
    remove_finished(log.finished)
    assert not path.exists()


def test_rows_forged_to_say_nothing_was_found_are_refused(honest, tmp_path):
    """Every row says "nothing here" with its true positions and a fresh hash chain: the sample
    searched again finds what they hid."""
    path = copied(honest, tmp_path / "forged")

    def nothing(rows: list[dict]) -> None:
        for row in rows:
            row.update(best=None, witness=None)

    forge(path, nothing)
    refused(path.parent, path, "is refused", "searched again here and disagrees", "its best is None")


def test_a_forged_better_value_and_a_forged_witness_are_refused(honest, tmp_path):
    """A row that says 40 beside its board of less, and a row whose board says 40 but breaks the
    rules: the checker measures each witness, so neither is taken."""
    path = copied(honest, tmp_path / "better")
    forge(path, lambda rows: rows[-1].update(best=40))
    refused(path.parent, path, "cannot be read", "by the checker, the row says 40")

    path = copied(honest, tmp_path / "witness")

    def board_of_40(rows: list[dict]) -> None:
        row = next(row for row in rows if row["witness"])
        row["witness"][-1][2], row["best"] = 40, 40

    forge(path, board_of_40)
    refused(path.parent, path, "cannot be read", "the checker rejects its board")


def test_an_edited_row_breaks_the_hash_chain(honest, tmp_path):
    path = copied(honest, tmp_path / "edited")
    forge(path, lambda rows: rows[3].update(positions=rows[3]["positions"] + 1), rechain=False)
    refused(path.parent, path, "cannot be read", "the hash chain breaks at row 4")


def test_an_old_pickle_journal_is_refused_unread(tmp_path, capsys):
    """A journal of the old format with a pickle that would make a file when loaded: the resume and
    `workbench journals` each refuse it in one line, and the file is never made."""
    from workbench.cli import main

    class Payload:
        def __reduce__(self):
            return (Path.touch, (tmp_path / "pwned",))

    with pytest.raises(RuntimeError), journal_log():       # the journal's name: its key's
        stones(tmp_path)
        raise RuntimeError
    (path,) = tmp_path.glob("*.sqlite")
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("DROP TABLE rows")
        db.execute("PRAGMA user_version = 0")
        db.execute("CREATE TABLE tasks (id INTEGER PRIMARY KEY, outcome BLOB NOT NULL, seconds REAL NOT NULL, "
                   "finished TEXT NOT NULL)")
        db.execute("INSERT INTO tasks VALUES (0, ?, 1.0, '2026-01-01T00:00:00')", (pickle.dumps(Payload()),))
        db.commit()
    refused(tmp_path, path, "was written by an older workbench", "--fresh")
    assert main(["journals", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "older workbench" in err
    assert not (tmp_path / "pwned").exists()


def test_journals_lists_crafted_journals_without_a_traceback(tmp_path, capsys):
    """A key that is not an object, markup in a key, a row with a bad timestamp: the first and last
    are listed as one line each saying why, the markup is printed as it is."""
    from workbench.cli import main

    marked = Journal(tmp_path, {"search": "[red]x", "tasks": 2, "note": "[bold]hi[/bold]"})
    marked.task_done(0, Outcome(positions=5), 1.0)
    marked.close()
    stamped = Journal(tmp_path, {"search": "stamped", "tasks": 2})
    stamped.task_done(0, Outcome(positions=3), 1.0)
    stamped.close()
    forge(stamped.path, lambda rows: rows[0].update(finished="yesterday"))
    listed = Journal(tmp_path, {"search": "listed", "tasks": 2})
    listed.close()
    with contextlib.closing(sqlite3.connect(listed.path)) as db:
        db.execute("UPDATE search SET key = '[1, 2]'")
        db.commit()
    assert main(["journals", "--dir", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert '[bold]hi[/bold]' in captured.out and "1 of 2 tasks done, 5 positions" in captured.out
    lines = captured.err.splitlines()
    assert len(lines) == 2 and str(stamped.path) in captured.err and str(listed.path) in captured.err
    assert "isoformat" in captured.err and "its key is not a search's" in captured.err
