# Two commands: `make play` and `make test`. Both create or refresh .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test test-pure lint bench clean browser haproxy postgresql catalogs native

play: $(STAMP) native
	$(BIN)/cardcore

# The whole suite on the compiled engine modules, then the rules again as Python (test-pure).
test: $(STAMP) native browser haproxy postgresql
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest -n 2
	$(MAKE) --no-print-directory test-pure

# The games' rules, hidden information and pickling with every module run as Python, built or
# not (cardcore/compiled.py): the pure path stays working. The quick ones (`make test-pure
# PURE_MARK=` runs the slow references too).
PURE_MARK ?= not slow
test-pure: $(STAMP)
	CARDCORE_PURE=1 $(BIN)/pytest -n 2 -m "$(PURE_MARK)" tests/casino tests/canasta

# The engines' hot modules compiled with mypyc into build/native (mypyc_build.py; docs/design.md,
# Engine speed); at once when the build matches the sources.
native: $(STAMP)
	$(BIN)/python mypyc_build.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP) native
	$(BIN)/python benches/engines.py

# Refreshed whenever the project's metadata or the pins change.
# The example games are installed like any third-party plugin, so the launcher shows them.
$(STAMP): pyproject.toml constraints.txt examples/crazy_eights/pyproject.toml examples/whist/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -c constraints.txt pip hatchling editables
	$(BIN)/python -m pip install -q -c constraints.txt --no-build-isolation -e '.[test,ray,postgresql]'
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e examples/crazy_eights
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e examples/whist
	touch $(STAMP)

# The browser test (tests/web) drives Debian's chromium through chromium-driver: installed
# here when missing (as root); otherwise make stops and names the packages.
browser:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromedriver || \
	  { [ "$$(id -u)" = 0 ] && apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; } || \
	  { echo "make test needs Debian's chromium and chromium-driver:" \
	         "apt-get install -y chromium chromium-driver (as root)" >&2; exit 1; }

# `cardcore serve --workers N` and its test (tests/net/test_workers.py) run Debian's HAProxy
# in front of the servers: installed here when missing (as root), like chromium above.
haproxy:
	@command -v haproxy >/dev/null || test -x /usr/sbin/haproxy || \
	  { [ "$$(id -u)" = 0 ] && apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy; } || \
	  { echo "make test needs Debian's haproxy: apt-get install -y haproxy (as root)" >&2; exit 1; }

# The library's tests run on PostgreSQL too (tests/pg_server.py starts Debian's server in a
# temporary directory): installed here when missing (as root); otherwise make stops and names it.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; } || \
	  { echo "make test needs Debian's postgresql (its server, for the library's tests):" \
	         "apt-get install -y postgresql (as root)" >&2; exit 1; }

clean:
	rm -rf $(VENV) build/native

# The catalogs (docs/languages.md): every marked message extracted, merged into each
# language's .po, compiled to the .mo beside it. The tests run the same with --check.
catalogs: $(STAMP)
	$(BIN)/python -m cardcore.apps.catalogs
