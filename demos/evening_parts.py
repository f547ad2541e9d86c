"""The parts a played evening is made of: terminals in tmux, browser pages in headless
Chromium, a spectator that tells whose turn it is, and the processes (`cardcore serve`,
`cardcore web`). Loopback only; every wait bounded."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for tests.web
from tests.web.chromium import chromium, screen_text  # noqa: E402
from tests.web.processes import running as process  # noqa: E402, F401 (the demo's)

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


class Browser:
    """A person at a browser: a headless Chromium page of `cardcore web`."""

    def __init__(self, name: str, url: str):
        self.name, self.keys_pressed = name, 0
        self.driver = chromium(window=(1100, 700), keep=400)
        self.driver.get(url)

    def text(self) -> str:
        """What the page's terminal was sent lately, its escape sequences taken out."""
        return ANSI.sub("", screen_text(self.driver))

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
