"""A server speaks each client's language (docs/languages.md, "At a server"): the texts it
renders (zone titles, action labels, why_not, log lines, a bot's why) come in the language of
the client's hello, built once per language a moment; an English client's frames are as
they always were, and records keep English."""

from __future__ import annotations

import asyncio
import hashlib
import random
from dataclasses import replace

import pytest

from cardcore import language
from cardcore.services.net import protocol as p
from cardcore.services.net.client import hello, refusal
from cardcore.services.net.offline import seated_table
from cardcore.services.net.persist import Writer
from cardcore.services.plugins import load_registry
from cardcore.services.store.sqlite import SqliteStore
from cardcore_casino.state import FishingState
from tests.net.helpers import Client, running
from tests.net.test_why import until_bot_moved


@pytest.fixture
def tagged(monkeypatch):
    """Casino's zone titles and log lines tagged with the language they were said in."""
    zones, log_line = FishingState.zones, FishingState.log_line
    monkeypatch.setattr(FishingState, "zones", lambda self, seat: [
        replace(z, title=f"{z.title} [{language.current()}]") for z in zones(self, seat)])
    monkeypatch.setattr(FishingState, "log_line",
                        lambda self, action: f"{log_line(self, action)} [{language.current()}]")


@pytest.mark.asyncio
async def test_each_client_reads_the_table_in_its_language_and_the_record_keeps_english(tmp_path, tagged):
    async with running(tmp_path / "library.sqlite", registry=load_registry()) as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "greedy"],
                                   "seed": 11})
        code = made["code"]
        player = await Client.connect(server.port)
        assert (await player.request({"type": "hello", "language": "id-ID"}))["type"] == "welcome"
        assert (await player.sit(code, made["seats"][0], "Ann"))["type"] == "joined"
        spectator = await Client.connect(server.port)
        assert (await spectator.request({"type": "hello", "language": "de"}))["type"] == "welcome"
        assert (await spectator.request({"type": "watch", "code": code}))["type"] == "watching"
        line = await until_bot_moved(player, code, 0, 2)
        assert line["text"].endswith("[id]")
        mine = [m for m in player.received if m["type"] == "update"][-1]  # its turn: its actions
        seen = await spectator.update(lambda u: u["turn"] == mine["turn"])
        assert mine["type"] == "update" and {z["title"][-4:] for z in mine["zones"]} == {"[id]"}
        assert {z["title"][-4:] for z in seen["zones"]} == {"[en]"}  # German: this server speaks English
        assert [x["text"][-4:] for x in seen["log"] if x["bot"]][-1] == "[en]"
        why = await player.request({"type": "why", "code": code})
        assert " chose " not in why["text"] and why["text"].startswith(line["text"].split(":")[0])
        stale = await player.request({"type": "act", "code": code, "action": mine["actions"][0]["action"],
                                      "turn": mine["turn"] - 1})
        assert stale["type"] == "error" and stale["code"] == "stale"  # codes as they are, English
        record = server.store.export_record(server.tables[code].match_id)
        assert "[en]" in record and "[id]" not in record


def frames_of_a_seeded_casino(peer_languages: tuple[str, str], tmp_path) -> list[list[bytes]]:
    """Every frame each seat's peer got in 120 random moves of casino (seed 7) at a server
    table in this process, the peers speaking ``peer_languages``."""

    async def play() -> list[list[bytes]]:
        registry = load_registry()
        store = SqliteStore(tmp_path / f"library-{random.random()}.sqlite")
        writer = Writer(store)
        table, peers = seated_table(registry, store, writer, "casino", 2, 7)
        for peer, spoken in zip(peers, peer_languages, strict=True):
            peer.language = spoken
        rng = random.Random(7)
        try:
            table.broadcast()
            for _move in range(120):
                seat = table.match.to_play
                if seat is None:
                    break
                action = rng.choice(table.match.legal_actions()).to_json()
                table.act(peers[seat], action, table.match.decisions)
            await writer.drain()
        finally:
            writer.close()
            if table.lock is not None:
                table.lock.close()
            store.close()
        return [peer.frames for peer in peers]

    return asyncio.run(play())


#: The frames' digest before the server spoke languages (commit 6b55c51): a change that
#: means to change what a server sends changes it (print the new one, say why).
ENGLISH_FRAMES = "8e5d0acb7d74eb30f80f216736ec1247bc6530645796712bb39b0b07e6afab82"


def digest(frames: list[list[bytes]]) -> str:
    h = hashlib.sha256()
    for frame in (f for peer in frames for f in peer):
        h.update(frame + b"\n")
    return h.hexdigest()


def test_an_english_clients_frames_are_byte_for_byte_as_before(tmp_path):
    assert digest(frames_of_a_seeded_casino(("en", "en"), tmp_path)) == ENGLISH_FRAMES
    language.set_language("id")  # a server started with --lang id
    try:
        assert digest(frames_of_a_seeded_casino(("en", "en"), tmp_path)) == ENGLISH_FRAMES
    finally:
        language.set_language("en")


def test_an_indonesian_seat_changes_nothing_the_english_one_gets(tmp_path, tagged):
    english, mixed = (frames_of_a_seeded_casino(pair, tmp_path) for pair in [("en", "en"), ("en", "id")])
    assert mixed[0] == english[0]
    assert b"[id]" in b"".join(mixed[1]) and b"[id]" not in b"".join(mixed[0])


def test_the_client_says_its_language_in_hello_and_nothing_when_english():
    assert "language" not in p.encode(hello("Ann"))
    with language.speaking("id"):
        assert hello("Ann").language == "id"
        said = refusal("no_table", "no table KQX-482")
        assert said.code == "no_table" and str(said) != "no table KQX-482"
        assert str(refusal("brand_new_code", "as sent")) == "as sent"
    assert str(refusal("no_table", "no table KQX-482")) == "no table KQX-482"


@pytest.mark.parametrize("tag", ["", "x", "i" * 40, "id ID", "<script>"])
def test_a_hello_with_a_bad_language_is_refused(tag):
    with pytest.raises(p.ProtocolError):
        p.decode(p.encode({"v": 1, "id": 1, "type": "hello", "language": tag}), sent_by="client")


@pytest.mark.parametrize(("tag", "spoken"), [("id", "id"), ("id-ID", "id"), ("de", "en"), (None, "en")])
def test_the_server_speaks_a_known_language_else_english(tag, spoken):
    assert language.spoken(tag) == spoken


@pytest.mark.asyncio
async def test_a_server_from_before_languages_is_greeted_again_without_one(tmp_path, monkeypatch):
    from cardcore.services.net.client import Connection

    decode, refused = p.decode, []

    def old_servers(raw, *args, **kwargs):  # as a server of protocol 1 before the field
        if kwargs.get("sent_by", "client") == "client" and b'"language"' in (raw if isinstance(raw, bytes)
                                                                            else raw.encode()):
            refused.append(raw)
            raise p.ProtocolError("bad_field", "language: Extra inputs are not permitted")
        return decode(raw, *args, **kwargs)

    monkeypatch.setattr(p, "decode", old_servers)
    async with running(tmp_path / "library.sqlite") as server:
        with language.speaking("id"):
            conn = await asyncio.wait_for(Connection.open(f"ws://127.0.0.1:{server.port}/", "Ann"), 10)
        assert conn.welcome is not None and len(refused) == 1
        await conn.close()
