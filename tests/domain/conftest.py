"""The domain's tests: pure Python, no Django, no database, no broker (DESIGN.md's domain layer).
Each is marked ``domain``: the suite's second pass (PostgreSQL + Redis + a worker) leaves them
out, since nothing they run could differ there (``scripts/test-suite``)."""

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if item.path.is_relative_to(HERE):
            if item.get_closest_marker("django_db"):  # it would lose its PostgreSQL pass
                raise pytest.UsageError(f"{item.nodeid}: a domain test uses the database")
            item.add_marker(pytest.mark.domain)
