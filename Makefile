# treasure-solver: every target that needs Python depends on the venv.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install solve test check bench lint screenshots clean

install: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

solve: install
	$(PY) -m solver.make_solve

test: install
	$(PY) -m pytest

check: install
	$(VENV)/bin/treasure check

bench: install
	$(PY) -m solver.bench

# the table companion's pages in Debian's headless chromium, with real advice (reports/web)
screenshots: install
	$(PY) -m tests.web_browser reports/web

lint: install
	$(VENV)/bin/ruff check solver tests

clean:
	rm -rf $(VENV) build *.egg-info
