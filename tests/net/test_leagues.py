"""A server's leagues (docs/leagues.md "At a server", docs/protocol.md "league"): a table
naming a league adds its match once finished; ``league`` answers ``standings``."""

from __future__ import annotations

import pytest

from cardcore.services.league.book import LeagueBook
from cardcore.services.league.standings import standings
from cardcore.services.net import protocol
from cardcore.services.plugins import load_registry
from cardcore.services.store.sqlite import SqliteStore
from tests.league_helpers import new_league
from tests.net.helpers import Client, running, until

OPTIONS = {"target": 11}


def league_book(path):
    store = SqliteStore(path)
    return store, LeagueBook(store)


def library_with_a_league(tmp_path):
    """The installed games, and a library holding the league Tuesday (tests.league_helpers)."""
    registry = load_registry()
    path = tmp_path / "library.sqlite"
    store, book = league_book(path)
    new_league(book, registry)
    book.close()
    store.close()
    return registry, path


async def a_league_table(client, names, league="Tuesday", options=OPTIONS, seed=1):
    return await client.request({"type": "create_table", "game": "casino", "seats": ["random"] * 4,
                                 "names": names, "options": options, "seed": seed, "league": league})


@pytest.mark.asyncio
async def test_a_league_table_s_match_joins_its_league_and_standings_come_back(tmp_path):
    registry, path = library_with_a_league(tmp_path)
    async with running(path, registry=registry) as server:
        client = await Client.connect(server.port)
        made = await a_league_table(client, ["Ann", "Bob", "Cat", "Dan"])
        assert made["type"] == "table_created"
        stray = await a_league_table(client, ["Ann", "Cat", "Bob", "Dan"], seed=2)  # Ann & Bob together
        for code in (made["code"], stray["code"]):
            await client.request({"type": "watch", "code": code})  # a table of bots plays while watched
        await until(lambda: all(server.tables[m["code"]].match.over for m in (made, stray)), "both over")
        answer = {}

        async def counted() -> bool:
            answer.update(await client.request({"type": "league", "name": "Tuesday"}))
            return answer.get("entries") == 1

        for _ in range(200):  # the match is added once its last commit is written
            if await counted():
                break
        assert answer["type"] == "standings" and answer["entries"] == 1, answer
        protocol.decode(protocol.encode(answer), sent_by="server")  # the model's shape
        match_id = server.tables[made["code"]].match_id
        stray_id = server.tables[stray["code"]].match_id
        missing = await client.request({"type": "league", "name": "Nope"})
        assert missing["type"] == "error" and missing["code"] == "no_league"
        await client.close()
    store, book = league_book(path)
    league = book.get("Tuesday")
    entries = book.entries(league)
    assert [e.match_id for e in entries] == [match_id] and stray_id != match_id  # the stray is left out
    s = standings(league, entries)
    assert [(t["name"], t["played"], t["won"], t["points_for"], t["points_against"], t["mu"])
            for t in answer["teams"]] == [(t.name, t.played, t.won, t.points_for, t.points_against,
                                           round(t.rating.mu, 3)) for t in s.teams]
    summary = store.get(match_id)
    first, second = summary.side_names
    assert {first: summary.totals[0], second: summary.totals[1]} == {
        t["name"]: t["points_for"] for t in answer["teams"] if t["played"]}
    book.close()
    store.close()


@pytest.mark.asyncio
async def test_a_table_for_a_league_of_other_options_or_none_is_refused_and_nothing_is_kept(tmp_path):
    registry, path = library_with_a_league(tmp_path)
    async with running(path, registry=registry) as server:
        client = await Client.connect(server.port)
        other = await a_league_table(client, ["Ann", "Bob", "Cat", "Dan"], options={"target": 21})
        assert (other["type"], other["code"]) == ("error", "bad_game")
        assert "league Tuesday" in other["message"]
        none = await a_league_table(client, ["Ann", "Bob", "Cat", "Dan"], league="Nope")
        assert none["type"] == "error" and none["code"] == "no_league"
        too_long = await client.request({"type": "league", "name": "x" * 25})
        assert too_long["type"] == "error" and too_long["code"] == "bad_field"
        assert server.tables == {}
        await client.close()
    store = SqliteStore(path)
    assert store.finished() == [] and store.list_unfinished(here_only=False) == []
    store.close()


@pytest.mark.asyncio
@pytest.mark.slow  # 1-2 s of CPU: `make test` runs it, the quick loop does not
async def test_a_rematch_at_a_league_table_is_for_the_same_league(tmp_path):
    import random

    from tests.net.play import gather_bounded, play_seat

    registry, path = library_with_a_league(tmp_path)
    game = registry.games["casino"]
    async with running(path, registry=registry) as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "options": OPTIONS, "seed": 5,
                                   "seats": ["human", "random", "human", "random"],
                                   "names": ["Seat 1", "Bob", "Seat 3", "Dan"], "league": "Tuesday"})
        code = made["code"]
        players = []
        for link, name in zip(made["seats"], ["Ann", "Cat"], strict=True):  # the players name their seats
            client = await Client.connect(server.port)
            assert (await client.sit(code, link, name))["type"] == "joined"
            players.append((client, link["seat"]))

        async def play_out(round_: int) -> None:
            await gather_bounded(*(play_seat(c, code, seat, game, registry.bots["greedy"](),
                                             random.Random(round_ * 10 + seat), [])
                                   for c, seat in players), timeout=40)

        await play_out(0)
        first = server.tables[code].match_id
        for client, _ in players:
            await client.request({"type": "rematch", "code": code})
        await until(lambda: server.tables[code].match_id != first, "the rematch")
        for client, _ in players:
            await client.update(lambda m: m["turn"] == 0 and not m["over"])
        await play_out(1)
        second = server.tables[code].match_id
        answer = {}
        for _ in range(200):
            answer = await host.request({"type": "league", "name": "Tuesday"})
            if answer.get("entries") == 2:
                break
        assert answer["entries"] == 2
        for client, _ in players:
            await client.close()
        await host.close()
    store, book = league_book(path)
    assert [e.match_id for e in book.entries(book.get("Tuesday"))] == [first, second]
    book.close()
    store.close()


@pytest.mark.asyncio
async def test_a_league_match_that_finished_unsettled_is_added_when_the_server_starts(tmp_path):
    """A server killed between a league match's last commit and letting it go: the next
    start adds it (and leaves a match still unfinished pending)."""
    from tests.league_helpers import finished_match

    registry = load_registry()
    path = tmp_path / "library.sqlite"
    store, book = league_book(path)
    league = new_league(book, registry)
    done = finished_match(store, registry, ["Ann", "Bob", "Cat", "Dan"], 1)
    going = store.create("casino", league.options, 1, ["human"] * 4, ["Ann", "Bob", "Cat", "Dan"])
    going.close()
    for match_id in (done, going.id, 999):  # 999: a match deleted since (its table was not made)
        book.pend(league, match_id)
    book.close()
    store.close()
    async with running(path, registry=registry):
        pass
    store, book = league_book(path)
    assert [e.match_id for e in book.entries(book.get("Tuesday"))] == [done]
    assert book.unsettled() == [going.id]
    book.close()
    store.close()


@pytest.mark.asyncio
async def test_leagues_lists_the_servers_leagues_and_a_league_table_says_its_league(tmp_path):
    """``leagues``: names, games, seasons; a league's table names it in the list and in every
    update, and the standings asked right after the match's last update count the match."""
    registry = load_registry()
    path = tmp_path / "library.sqlite"
    store, book = league_book(path)
    new_league(book, registry)
    new_league(book, registry, name="Friday", pairs=[("Gus", "Hal"), ("Ivy", "Jo")])
    book.close()
    store.close()
    async with running(path, registry=registry) as server:
        client = await Client.connect(server.port)
        listed = await client.request({"type": "leagues"})
        assert listed["leagues"] == [{"name": "Tuesday", "game": "casino", "season": "2026"},
                                     {"name": "Friday", "game": "casino", "season": "2026"}]
        extra = await client.request({"type": "leagues", "name": "Tuesday"})
        assert extra["type"] == "error" and extra["code"] == "bad_field"
        made = await a_league_table(client, ["Ann", "Bob", "Cat", "Dan"])
        plain = await client.request({"type": "create_table", "game": "casino", "seats": ["random"] * 2})
        tables = {t["code"]: t for t in (await client.request({"type": "list_tables"}))["tables"]}
        assert tables[made["code"]]["league"] == "Tuesday" and tables[plain["code"]]["league"] is None
        await client.request({"type": "watch", "code": made["code"]})
        first = await client.update()
        assert first["league"] == "Tuesday"
        last = await client.update(lambda u: u["over"], timeout=30)
        answer = await client.request({"type": "league", "name": "Tuesday"})  # no retry: counted now
        assert last["league"] == "Tuesday" and answer["entries"] == 1
        assert answer["options"] == server.tables[made["code"]].match.options.model_dump(mode="json")
        await client.request({"type": "watch", "code": plain["code"]})
        assert "league" not in await client.update()
        await client.close()
    import json
    import sqlite3

    with sqlite3.connect(path) as db:  # the table's league is kept in its row (a restart reads it)
        row = db.execute("SELECT data FROM net_tables WHERE code = ?", (made["code"],)).fetchone()
    assert json.loads(row[0])["league"] == "Tuesday"


@pytest.mark.asyncio
async def test_at_a_league_table_a_seat_named_for_a_league_player_keeps_its_name_when_claimed(tmp_path):
    """The league counts by names: a player claiming a seat named for one of the league's
    players under another name sits as the seat's name ("ann" is Ann); any other seat takes
    the joiner's name, as at any table."""
    registry, path = library_with_a_league(tmp_path)
    async with running(path, registry=registry) as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "options": OPTIONS,
                                   "seats": ["human", "human", "human", "random"], "league": "Tuesday",
                                   "names": ["ann", "Bob", "Seat 3", "Dan"]})
        plain = await host.request({"type": "create_table", "game": "casino", "options": OPTIONS,
                                    "seats": ["human", "human"], "names": ["Ann", "Bob"]})
        players = [await Client.connect(server.port) for _ in range(3)]
        annie = await players[0].sit(made["code"], made["seats"][0], "Annie")
        cat = await players[1].sit(made["code"], made["seats"][2], "Cat")
        elsewhere = await players[2].sit(plain["code"], plain["seats"][0], "Annie")
        assert (annie["name"], cat["name"], elsewhere["name"]) == ("ann", "Cat", "Annie")
        assert list(server.tables[made["code"]].match.seating.names) == ["ann", "Bob", "Cat", "Dan"]
        for client in (*players, host):
            await client.close()
