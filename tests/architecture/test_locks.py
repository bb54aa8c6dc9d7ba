"""Every lock is taken in one place per app, its ``locks`` module, its order written at its top.

- each app has one ``locks.py`` (``league``, ``scoring.games``, ``scoring.standings``,
  ``tournaments.services``) whose docstring writes its lock order;
- no other product module calls ``select_for_update`` or writes a locking clause (``FOR UPDATE``,
  ``FOR NO KEY UPDATE``, ``FOR SHARE``, ``FOR KEY SHARE``) or a PostgreSQL advisory lock
  (``pg_advisory...``) in its code; docstrings and comments may name them. The one exception is
  the games' door, :data:`DOOR`, whose one statement reads a game with its season's rulebook and
  locks the game (``FOR UPDATE OF g``): ``scoring/games/locks.py`` lists it in its order;
- only service modules (services, selectors, jobs, ``league.updates``, other locks) import a
  ``locks`` module.

Each check is also run on a sample that breaks it, and must find it.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("config", "core", "league", "scoring", "tournaments")
LOCKS_MODULES = {
    "league": "league/locks.py",
    "scoring.games": "scoring/games/locks.py",
    "scoring.standings": "scoring/standings/locks.py",
    "tournaments": "tournaments/services/locks.py",
}
DOOR = "scoring/games/access.py"
"""The games' door (``game_to_score``): its statement holds the game's lock."""
LOCKING_SQL = re.compile(
    r"\bFOR\s+(?:NO\s+KEY\s+)?UPDATE\b|\bFOR\s+(?:KEY\s+)?SHARE\b|pg_advisory", re.IGNORECASE
)
SERVICE_MODULES = ("services", "selectors", "jobs", "locks", "updates")


def product_files(root: Path = ROOT):
    for package in PRODUCT:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def row_locks(source: str) -> list[str]:
    """What in a module's code takes a lock: each ``select_for_update`` it names and each string
    (not a docstring) holding a locking clause or an advisory lock, by line."""
    tree = ast.parse(source)
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "select_for_update":
            found.append((node.lineno, "select_for_update"))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and LOCKING_SQL.search(node.value)
        ):
            found.append((node.lineno, node.value.strip()))
    return [what for _line, what in sorted(found)]


def locks_outside(root: Path) -> dict[str, list[str]]:
    """The locks of product modules under ``root`` other than a ``locks.py`` and the door."""
    found = {}
    for path in product_files(root):
        name = path.relative_to(root).as_posix()
        if path.name == "locks.py" or name == DOOR:
            continue
        if locks := row_locks(path.read_text()):
            found[name] = locks
    return found


def locks_importers(source: str) -> list[str]:
    """The ``locks`` modules of the project a module's source imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[-1] == "locks":
                found.append(module)
            found += [f"{module}.locks" for alias in node.names if alias.name == "locks"]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.endswith(".locks")]
    return found


def is_service_module(name: str) -> bool:
    parts = Path(name).with_suffix("").parts
    return any(part in SERVICE_MODULES for part in parts)


def test_each_app_has_one_locks_module_with_its_order():
    found = sorted(
        path.relative_to(ROOT).as_posix() for path in product_files() if path.name == "locks.py"
    )
    assert found == sorted(LOCKS_MODULES.values())
    for name in LOCKS_MODULES.values():
        docstring = ast.get_docstring(ast.parse((ROOT / name).read_text())) or ""
        assert docstring.startswith("Every "), name
        assert "Lock order:" in docstring and "\n1. " in docstring and "\n2. " in docstring, name


def test_the_games_order_lists_the_door():
    docstring = ast.get_docstring(ast.parse((ROOT / LOCKS_MODULES["scoring.games"]).read_text()))
    assert "Taken by the door" in docstring and "scoring.games.access.game_to_score" in docstring


def test_no_lock_outside_the_locks_modules():
    assert locks_outside(ROOT) == {}


def test_the_door_takes_the_games_lock_in_its_statement():
    assert row_locks((ROOT / DOOR).read_text()) == ["FOR UPDATE OF g"]


def test_only_services_import_a_locks_module():
    found = {
        name: modules
        for path in product_files()
        if (modules := locks_importers(path.read_text()))
        and not is_service_module(name := path.relative_to(ROOT).as_posix())
    }
    assert found == {}


@pytest.mark.parametrize(
    "line",
    [
        "Season.objects.select_for_update().get(pk=1)",
        "League.objects.select_for_update(no_key=True).filter(pk=1).exists()",
        "rows = Night.objects.select_for_update",
        'cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [key])',
        'sql += " FOR UPDATE OF g"',
        'sql = f"SELECT * FROM {table} WHERE id = %s FOR NO KEY UPDATE"',
        'cursor.execute("SELECT 1 FROM league_season for share")',
    ],
)
def test_the_scan_finds_each_lock(line):
    assert len(row_locks(f"x = 1\n{line}\n")) == 1


def test_the_scan_leaves_docstrings_and_comments_alone():
    source = (
        '"""Locks the season ``FOR NO KEY UPDATE`` (see ``select_for_update``)."""\n'
        "def f():\n"
        '    """Takes pg_advisory_xact_lock, then FOR UPDATE."""\n'
        "    return 1  # FOR UPDATE, select_for_update\n"
    )
    assert row_locks(source) == []


def test_a_lock_outside_a_locks_module_is_found(tmp_path):
    for package in PRODUCT:
        (tmp_path / package).mkdir()
    lock = "from league.models import Season\n\nSeason.objects.select_for_update().get(pk=1)\n"
    (tmp_path / "league" / "locks.py").write_text(lock)
    (tmp_path / "scoring" / "games").mkdir()
    (tmp_path / "scoring" / "games" / "access.py").write_text('sql = "SELECT 1 FOR UPDATE OF g"\n')
    assert locks_outside(tmp_path) == {}
    (tmp_path / "league" / "services.py").write_text(lock)
    (tmp_path / "scoring" / "games" / "hands.py").write_text('sql = "SELECT 1 FOR UPDATE OF g"\n')
    assert locks_outside(tmp_path) == {
        "league/services.py": ["select_for_update"],
        "scoring/games/hands.py": ["SELECT 1 FOR UPDATE OF g"],
    }


def test_an_interface_importing_a_locks_module_is_found():
    assert locks_importers("from league.locks import season_lock\n") == ["league.locks"]
    assert locks_importers("from scoring.games import locks\n") == ["scoring.games.locks"]
    assert locks_importers("import tournaments.services.locks\n") == ["tournaments.services.locks"]
    assert locks_importers("from league import models\n") == []
    assert not is_service_module("league/api/views.py")
    assert not is_service_module("scoring/games/captain/views.py")
    assert is_service_module("tournaments/services/nights.py")
    assert is_service_module("league/updates.py")
