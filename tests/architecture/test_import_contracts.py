"""The import contracts of pyproject.toml hold, and each one fails when the rule it names is broken.

`lint-imports` checks the layers of shared/DESIGN.md: apps point down (tournaments -> standings
-> games -> league -> core, the plumbing, which imports no app), domain code is pure Python and
imports only domain code, inside each app the interfaces sit above the services (and each app's
locks module, beside them), the services above the models and the models above the domain, page
views never import API modules, and no package imports in a circle. A contract that cannot fail
proves nothing, so each is also run on a copy of the project with one import that breaks exactly
that rule, and must report it broken.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "core", "league", "scoring", "tournaments")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(where: Path, *contracts: str) -> subprocess.CompletedProcess:
    arguments = [str(LINT_IMPORTS), "--no-cache"]
    for contract in contracts:
        arguments += ["--contract", contract]
    return subprocess.run(arguments, cwd=where, capture_output=True, text=True, timeout=120)


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """The packages and the contracts, copied so that one import can be broken on purpose."""
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def add_line(path: Path, line: str) -> None:
    path.write_text(path.read_text() + f"\n{line}\n")


def test_the_project_keeps_every_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


# One breach per contract: (contract id, file to change, the import that breaks it).
BREACHES = [
    ("apps", "league/services.py", "from scoring.games import models as _upwards"),
    ("apps", "scoring/games/models.py", "import tournaments.models as _upwards"),
    ("apps", "scoring/games/services/games.py", "from scoring.standings import selectors as _up"),
    ("apps", "core/qr.py", "from league import models as _upwards"),
    ("core-plumbing", "core/enqueue.py", "from scoring.games import jobs as _an_app"),
    ("pure-domain", "scoring/games/domain/engine.py", "from django.db import models as _orm"),
    ("pure-domain", "scoring/standings/domain/stats.py", "import redis as _client"),
    ("pure-domain", "tournaments/domain/swiss.py", "import celery as _broker"),
    ("domain-below", "tournaments/domain/seeding.py", "from scoring.games import selectors as _a"),
    ("domain-below", "league/domain/rules.py", "from league import models as _above"),
    ("domain-below", "scoring/standings/domain/ratings.py", "from core import enqueue as _above"),
    ("app-layers", "scoring/games/models.py", "from scoring.games import services as _above"),
    ("app-layers", "scoring/standings/models.py", "from scoring.standings import selectors as _a"),
    ("app-layers", "tournaments/models/brackets.py", "from tournaments import api as _above"),
    ("app-layers", "league/models.py", "from league import locks as _above"),
    ("app-layers", "scoring/standings/locks.py", "from scoring.standings import api as _above"),
    ("pages-not-api", "scoring/standings/public/views.py", "from scoring.standings import api"),
    ("pages-not-api", "tournaments/views/nights.py", "from league.api import views as _api"),
]


@pytest.mark.parametrize(("contract", "module", "line"), BREACHES)
def test_a_breach_breaks_its_contract(project_copy, contract, module, line):
    assert lint_imports(project_copy, contract).returncode == 0
    add_line(project_copy / module, line)
    result = lint_imports(project_copy, contract)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 broken" in result.stdout


def test_a_circle_breaks_the_no_cycles_contract(project_copy):
    (project_copy / "league" / "circle_a.py").write_text("from league import circle_b\n")
    (project_copy / "league" / "circle_b.py").write_text("from league import circle_a\n")
    result = lint_imports(project_copy, "no-cycles")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "No cycles are allowed in league" in result.stdout
