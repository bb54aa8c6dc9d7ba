"""The product is written on public names: its own modules' and its libraries'.

- ruff's SLF001 (a private member of another object) and PLC2701 (a private name imported from
  another package) are on for product code (pyproject.toml), and ruff is clean;
- PLC2701 does not look inside one package, so a scan of the product's imports finds no private
  name imported from another module of the project either (a helper another module needs is
  public and lives where its name says);
- the framework bends of the past are gone: no instance built with ``__new__``, no psycopg
  ``_query``, no hand-set ``health_check_done``, no signal dispatcher cache, no ``gc.disable``,
  no ``time.sleep`` and no relaxed durability in product code.

Each check is also run on a sample that breaks it, and must find it.
"""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("config", "core", "league", "scoring", "tournaments")
RUFF = Path(sys.executable).with_name("ruff")
BENDS = re.compile(
    r"\.__new__\(|\b_query\b|health_check_done|sender_receivers_cache|gc\.disable\(|gc\.freeze\("
    r"|time\.sleep\(|synchronous_commit"
)


def product_files():
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def private_imports(source: str) -> list[str]:
    """``module.name`` of each private name a module's source imports from a module of the
    project (``from scoring.x import _y``, or relative)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            first_party = node.level > 0 or module.split(".")[0] in PRODUCT
            for alias in node.names:
                name = alias.name
                if first_party and name.startswith("_") and not name.startswith("__"):
                    found.append(f"{module}.{name}")
    return found


def bends(source: str) -> list[str]:
    return [line.strip() for line in source.splitlines() if BENDS.search(line)]


def test_ruff_finds_no_private_access_in_product_code():
    done = subprocess.run(
        [str(RUFF), "check", "--no-cache", "--select", "SLF001,PLC2701", *PRODUCT],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_would_find_a_private_access(tmp_path):
    sample = tmp_path / "league" / "sample.py"
    sample.parent.mkdir()
    sample.write_text(
        "from rest_framework.pagination import _positive_int\n\n"
        "from league.models import Season\n\n"
        "print(Season.objects._db, Season._meta, _positive_int)\n"
    )
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    done = subprocess.run(
        [
            *(str(RUFF), "check", "--no-cache", "--output-format", "concise"),
            *("--select", "SLF001,PLC2701", "league"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "private-member-access" in done.stdout and "`_db`" in done.stdout, done.stdout
    assert "import-private-name" in done.stdout, done.stdout
    assert "`_meta`" not in done.stdout  # Django's documented model API


def test_no_module_imports_a_private_name_of_another():
    found = {
        str(path.relative_to(ROOT)): names
        for path in product_files()
        if (names := private_imports(path.read_text()))
    }
    assert found == {}


def test_the_scan_finds_a_private_import():
    source = "from scoring.games.services.game_state import _rules\nfrom .rows import _plan, fine\n"
    assert private_imports(source) == ["scoring.games.services.game_state._rules", "rows._plan"]
    assert private_imports("from os import _exit\nfrom x import __version__\n") == []


def test_no_framework_bend_in_product_code():
    found = {
        str(path.relative_to(ROOT)): lines
        for path in product_files()
        if (lines := bends(path.read_text()))
    }
    assert found == {}


@pytest.mark.parametrize(
    "line",
    [
        "instance = model.__new__(model)",
        "cursor._query = None",
        "database.health_check_done = True",
        "signal.sender_receivers_cache.get(sender)",
        "gc.disable()",
        "time.sleep(PENDING_GRACE)",
        'cursor.execute("SET LOCAL synchronous_commit = off")',
    ],
)
def test_the_scan_finds_each_bend(line):
    assert bends(f"x = 1\n{line}\n") == [line]
