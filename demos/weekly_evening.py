"""A weekly team evening, played as four people would (issue 23's closing demonstration).

Ann and Bob sit at terminals (tmux, 80x24), Cat and Dan in browsers (headless Chromium on
`cardcore web`); one `cardcore serve` on 127.0.0.1 holds the table and a league of two
partnerships (Ann & Cat, Bob & Dan). Ann makes the league's Canasta table in her lobby and
reads the invites out; Bob joins by code from his launcher, Cat by code in her page's
lobby, Dan with the web link. They play a match, agree a rematch, play it and a third;
then the league's table is read in Ann's lobby and from `cardcore league show`.

Nobody here knows the rules better than "play the first thing the table offers": on each
turn the one to play presses 1 (then 2, ... while a number names a move taken back by an
earlier one this turn). Whose turn it is comes from a spectator connection (what anyone
watching sees). Screens are kept as text (terminals) and PNG (browsers) in OUT.

    python demos/weekly_evening.py [--out DIR] [--target 100]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from evening_parts import (  # noqa: E402
    CARDCORE,
    Browser,
    Terminal,
    Watcher,
    flat,
    process,
    wait,
)

PEOPLE = ["Ann", "Bob", "Cat", "Dan"]  # seats 0-3: Ann & Cat one side, Bob & Dan the other


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def league(library: Path, *args: str) -> str:
    done = subprocess.run([CARDCORE, "league", "--library", str(library), *args],
                          capture_output=True, text=True, env={"COLUMNS": "80", "PATH": ""})
    if done.returncode:
        raise SystemExit(f"cardcore league {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def invites_from(text: str) -> tuple[str, dict[int, str]]:
    """The table code and each seat's four words, as Ann's links screen shows them."""
    found = re.findall(r"Seat (\d): ([A-Z]{3}-\d{3}) ([a-z]+-[a-z]+-[a-z]+-[a-z]+)", flat(text))
    if not found:
        raise SystemExit(f"no invites on Ann's screen:\n{text}")
    return found[0][1], {int(seat) - 1: words for seat, _, words in found}


def play_match(watcher: Watcher, people: dict[int, Any], limit: float = 900) -> dict[str, Any]:
    """Each seat to play presses its first action key until the match is over; at a hand's
    end everyone presses n (the next hand)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        now = watcher.now()
        if now.get("over"):
            return now
        seat, turn = now.get("to_play"), now.get("turn")
        if now.get("hand_over") or seat is None:
            for person in people.values():
                person.press("n")
            wait("the next hand", lambda t=turn: watcher.now().get("turn") != t or watcher.now().get("over"),
                 timeout=30)
            continue
        if not first_that_plays(watcher, people[seat], turn):
            raise SystemExit(f"turn {turn}: {PEOPLE[seat]} found no key that plays:\n{people[seat].text()}")
    raise SystemExit("the match did not end in time")


def first_that_plays(watcher: Watcher, person: Any, turn: int) -> bool:
    """Press 1, 2, ... (and ] for the next page of actions) until the turn moves on: a
    number whose move an earlier one this turn took away says so and plays nothing."""
    for page in range(4):
        if page:
            person.press("]")
        for key in "123456789":
            person.press(key)
            try:
                wait("a move", lambda: watcher.now().get("turn") != turn, timeout=1.5, step=0.05)
                return True
            except TimeoutError:
                continue
    return False


def keep(out: Path, name: str, people: dict[int, Any]) -> None:
    """Every screen as it is now: text for the terminals, PNG for the browsers."""
    for seat, person in people.items():
        if isinstance(person, Browser):
            person.screenshot(out / f"{name}-{PEOPLE[seat]}.png")
        else:
            (out / f"{name}-{PEOPLE[seat]}.txt").write_text(person.text())


def host(server: str, out: Path, pending: list[Any]) -> tuple[Terminal, str, dict[int, str]]:
    """Ann, in her lobby, makes the league's Canasta table and sits at seat 1."""
    ann = Terminal("ann", ["join", "--server", server], out / "home-ann")
    pending.append(ann)
    wait("Ann's lobby", lambda: ann.shows("Tables on"))
    ann.press("n")  # her seat is named by the league: no name to type
    wait("the games", lambda: ann.shows("which game?"))
    ann.press("Enter")  # Canasta, the first
    wait("the form", lambda: ann.shows("League"))
    ann.press("Enter")  # the league row's list, once the server's leagues are in it
    wait("the league in the list", lambda: ann.shows("Tuesday (2026)"))
    ann.press("Down", "Enter")
    wait("the league's seats", lambda: ann.shows("The match counts for Tuesday"))
    ann.press("C-s")
    wait("the invites", lambda: ann.shows("give each player their seat's invite"))
    code, words = invites_from(ann.text())
    (out / "links-Ann.txt").write_text(ann.text())
    ann.press("Enter")  # sit at seat 1
    wait("Ann seated", lambda: ann.shows("Your hand — Ann"))
    print(f"Ann made table {code} in {ann.keys_pressed} keys and sat down")
    return ann, code, words


def bob_joins(server: str, out: Path, code: str, words: str, pending: list[Any]) -> Terminal:
    """Bob, from his launcher, joins by code: the code and the words Ann read out."""
    bob = Terminal("bob", [], out / "home-bob")
    pending.append(bob)
    wait("Bob's launcher", lambda: bob.shows("pick a game"))
    bob.press("j")
    wait("the box", lambda: bob.shows("Join by code"))
    time.sleep(0.5)  # a person reads the box before typing (keys before its focus go nowhere)
    bob.type(f"{code.lower().replace('-', '')} {words.replace('-', ' ')}")
    bob.press("Tab")
    bob.type(server)
    bob.press("Tab")
    bob.type("Bob")
    bob.press("Enter")
    wait("Bob seated", lambda: bob.shows("Your hand — Bob"))
    print(f"Bob: launcher to seated in {bob.keys_pressed} keys plus typing")
    return bob


def cat_joins(page: str, code: str, words: str, pending: list[Any]) -> Browser:
    """Cat, in her browser's lobby, joins by code."""
    from selenium.webdriver.common.keys import Keys

    cat = Browser("cat", page + "/")
    pending.append(cat)
    wait("Cat's lobby", lambda: cat.shows("Tables on"), timeout=60)
    cat.press("j")
    wait("the box", lambda: cat.shows("Join by code"))
    cat.type(f"{code} {words}")  # the page's box has no server line: the page is its server's
    cat.press(Keys.ENTER)
    wait("Cat seated", lambda: cat.shows("Your hand — Cat"), timeout=60)
    print(f"Cat: page to seated in {cat.keys_pressed} keys plus typing")
    return cat


def dan_joins(page: str, code: str, words: str, pending: list[Any]) -> Browser:
    """Dan opens the web link Ann sent him."""
    dan = Browser("dan", f"{page}/?table={code}&secret={words}")
    pending.append(dan)
    wait("Dan seated", lambda: dan.shows("Your hand — Dan"), timeout=60)
    print("Dan: seated by the web link, no key")
    return dan


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(tempfile.mkdtemp(prefix="evening-")))
    ap.add_argument("--target", type=int, default=100, help="the league's Canasta target")
    ap.add_argument("--matches", type=int, default=3)
    args = ap.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    library = out / "server.sqlite"
    print(league(library, "new", "Tuesday", "--game", "canasta", "--option", f"target={args.target}",
                 "--pair", "Ann,Cat", "--pair", "Bob,Dan").strip())
    port, web_port = free_port(), free_port()
    server, page = f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{web_port}"
    people: dict[int, Any] = {}
    pending: list[Any] = []  # a person not yet seated (closed at the end all the same)
    with process("serve", "--port", str(port), "--library", str(library), "--web-url", page,
                 "--bot-delay", "0", env={"CARDCORE_HOME": str(out / "home-server")}), \
            process("web", "--server", server, "--port", str(web_port),
                    env={"CARDCORE_HOME": str(out / "home-web")}):
        time.sleep(3)
        try:
            ann, code, invites = host(server, out, pending)
            people[0] = ann
            people[1] = bob_joins(server, out, code, invites[1], pending)
            people[2] = cat_joins(page, code, invites[2], pending)
            people[3] = dan_joins(page, code, invites[3], pending)
            pending.clear()
            watcher = Watcher(server, code)
            for n in range(1, args.matches + 1):
                start = time.monotonic()
                wait("a turn to play", lambda: watcher.now().get("to_play") is not None, timeout=60)
                end = play_match(watcher, people)
                print(f"match {n}: over in {time.monotonic() - start:.0f} s; totals "
                      f"{end['sheet']['totals']}, winner {end['sheet']['side_names'][end['winner']]}")
                time.sleep(2)
                keep(out, f"match{n}", people)
                if n < args.matches:
                    for person in people.values():
                        person.press("a")  # play again: a rematch once all four ask
                    wait("the rematch dealt", lambda: not watcher.now().get("over"), timeout=60)
            print(league(library, "show", "Tuesday"))
            ann = people[0]
            ann.press("Escape", "q")  # the sheet, the table: back in her lobby, l for the leagues
            wait("Ann's lobby", lambda: ann.shows("Tables on"))
            ann.press("l")
            wait("the league's table", lambda: ann.shows("Ann & Cat") and ann.shows("rating"))
            time.sleep(1)
            keep(out, "end", people)
        except BaseException:
            keep(out, "failed", dict(enumerate(pending)) if pending else people)
            raise
        finally:
            for person in pending + list(people.values()):
                person.close()
    print(f"screens kept in {out}")


if __name__ == "__main__":
    main()
