# Two commands: `make play` and `make test`. Both create or refresh .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test lint bench clean

play: $(STAMP)
	$(BIN)/cardcore

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest -n 2

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benches/engines.py

# Refreshed whenever the project's metadata or the pins change.
# The example game is installed like any third-party plugin, so the launcher shows it.
$(STAMP): pyproject.toml constraints.txt examples/crazy_eights/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -c constraints.txt pip hatchling editables
	$(BIN)/python -m pip install -q -c constraints.txt --no-build-isolation -e '.[test,ray]'
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e examples/crazy_eights
	touch $(STAMP)

clean:
	rm -rf $(VENV)
