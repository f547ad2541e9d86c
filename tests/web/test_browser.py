"""The browser front end in a real headless Chromium (Debian's `chromium` and
`chromium-driver`, driven by selenium): `cardcore serve` and `cardcore web` run as
processes; the page shows the server's tables, takes a seat, and a move reaches the
server. The page is never waited on for "network idle"; what the terminal shows is read
from the frames the page's WebSocket receives."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cardcore.services.net import protocol as p

from .chromium import chromium, missing, screen_text
from .processes import ask, browser_apps, serve, table_now, web

WAIT = 30.0


@pytest.fixture
def browser() -> Iterator[Any]:
    if missing():  # never skipped: `make test` installs them (Makefile, target browser)
        pytest.fail(f"{', '.join(missing())} missing: install Debian's chromium and chromium-driver "
                    "(apt-get install -y chromium chromium-driver)")
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


def wait(what: str, condition: Callable[[], Any], timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"never: {what}")


def keys(driver: Any, *typed: str) -> None:
    """Type into the terminal (xterm's input element)."""
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
    for text in typed:
        box.send_keys(text)
        time.sleep(0.3)


@pytest.mark.slow
def test_a_browser_sees_the_tables_takes_a_seat_and_moves(browser, tmp_path, cardcore_home):
    from selenium.webdriver.common.keys import Keys

    with serve() as server, web(server) as page:
        created = ask(server, p.CreateTable(game="casino", seats=["human", "greedy"], seed=4,
                                           public=True))
        code, secret = created.code, created.seats[0].invite
        browser.get(page + "/")
        wait("the list of tables", lambda: "Tables on" in (shown := screen_text(browser)) and code in shown)
        keys(browser, Keys.ENTER)  # the only table: its seat, with the secret
        wait("the invite asked for", lambda: "your seat's invite" in screen_text(browser))
        keys(browser, secret, Keys.ENTER)
        wait("our hand", lambda: "Your hand" in screen_text(browser))
        table = wait("our turn", lambda: (t := table_now(server, code)).to_play == 0 and t)
        before = table.turn
        keys(browser, "1")
        after = wait("the move on the server", lambda: (t := table_now(server, code)).turn > before and t)
        assert any(line.seat == 0 for line in after.log), "the server's log has no move of ours"
        browser.save_screenshot(str(tmp_path / "table.png"))
        assert (tmp_path / "table.png").stat().st_size > 0
        # the page keeps a key in the browser's storage and opens /ws/KEY: the app keeps
        # this browser's seats in a folder named after the key's hash
        key = browser.execute_script("return window.localStorage.getItem('cardcore-browser-key')")
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", key or ""), key
        assert (cardcore_home / "web-seats" / hashlib.sha256(key.encode()).hexdigest()[:32]).is_dir()
        # a seat's web link: the page's WebSocket starts the app at that seat; a malformed
        # one is the plain lobby (nothing of it reaches the app)
        assert f'data-ws-seat="/{code}/{secret}"' in page_source(f"{page}/?table={code}&secret={secret}")
        assert 'data-ws-seat=""' in page_source(f"{page}/?table={code}&secret=x%3Brm%20-rf")
        assert browser_apps(server), "no app process for the browser"
        # a seat's web link that does not seat you says why (issue 23: it showed "No table yet")
        browser.get(f"{page}/?table={code}&secret=maple-river-stone-tigre")
        wait("why the link did not seat us", lambda: "did not seat you (not a seat's invite)"
             in " ".join(screen_text(browser).split()))
    # the web server gone, its apps go too (none left running for nobody)
    wait("the browser's app gone", lambda: not browser_apps(server), timeout=15)


def page_source(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as page:
        return str(page.read().decode())
