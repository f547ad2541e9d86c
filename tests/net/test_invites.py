"""Invites read aloud (issue 23, joining): four words of a fixed list, 44 random bits,
accepted in any case and spacing, wrong ones counted as wrong guesses; tokens and owner
keys stay 128 bits, and invites from before the words still claim their seats."""

from __future__ import annotations

import re

import pytest

from cardcore.services.net import invites
from cardcore.services.net.client import Target, parse_target
from cardcore.services.net.seats import Seat, hash_secret, new_secret
from tests.net.helpers import Client, running, server_config

WORD = re.compile(r"[a-z]{3,8}")


def typed(invite: str) -> str:
    """The invite as a person might type it: capitals, spaces, a dot, spaces around."""
    a, b, c, d = invite.split("-")
    return f"  {a.upper()} {b.capitalize()}.{c}  _{d} "


def test_the_list_is_2048_plain_distinct_words_and_an_invite_carries_44_bits():
    words = invites.words()
    assert len(words) == len(set(words)) == 2048
    assert all(WORD.fullmatch(w) for w in words)
    assert invites.invite_bits() == 44
    drawn = {invites.new_invite() for _ in range(200)}
    assert len(drawn) == 200  # 44 bits: no repeats in a few hundred
    assert all(len(i.split("-")) == 4 and set(i.split("-")) <= set(words) for i in drawn)


def test_an_invite_typed_any_way_is_the_same_invite_and_anything_else_is_left_as_it_is():
    invite = invites.new_invite()
    assert invites.canonical(typed(invite)) == invite
    assert invites.canonical(invite.replace("-", " ")) == invite
    old = new_secret()  # 128 bits, case matters
    assert invites.canonical(f" {old} ") == old
    assert invites.canonical("maple river stone") == "maple river stone"  # three words: not an invite
    assert invites.canonical("mapel river stone tiger") == "mapel river stone tiger"


def test_a_code_and_its_invite_as_typed_name_the_table_and_the_seat():
    invite = invites.new_invite()
    server = "ws://h:1"
    assert parse_target(f"kqx482 {typed(invite)}", server=server) == Target(server, "KQX-482", invite)
    assert parse_target(f"KQX 482, {invite}", server=server) == Target(server, "KQX-482", invite)
    assert parse_target("kqx-482", server=server) == Target(server, "KQX-482", None)
    assert parse_target(f"cardcore://h:9/KQX-482#{invite.upper()}") == \
        Target("ws://h:9/", "KQX-482", invite)
    assert parse_target(f"http://web/?table=KQX-482&secret={invite}", server=server).secret == invite


@pytest.mark.asyncio
async def test_a_seat_is_claimed_by_its_four_words_typed_any_way_once(tmp_path):
    async with running(tmp_path / "library.sqlite") as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "human"]})
        code, (first, second) = made["code"], made["seats"]
        assert len(made["owner"]) == 22  # the owner's key stays 128 bits
        assert first["link"].endswith(f"/{code}#{first['invite']}")
        ann = await Client.connect(server.port)
        joined = await ann.request({"type": "join", "code": code, "invite": typed(first["invite"])})
        assert joined["type"] == "joined" and joined["seat"] == 0
        assert len(joined["token"]) == 22  # the token too
        again = await host.request({"type": "join", "code": code, "invite": first["invite"].upper()})
        assert again["code"] == "seat_taken"
        assert invites.canonical(second["invite"]) == second["invite"]
        for client in (host, ann):
            await client.close()


@pytest.mark.asyncio
async def test_wrong_words_count_toward_the_guess_limit(tmp_path):
    config = server_config()
    config.guess_limit, config.guess_window, config.guess_lockout = 2, 60.0, 60.0
    async with running(tmp_path / "library.sqlite", config) as server:
        host = await Client.connect(server.port, local_addr=("127.0.0.2", 0))
        made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "human"]})
        code, invite = made["code"], made["seats"][0]["invite"]
        answers = []
        for _ in range(3):  # a connection each: three bad keys close one
            guesser = await Client.connect(server.port)
            answers.append((await guesser.request({"type": "join", "code": code,
                                                   "invite": invites.new_invite()}))["code"])
            await guesser.close()
        assert answers == ["bad_secret"] * 3
        late = await Client.connect(server.port)
        refused = await late.request({"type": "join", "code": code, "invite": invite})
        assert refused["code"] == "rate_limited" and not server.tables[code].seats[0].claimed
        for client in (host, late):
            await client.close()


@pytest.mark.asyncio
async def test_an_invite_from_before_the_words_still_claims_its_seat(tmp_path):
    """A table kept with a 128-bit invite (made by an older server) is joined with it, as
    given: its case matters."""
    old = new_secret()
    kept = Seat.from_json({"kind": "human", "invite": hash_secret(old), "token": None})
    assert kept.invited_by(f" {old} ") and not kept.invited_by(old.swapcase())
    async with running(tmp_path / "library.sqlite") as server:
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "human"]})
        code = made["code"]
        server.tables[code].seats[1].invite_hash = hash_secret(old)  # as a row of an older server holds it
        assert (await host.request({"type": "join", "code": code, "invite": old.swapcase()}))["code"] \
            == "bad_secret"
        joined = await host.request({"type": "join", "code": code, "invite": old})
        assert joined["type"] == "joined" and joined["seat"] == 1
        await host.close()


@pytest.mark.asyncio
async def test_the_code_alone_takes_back_the_seat_kept_here_else_nothing(tmp_path):
    """Join by code with the code alone: the seat this client claimed before (its token is
    kept), or None (the caller watches); a token the seat no longer knows is forgotten."""
    from cardcore.services.net.client import Connection
    from cardcore.services.net.seat_book import SeatBook

    book = SeatBook(tmp_path / "seats")
    async with running(tmp_path / "library.sqlite") as server:
        url = f"ws://127.0.0.1:{server.port}/"
        host = await Client.connect(server.port)
        made = await host.request({"type": "create_table", "game": "casino", "seats": ["human", "human"]})
        code = made["code"]
        first = await Connection.open(url)
        assert await first.come_back(code, book=book) is None  # nothing kept yet
        assert (await first.join(code, made["seats"][1]["invite"], book=book)).seat == 1
        await first.close()
        again = await Connection.open(url)
        back = await again.come_back(code, book=book)
        assert back is not None and back.seat == 1
        await again.close()
        reissued = await host.request({"type": "reissue", "code": code, "seat": 1, "owner": made["owner"]})
        assert reissued["type"] == "invite"
        late = await Connection.open(url)
        assert await late.come_back(code, book=book) is None and book.at_table(url, code) == []
        await late.close()
        await host.close()
