# treasure-solver: every target that needs Python depends on the venv.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
COMPILE := $(PY) -m compileall -q solver

.PHONY: install bytecode solve test test-fast check bench lint screenshots clean

install: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	$(COMPILE)
	touch $(STAMP)

# An editable install leaves the package uncompiled (a regular pip install compiles it); where
# PYTHONDONTWRITEBYTECODE is set, every command would then compile its modules again, a large
# part of a warm `hold` answer. Up-to-date files are skipped.
bytecode: install
	$(COMPILE)

solve: install
	$(PY) -m solver.make_solve

test: install
	$(PY) -m pytest

# between commits: every test but those marked slow (make test, which CI runs, has them all)
test-fast: install
	$(PY) -m pytest -m "not slow"

check: install
	$(VENV)/bin/treasure check

bench: install bytecode
	$(PY) -m solver.bench

# the table companion's pages in Debian's headless chromium, with real advice (reports/web)
screenshots: install
	$(PY) -m tests.web_browser reports/web

lint: install
	$(VENV)/bin/ruff check solver tests

clean:
	rm -rf $(VENV) build *.egg-info
