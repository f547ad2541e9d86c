"""`cardcore web` speaks each player's language (docs/languages.md, "In a browser"): the one
they chose (``?lang=``, kept in a cookie; else ``cardcore web --lang``), else the browser's
Accept-Language, else English; the app process gets it as CARDCORE_LANG. Real requests on
127.0.0.1, the web server in this process with tests/web/test_web_guards.py's stand-in app."""

from __future__ import annotations

import asyncio
import urllib.request

import pytest
import websockets

from cardcore.apps.tui.web import accepted, page_language, seats_dir

from .test_web_guards import KEY_A, KEY_B, WAIT, until, web_server, written

KEY_C = "C" * 43


@pytest.mark.parametrize(("chosen", "header", "spoken"), [
    (None, "id-ID,id;q=0.9,en-US;q=0.8,en;q=0.7", "id"),
    (None, "en-US,en;q=0.9,id;q=0.8", "en"),
    (None, "fr-FR, de;q=0.9, id;q=0.2", "id"),
    (None, "de-DE,de;q=0.9", "en"),
    (None, "en;q=0.1, id", "id"),
    (None, None, "en"),
    (None, "id;q=nonsense, *;q=0.5", "en"),
    ("en", "id-ID,id", "en"),
    ("xx", "id-ID", "id"),
])
def test_the_players_choice_then_the_browsers_languages_then_english(chosen, header, spoken):
    assert page_language(chosen, header) == spoken


def test_a_long_header_is_read_in_bounds():
    assert len(accepted("id," * 10_000)) <= 200


async def app_language(port: int, key: str, headers: dict[str, str]) -> websockets.ClientConnection:
    return await asyncio.wait_for(websockets.connect(f"ws://127.0.0.1:{port}/ws/{key}",
                                                     additional_headers=headers), WAIT)


@pytest.mark.asyncio
async def test_each_page_gets_its_app_in_its_language(cardcore_home):
    async with web_server() as web:
        root = cardcore_home / "web-seats"
        opened = [await app_language(web.port, KEY_A, {"Accept-Language": "id-ID,id;q=0.9,en;q=0.8"}),
                  await app_language(web.port, KEY_B, {"Accept-Language": "de-DE,de;q=0.9"}),
                  await app_language(web.port, KEY_C, {"Accept-Language": "id-ID",
                                                        "Cookie": "cardcore-lang=en"})]
        web.clients += opened
        folders = [seats_dir(root, key) for key in (KEY_A, KEY_B, KEY_C)]
        await until(lambda: all(written(f, "env") for f in folders), "the three apps started")
        said = [[line for line in written(f, "env").splitlines() if line.startswith("CARDCORE_LANG=")]
                for f in folders]
        assert said == [["CARDCORE_LANG=id"], ["CARDCORE_LANG=en"], ["CARDCORE_LANG=en"]]


@pytest.mark.asyncio
async def test_cardcore_web_lang_chooses_for_a_player_who_has_not(cardcore_home):
    async with web_server(language="id") as web:
        web.clients.append(await app_language(web.port, KEY_A, {"Accept-Language": "en-GB,en"}))
        folder = seats_dir(cardcore_home / "web-seats", KEY_A)
        await until(lambda: written(folder, "env"), "the app started")
        assert "CARDCORE_LANG=id" in written(folder, "env").splitlines()


@pytest.mark.asyncio
async def test_the_page_is_in_the_browsers_language(cardcore_home):
    async with web_server() as web:
        def page(headers: dict[str, str], query: str = "") -> str:
            request = urllib.request.Request(f"http://127.0.0.1:{web.port}/{query}", headers=headers)
            with urllib.request.urlopen(request, timeout=WAIT) as response:
                return response.read().decode()

        indonesian = await asyncio.to_thread(page, {"Accept-Language": "id-ID,id;q=0.9"})
        assert '<html lang="id">' in indonesian and ">Mulai</button>" in indonesian
        english = await asyncio.to_thread(page, {"Accept-Language": "id-ID"}, "?lang=en")
        assert '<html lang="en">' in english and ">Start</button>" in english
