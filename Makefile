# Two commands matter: `make run` and `make test`. Both set up .venv themselves.
# `make run` installs only what serving the table needs; `make test` adds the extras and the `dev`
# dependency group (pyproject.toml: test, lint and docs tools).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.run-stamp
DEV_STAMP := $(VENV)/.dev-stamp
NODE_STAMP := node_modules/.install-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck unit docs bench browser-deps serve-env dev-env clean

$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

# pip >= 25.1 installs a PEP 735 group itself; an older pip gets the group's list from scripts/group.py.
$(DEV_STAMP): $(RUN_STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[postgres,plot,fast]'
	if $(BIN)/python -m pip install --help | grep -q -- '--group'; then \
		$(BIN)/python -m pip install --quiet --group dev; \
	else \
		$(BIN)/python scripts/group.py dev | xargs $(BIN)/python -m pip install --quiet; \
	fi
	touch $(DEV_STAMP)

# The browser code's lint and format checkers (eslint, prettier): exactly the versions of package-lock.json,
# from the npm registry, into ./node_modules. Nothing else is fetched when the checks run.
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $(NODE_STAMP)

serve-env: $(RUN_STAMP)

dev-env: $(DEV_STAMP)

run: $(RUN_STAMP)
	$(BIN)/talespin serve --host $(HOST) --port $(PORT)

browser-deps:
	@sh scripts/ensure-chromium.sh

lint: $(DEV_STAMP) $(NODE_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	node_modules/.bin/eslint src/talespin/web/static/js
	node_modules/.bin/prettier --check src/talespin/web/static/js

typecheck: $(DEV_STAMP)
	$(BIN)/mypy src

unit: $(DEV_STAMP) browser-deps
	$(BIN)/python -m pytest

test: lint typecheck unit

# The API reference site (MkDocs + mkdocstrings, from the docstrings) into site/; any warning fails it.
docs: $(DEV_STAMP)
	$(BIN)/mkdocs build --strict

# Each rules-data value changed in turn: the tests naming its rules must fail (minutes; not part of `test`).
mutate: $(DEV_STAMP)
	$(BIN)/python tests/mutation/run.py

bench: $(DEV_STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) node_modules site .mypy_cache .ruff_cache .pytest_cache .hypothesis
