"""scripts/pg-backup, the compose `backup` service's loop, run here with `sh` as the postgres
image runs it, against a stand-in pg_dump (a real one, against PostgreSQL, is in
tests/archive/test_backup_restore.py): the dump's name and format, the retention, a failed dump
that leaves the earlier ones alone, the health check, and the loop itself."""

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "pg-backup"
DUMP_NAME = r"euchre-\d{8}T\d{6}Z\.dump"

FAKE_PG_DUMP = """#!/bin/sh
# Writes what it was asked for into --file, or fails half-way when FAKE_FAIL is set.
echo "$@" >> "$FAKE_LOG"
for arg in "$@"; do
    case "$arg" in --file=*) file="${arg#--file=}" ;; esac
done
echo "dump of $PGDATABASE" > "$file"
[ -z "${FAKE_FAIL:-}" ] || exit 1
"""


@pytest.fixture
def backup(tmp_path):
    """Run pg-backup with a stand-in pg_dump first on PATH; returns (run, folder, log)."""
    bin_dir, folder, log = tmp_path / "bin", tmp_path / "backups", tmp_path / "pg_dump.log"
    bin_dir.mkdir()
    folder.mkdir()
    fake = bin_dir / "pg_dump"
    fake.write_text(FAKE_PG_DUMP)
    fake.chmod(0o755)
    base = {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "FAKE_LOG": str(log),
        "PGDATABASE": "euchre",
        "BACKUP_DIR": str(folder),
    }

    def run(*args, **env):
        return subprocess.run(
            ["sh", str(SCRIPT), *args],
            env={**base, **env},
            capture_output=True,
            text=True,
            timeout=30,
        )

    return run, folder, log


def dumps(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.suffix == ".dump")


def test_once_writes_a_custom_format_dump_and_keeps_the_newest(backup):
    run, folder, log = backup
    for day in range(1, 5):
        (folder / f"euchre-2020010{day}T000000Z.dump").write_text("old")
    (folder / "notes.txt").write_text("not a dump")
    done = run("once", BACKUP_KEEP="3")
    assert done.returncode == 0, done.stderr
    names = dumps(folder)
    assert len(names) == 3
    assert names[:2] == ["euchre-20200103T000000Z.dump", "euchre-20200104T000000Z.dump"]
    newest = folder / names[-1]
    assert newest.read_text() == "dump of euchre\n"
    assert re.fullmatch(DUMP_NAME, newest.name)
    assert (folder / "notes.txt").exists()
    assert sorted(path.name for path in folder.iterdir()) == [*names, "notes.txt"]  # no .partial
    assert "--format=custom" in log.read_text().split()
    assert "removed euchre-20200101T000000Z.dump" in done.stdout
    assert "removed euchre-20200102T000000Z.dump" in done.stdout


def test_a_failed_dump_leaves_the_earlier_ones_and_no_partial_file(backup):
    run, folder, _ = backup
    for day in range(1, 4):
        (folder / f"euchre-2020010{day}T000000Z.dump").write_text("old")
    done = run("once", BACKUP_KEEP="1", FAKE_FAIL="1")
    assert done.returncode == 1
    assert "pg_dump failed" in done.stderr
    assert sorted(path.name for path in folder.iterdir()) == [
        "euchre-20200101T000000Z.dump",
        "euchre-20200102T000000Z.dump",
        "euchre-20200103T000000Z.dump",
    ]


def test_the_health_check_wants_a_recent_dump(backup):
    run, folder, _ = backup
    assert run("check").returncode == 1  # no dump yet
    assert run("once").returncode == 0
    assert run("check", BACKUP_INTERVAL="3600").returncode == 0
    (newest,) = folder.iterdir()
    two_hours_ago = time.time() - 7201
    os.utime(newest, (two_hours_ago, two_hours_ago))
    stale = run("check", BACKUP_INTERVAL="3600")
    assert stale.returncode == 1
    assert re.search(r"is 720\d s old \(BACKUP_INTERVAL 3600 s\)", stale.stderr)
    assert run("check", BACKUP_INTERVAL="86400").returncode == 0


@pytest.mark.parametrize("name", ["BACKUP_INTERVAL", "BACKUP_KEEP"])
@pytest.mark.parametrize("value", ["0", "-1", "1d", "ten"])
def test_settings_must_be_whole_numbers(backup, name, value):
    run, folder, log = backup
    done = run("once", **{name: value})
    assert done.returncode == 2
    assert name in done.stderr
    assert dumps(folder) == [] and not log.exists()


def test_the_loop_dumps_every_interval_and_prunes(backup):
    _, folder, _ = backup
    env = {
        "PATH": f"{folder.parent / 'bin'}:{os.environ['PATH']}",
        "FAKE_LOG": str(folder.parent / "pg_dump.log"),
        "PGDATABASE": "euchre",
        "BACKUP_DIR": str(folder),
        "BACKUP_INTERVAL": "1",
        "BACKUP_KEEP": "1",
    }
    out = folder.parent / "loop.log"
    with open(out, "w") as log:
        loop = subprocess.Popen(["sh", str(SCRIPT)], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while "removed" not in out.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        loop.terminate()
        loop.wait(timeout=10)
    text = out.read_text()
    assert "a dump every 1 s" in text
    assert text.count("wrote euchre-") >= 2 and "removed euchre-" in text
    assert len(dumps(folder)) == 1
