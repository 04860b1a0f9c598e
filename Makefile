# Quick start: `make battle` fights the default battle; `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: battle test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Tertia needs Python 3.11 or newer")'
	@$(PYTHON) -m venv $(VENV) || { echo "python3 -m venv failed: on Debian install python3-venv (apt-get install python3-venv)"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	@touch $(STAMP)

battle: $(STAMP)
	$(BIN)/tertia battle

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check tertia tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2 --dist loadgroup --doctest-modules tertia tests

bench: $(STAMP)
	$(BIN)/python benchmarks/battles.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
