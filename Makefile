# Quick start: `make battle` fights the default battle; `make test` runs every check.
# The install compiles the hot modules (listed in tertia/_build.py) with mypyc when a C
# compiler is at hand, else installs them as plain Python; TERTIA_PURE_PYTHON=1 skips
# compiling. Editing one of those modules rebuilds them on the next make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.dev-installed
COMPILED_SOURCES := $(shell $(PYTHON) -I tertia/_build.py 2>/dev/null)

.PHONY: battle test lint typecheck unit bench golden clean

$(STAMP): pyproject.toml setup.py tertia/_build.py $(COMPILED_SOURCES)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Tertia needs Python 3.11 or newer")'
	@$(PYTHON) -m venv $(VENV) || { echo "python3 -m venv failed: on Debian install python3-venv (apt-get install python3-venv)"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@$(BIN)/python -c 'from tertia._build import describe; print("tertia:", describe())'
	@touch $(STAMP)

# The checks' tools and Ray (pyproject.toml's `dev` and `ray` extras), installed beside the
# engine without building it again: a battle needs none of them.
$(DEV_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -c 'import subprocess, sys, tomllib; extras = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]; subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", *extras["dev"], *extras["ray"]])'
	@touch $(DEV_STAMP)

battle: $(STAMP)
	$(BIN)/tertia battle

test: lint typecheck unit

# lint-imports checks the import contracts in pyproject.toml ([tool.importlinter]).
lint: $(DEV_STAMP)
	$(BIN)/ruff check tertia tests benchmarks setup.py conftest.py
	$(BIN)/lint-imports --no-cache

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

# The compiled modules' doctests document their sources, so they run from the sources
# (TERTIA_PURE_PYTHON=1) in a second pass; the first leaves them out (see conftest.py).
# The checks keep Python's bytecode and pytest's rewritten tests under the virtualenv
# (CHECKS_BYTECODE, not beside the sources) even where PYTHONDONTWRITEBYTECODE is set:
# every worker, and every Tertia the tests start in a subprocess, then reads them instead
# of compiling each source again.
CHECKS_BYTECODE := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache
unit: $(DEV_STAMP)
	$(CHECKS_BYTECODE) $(BIN)/pytest -n 2 --dist loadgroup --doctest-modules tertia tests
	$(CHECKS_BYTECODE) TERTIA_PURE_PYTHON=1 $(BIN)/pytest --doctest-modules $(COMPILED_SOURCES)

# Rewrite the golden transcripts (tests/golden/) after an intended change in play; the
# diff is the change to review. `make golden RULES=d3-cards` rewrites one rule set's.
golden: $(DEV_STAMP)
	$(BIN)/python -m tests.golden $(RULES)

bench: $(STAMP)
	$(BIN)/python benchmarks/battles.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build
	find tertia -name '*.so' -delete
	rm -f tertia/_native.json
