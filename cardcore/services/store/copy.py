"""``cardcore library copy FROM TO``: a library's every row into an empty library, on either
back end (an SQLite file into PostgreSQL, or back), then checked.

The rows go as they are (the same ids, records, snapshots and leagues; the counters of ids
with them, so an id deleted before the copy is not given again after it) in one read
transaction of FROM and one write transaction of TO: the copy is whole or nothing. Only
the claims and the leases stay behind (a server's hold lives with its connection). Then every
match is read back from both: its summary, its export (the record, byte for byte) and the
statistics must be the same, else the copy is a StoreError (and TO keeps what was written:
it was a new library, to delete and copy again).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from cardcore.services.store import StoreError, StoreUnavailable, open_library
from cardcore.services.store.commits import is_postgres
from cardcore.services.store.postgres import shown_url
from cardcore.services.store.sql import TABLES, SqlStore

#: Rows read and written at a time.
BATCH = 500


def copy_library(source: str, target: str) -> int:
    """Copy the library at ``source`` into the empty one at ``target`` (a path or a
    ``postgresql://`` URL each); the number of matches copied. StoreError in one line:
    a source that is no library, a target that cannot be opened or is not empty."""
    if not is_postgres(source) and not Path(source).is_file():
        raise StoreUnavailable(f"no library at {source} to copy from")
    if source == target:
        raise StoreError("copy a library into another one, not into itself")
    src = _open(source)
    try:
        dst = _open(target)
        try:
            _copy_rows(src, dst)
            return _check(src, dst)
        finally:
            dst.close()
    finally:
        src.close()


def shown_location(location: str) -> str:
    """A library's path, or its URL with the password hidden."""
    return shown_url(location) if is_postgres(location) else location


def _open(location: str) -> SqlStore:
    store = open_library(location, import_autosave=False)
    assert isinstance(store, SqlStore)
    if store.notice:  # a damaged file set aside and a new one started: nothing to copy from
        store.close()
        raise StoreUnavailable(store.notice)
    return store


def _copy_rows(src: SqlStore, dst: SqlStore) -> None:
    reader, writer = src.database(), dst.database()
    try:
        def copy(c: Any) -> None:
            counters = src.id_counters(c)
            with writer.write() as cur:
                held = {t: cur.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
                if any(held.values()):
                    shown = ", ".join(f"{n} {t}" for t, n in held.items() if n)
                    raise StoreError(f"{shown_location(dst.url)} is not empty ({shown}): "
                                     "copy into a new library")
                for table in TABLES:
                    _copy_table(c, cur, table)
                dst.set_id_counters(cur, counters)

        reader.read(copy)
    finally:
        reader.close()
        writer.close()


def _copy_table(c: Any, cur: Any, table: str) -> None:
    rows = c.execute(f"SELECT * FROM {table}")
    columns = [d[0] for d in rows.description]
    insert = (f"INSERT INTO {table} ({', '.join(columns)}) "
              f"VALUES ({', '.join('?' * len(columns))})")
    while batch := rows.fetchmany(BATCH):
        cur.executemany(insert, [tuple(map(_plain, r)) for r in batch])


def _check(src: SqlStore, dst: SqlStore) -> int:
    """Every match the same in both (summary and export), and every table's rows: the
    number of matches; StoreError naming the first that differs."""
    shown = shown_location(dst.url)
    ids = [int(r[0]) for r in src._read(lambda c: c.execute("SELECT id FROM matches ORDER BY id").fetchall())]
    for match_id in ids:
        # held for play or not is the source's processes' business, not the copy's
        same = replace(src.get(match_id), locked=False) == replace(dst.get(match_id), locked=False)
        if not same or src.export_record(match_id) != dst.export_record(match_id):
            raise StoreError(f"the copy of match {match_id} differs from its original: {shown} "
                             "is incomplete; delete it and copy again")
    for table in TABLES:
        if _rows(src, table) != _rows(dst, table):
            raise StoreError(f"the copy's {table} differ from the original's: {shown} is incomplete")
    return len(ids)


def _rows(store: SqlStore, table: str) -> list[tuple[Any, ...]]:
    """The table's rows, each as (column, value) pairs by column name, sorted."""
    def read(c: Any) -> list[tuple[Any, ...]]:
        rows = c.execute(f"SELECT * FROM {table}")
        names = [d[0] for d in rows.description]
        return sorted((tuple(sorted(zip(names, map(_plain, r), strict=True))) for r in rows.fetchall()),
                      key=repr)

    return store._read(read)


def _plain(value: Any) -> Any:
    return bytes(value) if isinstance(value, memoryview) else value
