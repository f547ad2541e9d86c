"""Shared fixtures: the example games are importable without installing them."""

import sys
from pathlib import Path

import pytest

# The suite keeps its compiled modules even where the shell says not to write any
# (PYTHONDONTWRITEBYTECODE): pytest then caches each test module's assertion rewrite (13 s of
# a quick run's collection, in each worker, otherwise) and the commands the tests start read
# cardcore's .pyc files (they keep the variable: reading is not writing). __pycache__ is
# ignored by git.
sys.dont_write_bytecode = False

ROOT = Path(__file__).resolve().parent.parent
for EXAMPLE in (ROOT / "examples" / "crazy_eights", ROOT / "examples" / "whist"):
    if str(EXAMPLE) not in sys.path:
        sys.path.append(str(EXAMPLE))


@pytest.fixture
def crazy_eights():
    from cardcore_crazy_eights.game import CrazyEights

    return CrazyEights()


@pytest.fixture
def whist():
    from cardcore_whist.game import Whist

    return Whist()


@pytest.fixture(autouse=True)
def cardcore_home(tmp_path, monkeypatch):
    """Saves and records of a test go to its own folder (and its library too, unless the
    test takes ``library``)."""
    home = tmp_path / "cardcore-home"
    monkeypatch.setenv("CARDCORE_HOME", str(home))
    monkeypatch.delenv("CARDCORE_LIBRARY", raising=False)
    return home


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server of this test process's own (``tests/pg_server.py``), stopped at
    the end of the session."""
    from tests.pg_server import PgServer, binaries

    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server installed (/usr/lib/postgresql/NN/bin/initdb): "
                    "`make test` installs Debian's postgresql")
    server = PgServer(bin_dir)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    """A new, empty database: a PostgreSQL library's URL."""
    return pg_server.new_database()


def pytest_collection_modifyitems(items):
    """A test that needs the PostgreSQL server is `make test`'s (slow): the quick loop starts
    none (the ``library`` fixture's PostgreSQL half is marked where it is declared)."""
    for item in items:
        if {"pg_server", "pg_url"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def library(request, monkeypatch, cardcore_home):
    """The test runs on each back end: the library every ``open_library()`` opens (the
    data dir's SQLite file, or a new PostgreSQL database named by $CARDCORE_LIBRARY).
    PostgreSQL's half is `make test`'s (slow): the quick loop runs the store's tests on
    SQLite only, with no PostgreSQL server to start."""
    if request.param == "sqlite":
        from cardcore.services.store.sqlite import library_path

        return str(library_path())
    url = request.getfixturevalue("pg_url")
    monkeypatch.setenv("CARDCORE_LIBRARY", url)
    return url
