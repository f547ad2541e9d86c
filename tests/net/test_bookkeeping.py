"""A server's matches in the library as people see it: `cardcore history` lists them,
finished or not, and the statistics and the record carry the names people chose."""

from __future__ import annotations

import pytest

from cardcore.apps.library_cli import history
from cardcore.engine.records import parse_record_lines
from cardcore.services.plugins import load_registry
from tests.net.helpers import Client, running
from tests.net.test_rematch import two_players_finish


@pytest.mark.asyncio
async def test_server_matches_are_in_history_and_statistics_under_the_names_people_chose(tmp_path, capsys):
    registry = load_registry()
    async with running(tmp_path / "library.sqlite", registry=registry) as server:
        code, _, clients = await two_players_finish(server, registry)
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "greedy"]})
        joined = await host.request({"type": "join", "code": made["code"],
                                     "invite": made["seats"][0]["invite"], "name": "Cy"})
        assert joined["type"] == "joined"
        await server.writer.drain()
        store = server.store
        finished = store.get(server.tables[code].match_id)

        history(store, None, unfinished=False, limit=20)
        out = capsys.readouterr().out
        assert "Cy (human), Player 2 (greedy)" in out and "(at a server table)" in out
        assert "won by" in out and "Ann (human), Bob (human)" in out

        players = {s.player for s in store.stats("casino")}
        assert {"Ann", "Bob"} <= players and "South" not in players
        events = [e for _, e in parse_record_lines(store.export_record(finished.id), "record")]
        named = [(e.seat, e.name) for e in events if e.event == "seat"]
        assert sorted(named) == [(0, "Ann"), (1, "Bob")]
        for client in [*clients, host]:
            await client.close()
