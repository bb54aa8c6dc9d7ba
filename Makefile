# The two commands of the README: `make demo` serves a demo league; `make test` runs the whole suite.
# Each builds its own virtual environment (.venv) on first use and reinstalls when pyproject changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: demo test lint bench browser clean

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

demo: export DEBUG ?= 1
demo: $(BIN)/.installed
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py demo_league --base-url http://$(HOST):$(PORT)
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

browser:
	@scripts/ensure-chromium

test: $(BIN)/.installed browser
	scripts/test-suite $(PYTEST_ARGS)

bench: $(BIN)/.installed
	scripts/benchmarks

clean:
	rm -rf $(VENV) db.sqlite3* staticfiles
