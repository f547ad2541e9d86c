"""Debian's headless Chromium driven by selenium, with a hook that keeps what the page's
WebSockets receive (the app's screen output): the browser test's and the demo's
(demos/weekly_evening.py) one way to open a page and read it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

#: Keeps what the page's WebSockets receive in window.__cc (the last ``keep`` frames).
HOOK = r"""
window.__cc = [];
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = protocols ? new Native(url, protocols) : new Native(url);
  ws.addEventListener("message", (ev) => {
    window.__cc.push(typeof ev.data === "string" ? ev.data : new TextDecoder().decode(ev.data));
    if (window.__cc.length > KEEP) window.__cc.splice(0, window.__cc.length - KEEP);
  });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
"""


def missing() -> list[str]:
    """The browser's programs not installed (`make test` installs them: Makefile, browser)."""
    return [path for path in (CHROMIUM, CHROMEDRIVER) if not Path(path).exists()]


def chromium(window: tuple[int, int] = (1280, 800), keep: int = 1_000_000) -> Any:
    """A headless Chromium whose pages keep their WebSockets' frames (``screen_text``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={window[0]},{window[1]}"):
        options.add_argument(arg)
    options.page_load_strategy = "none"  # never wait for the fonts the page cannot fetch
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or CHROMEDRIVER),
                              options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                           {"source": HOOK.replace("KEEP", str(keep))})
    return driver


def screen_text(driver: Any) -> str:
    """What the page's terminal was sent (escape sequences and all)."""
    return str(driver.execute_script("return (window.__cc || []).join('')") or "")
