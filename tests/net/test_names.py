"""Names on the wire (issue 22, item 8): a name the names rule refuses is refused at hello,
join and create_table in one line (``bad_field``, nothing created); a name that merely looks
like markup is a name, and every other client receives it exactly as it was typed (the
front ends draw it as text: tests/tui/test_names_drawn.py)."""

from __future__ import annotations

import pytest

from .helpers import Client, running

MARKUP = ["[/]", "[@click=app.quit]x[/]"]
REFUSED = ["Ann\x1b[31m", "Bob\u202e", "\u3164", "Al\u2060ice", "\ufeffZoe", "Ann\u061c", "x" * 25]


@pytest.mark.asyncio
async def test_markup_like_names_reach_another_client_as_typed_and_refused_ones_never_enter(tmp_path):
    async with running(tmp_path / "l.sqlite") as server:
        creator, other = await Client.connect(server.port), await Client.connect(server.port)
        try:
            assert (await creator.request({"type": "hello", "name": "[reverse]x"}))["type"] == "welcome"
            created = await creator.request({"type": "create_table", "game": "casino", "public": True,
                                             "seats": ["human", "greedy"], "names": MARKUP})
            assert created["type"] == "table_created", created
            for name in REFUSED:
                for message in ({"type": "hello", "name": name},
                                {"type": "create_table", "game": "casino", "public": True,
                                 "seats": ["human", "greedy"], "names": [name, "Bob"]},
                                {"type": "create_table", "game": "casino", "public": True,
                                 "seats": ["human", "greedy", "greedy", "greedy"], "side_names": ["A", name]},
                                {"type": "join", "code": created["code"], "secret": "s", "name": name}):
                    reply = await other.request(message)
                    assert reply["type"] == "error" and reply["code"] == "bad_field", (name, reply)
                    said = reply["message"]
                    assert "\n" not in said and ("U+" in said or "1 to 24" in said), said
            tables = (await other.request({"type": "list_tables"}))["tables"]
            assert [t["code"] for t in tables] == [created["code"]]  # nothing else was made
            assert [s["name"] for s in tables[0]["seats"]] == MARKUP
        finally:
            await creator.close()
            await other.close()
