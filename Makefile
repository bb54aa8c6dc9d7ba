# The two commands of the README: `make demo` serves a demo league; `make test` runs the whole suite.
# Each builds its own virtual environment (.venv) on first use, exactly as uv.lock pins it (every
# version and its hashes), and syncs it again when pyproject.toml or uv.lock changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

# uv installs into .venv (with the interpreter PYTHON made it from) and never downloads a Python.
export UV_PROJECT_ENVIRONMENT := $(VENV)
export UV_PYTHON_DOWNLOADS := never

.PHONY: demo test lint bench browser clean cluster

# uv itself, bootstrapped with pip at the version and hashes uv.lock gives it (it is a dev
# dependency, so every later sync keeps it at the locked version).
$(BIN)/uv:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -c 'import tomllib; p = next(p for p in tomllib.load(open("uv.lock", "rb"))["package"] if p["name"] == "uv"); print("uv==" + p["version"], *("--hash=" + w["hash"] for w in p["wheels"]))' > $(VENV)/uv-requirements.txt
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(VENV)/uv-requirements.txt

# --locked: refuse to run if uv.lock disagrees with pyproject.toml (run `.venv/bin/uv lock`).
# Exactly the locked packages (hashes checked), with the dev extra; the project itself is not
# installed (it has no packages: it runs from this folder).
$(BIN)/.installed: pyproject.toml uv.lock | $(BIN)/uv
	$(BIN)/uv sync --locked --extra dev --no-install-project
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

# A league night on a cluster of network namespaces, a web and a worker host killed mid-night
# (root; README: How to scale out). CLUSTER_ARGS go to the script, e.g. "--captains 32".
cluster: $(BIN)/.installed
	scripts/cluster-night $(CLUSTER_ARGS)

clean:
	rm -rf $(VENV) db.sqlite3* staticfiles
