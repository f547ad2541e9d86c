"""The parts a played evening is made of: terminals in tmux, browser pages in headless
Chromium, a spectator that tells whose turn it is, and the processes (`cardcore serve`,
`cardcore web`). Loopback only; every wait bounded."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

WAIT = 30.0
CARDCORE = str(Path(sys.executable).with_name("cardcore"))


def wait(what: str, condition: Callable[[], Any], timeout: float = WAIT, step: float = 0.2) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise TimeoutError(f"never: {what}")


def flat(text: str) -> str:
    return " ".join(text.split())


class Terminal:
    """A person at a terminal: `cardcore ...` in a tmux session of 80x24."""

    def __init__(self, name: str, args: list[str], home: Path, cols: int = 80, rows: int = 24):
        self.name, self.keys_pressed = name, 0
        home.mkdir(parents=True, exist_ok=True)
        command = " ".join([f"CARDCORE_HOME={home}", CARDCORE, *args])
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
        subprocess.run(["tmux", "new", "-d", "-s", name, "-x", str(cols), "-y", str(rows), command],
                       check=True)

    def text(self) -> str:
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True,
                              text=True).stdout

    def press(self, *keys: str) -> None:
        """Keys as tmux names them (Enter, Tab, Escape, C-s, a, 1, ...)."""
        for key in keys:
            subprocess.run(["tmux", "send-keys", "-t", self.name, key], check=True)
            self.keys_pressed += 1
            time.sleep(0.15)

    def type(self, text: str) -> None:
        """Type ``text`` and wait until the screen shows it (keys after it go to the same box)."""
        subprocess.run(["tmux", "send-keys", "-t", self.name, "-l", text], check=True)
        wait(f"{text!r} on {self.name}'s screen", lambda: text in self.text(), timeout=10, step=0.05)

    def shows(self, phrase: str) -> bool:
        return phrase in flat(self.text())

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")

HOOK = r"""
window.__cc = [];
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = protocols ? new Native(url, protocols) : new Native(url);
  ws.addEventListener("message", (ev) => {
    window.__cc.push(typeof ev.data === "string" ? ev.data : new TextDecoder().decode(ev.data));
    if (window.__cc.length > 400) window.__cc.splice(0, 200);
  });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
"""


class Browser:
    """A person at a browser: a headless Chromium page of `cardcore web`."""

    def __init__(self, name: str, url: str):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.name, self.keys_pressed = name, 0
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1100,700"):
            options.add_argument(arg)
        options.page_load_strategy = "none"
        self.driver = webdriver.Chrome(
            service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
        self.driver.get(url)

    def text(self) -> str:
        """What the page's terminal was sent lately, its escape sequences taken out."""
        sent = str(self.driver.execute_script("return (window.__cc || []).join('')") or "")
        return ANSI.sub("", sent)

    def shows(self, phrase: str) -> bool:
        return phrase in flat(self.text())

    def _box(self) -> Any:
        from selenium.webdriver.common.by import By

        return wait("the terminal", lambda: self.driver.find_elements(
            By.CSS_SELECTOR, ".xterm-helper-textarea"))[0]

    def press(self, *keys: str) -> None:
        """Keys as selenium names them (Keys.ENTER, "j", ...)."""
        box = self._box()
        for key in keys:
            box.send_keys(key)
            self.keys_pressed += 1
            time.sleep(0.15)

    def type(self, text: str) -> None:
        self._box().send_keys(text)
        time.sleep(0.15)

    def screenshot(self, path: Path) -> None:
        self.driver.save_screenshot(str(path))

    def close(self) -> None:
        self.driver.quit()


class Watcher:
    """A spectator of one table over the protocol: the table's latest update."""

    def __init__(self, server: str, code: str):
        self.ws = connect(server, open_timeout=WAIT)
        self.ws.send(json.dumps({"v": 1, "type": "watch", "id": 1, "code": code}))
        self.last: dict[str, Any] = {}

    def now(self, timeout: float = 0.05) -> dict[str, Any]:
        """The newest update (reading whatever arrived within ``timeout``)."""
        with contextlib.suppress(TimeoutError):
            while True:
                message = json.loads(self.ws.recv(timeout=timeout))
                if message.get("type") == "update":
                    self.last = message
                timeout = 0.01
        return self.last

    def close(self) -> None:
        self.ws.close()


@contextlib.contextmanager
def process(*args: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen([CARDCORE, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env={**os.environ, **(env or {})})
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
