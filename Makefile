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
	$(BIN)/pytest -n 2

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python benches/engines.py

# Refreshed whenever the project's metadata or the pins change.
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -c constraints.txt pip hatchling
	$(BIN)/python -m pip install -q -c constraints.txt --no-build-isolation -e '.[test]'
	touch $(STAMP)

clean:
	rm -rf $(VENV)
