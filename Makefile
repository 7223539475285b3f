# puzzlelab: every command a reader needs. `make help` lists them.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PARAMS ?= default
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9][0-9]_*.ipynb))
export PATH := $(abspath $(BIN)):$(PATH)
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# HTML reports: drop the saved widget state so widget cells show their static PNG (no CDN needed)
STATIC_WIDGETS := --ClearMetadataPreprocessor.enabled=True --ClearMetadataPreprocessor.clear_cell_metadata=False

.PHONY: help setup reports test test-fast lint format lab screenshot bench notebooks results clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 12

setup: $(STAMP)  ## create .venv and install puzzlelab (editable) with its dependencies

$(STAMP): requirements.txt requirements-test.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements-test.txt
	$(BIN)/python -m pip install -q --no-deps -e .
	@touch $@

reports: setup  ## run every notebook into reports/, render HTML, collect reports/results.md (PARAMS=full: large runs)
	@mkdir -p reports/html
	@set -e; for nb in $(NOTEBOOKS); do \
	  name=$$(basename $$nb .ipynb); args=""; \
	  if [ "$(PARAMS)" = full ] && [ -f notebooks/params/$${name:0:2}_full.yaml ]; then \
	    args="-f notebooks/params/$${name:0:2}_full.yaml"; fi; \
	  echo "== $$name $$args"; \
	  $(BIN)/papermill $$nb reports/$$name.ipynb -k python3 --cwd notebooks $$args --progress-bar; \
	  $(BIN)/jupyter nbconvert --log-level WARN --to html reports/$$name.ipynb --output-dir reports/html \
	    $(STATIC_WIDGETS); \
	done
	$(BIN)/python -m puzzlelab.report reports/results.md $(patsubst notebooks/%,reports/%,$(NOTEBOOKS))

test: setup lint  ## lint, every test, each notebook once under nbval, the widget demo in JupyterLab (Chromium)
	@if [ -n "$$PUZZLELAB_SKIP_BROWSER" ]; then echo "== browser test: SKIPPED (PUZZLELAB_SKIP_BROWSER is set)"; \
	elif c=$$(command -v $${PUZZLELAB_CHROMIUM:-chromium} || ls /usr/bin/chromium 2>/dev/null); then \
	  echo "== browser test: RUNS (JupyterLab in headless $$c; screenshots in reports/browser/)"; \
	else echo "== browser test: SKIPPED (no Chromium: apt-get install chromium, or set PUZZLELAB_CHROMIUM)"; fi
	$(BIN)/python -m pytest -q -rs --durations=8 --nbval-lax --nbval-current-env -p no:cacheprovider tests notebooks

test-fast: setup lint  ## lint + unit/property/fuzz tests: no notebooks, browser or slow tests (fast hypothesis)
	PUZZLELAB_HYPOTHESIS=fast $(BIN)/python -m pytest -q -rs --durations=8 -p no:cacheprovider \
	  -m "not notebook and not browser and not slow" tests

lint: setup  ## ruff check + ruff format --check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup  ## apply ruff's formatting and safe fixes
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

notebooks: setup  ## re-execute the committed notebooks in place (outputs to commit) and write docs/results.md
	@set -e; for nb in $(NOTEBOOKS); do echo "== $$nb"; \
	  $(BIN)/jupyter nbconvert --log-level WARN --to notebook --execute --inplace \
	    --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=1800 \
	    --ExecutePreprocessor.store_widget_state=False $$nb; done
	$(MAKE) --no-print-directory results

results: setup  ## docs/results.md: the headline table of the committed notebooks' outputs
	$(BIN)/python -m puzzlelab.report docs/results.md $(NOTEBOOKS)

lab: setup  ## open JupyterLab on notebooks/
	$(BIN)/jupyter lab notebooks

screenshot: setup  ## README's picture of the lab with a widget (docs/lab_widgets.png; needs Chromium)
	$(BIN)/python tests/browser/labdriver.py docs/lab_widgets.png

bench: setup  ## performance runs with side-by-side baselines (installs benchmark-only extras)
	$(BIN)/python -m pip install -q -r benchmarks/requirements.txt
	$(BIN)/python -m pip install -q --no-deps 'slidingpuzzle>=0.1.5'
	@set -e; for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b; done

clean:  ## remove reports, caches and the virtual environment
	rm -rf reports cache .pytest_cache .ruff_cache .hypothesis $(VENV)
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
