"""Clients that play whole matches with bots choosing from what they receive, and the
checks made on every message: nothing another seat holds or the stock holds is shown."""

from __future__ import annotations

import asyncio
import functools
import random
import re
from collections import Counter
from typing import Any

from cardcore.engine.bots.base import Bot
from cardcore.engine.game import Game
from cardcore.engine.journal import MatchStart
from cardcore.engine.match import Match
from cardcore.engine.records import dumps, parse_record_lines
from cardcore.services.net.wire import info_of_view, view_cards
from cardcore.services.plugins import Registry
from tests.net.helpers import Client

GLYPH = re.compile(r"(10|[2-9AJQK])([♠♥♦♣])|Jkr")
SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


async def play_seat(client: Client, code: str, seat: int, game: Game, bot: Bot,
                    rng: random.Random, sent: list[tuple[int, int, dict[str, Any]]]) -> dict[str, Any]:
    """Answer every update that asks this seat to play, until the match is over; the
    actions are the bot's choice from the received view and actions."""
    while True:
        update = await client.update(lambda m: m["code"] == code and (bool(m["actions"]) or m["over"]))
        if update["over"]:
            return update
        info = info_of_view(game, seat, update["view"])
        mine = sorted(repr(a.to_json()) for a in info.legal_actions())
        assert mine == sorted(repr(a["action"]) for a in update["actions"])  # what the view allows
        action = bot.choose(info, rng).to_json()
        sent.append((update["turn"], seat, action))
        await client.send({"type": "act", "code": code, "action": action, "turn": update["turn"]})


def local_record(registry: Registry, start: MatchStart,
                 moves: list[tuple[int, int, dict[str, Any]]]) -> str:
    """The record of a local match with the same game, options, seed and seats, the client
    seats playing ``moves`` (in turn order) and the bot seats choosing with their streams."""
    from cardcore.engine.bots.base import InfoSet

    game = registry.games[start.game]
    lines: list[str] = []
    match = Match(game, game.Options(**start.options), seed=start.seed, seats=start.seats,
                  on_event=lambda e: lines.append(dumps(e) + "\n"))
    match.start()
    queue = [m for _, _, m in sorted(moves, key=lambda x: x[0])]
    while not match.over:
        seat = match.to_play
        assert seat is not None
        if match.seats[seat] == "human":
            action = game.action_from_json(match.state, queue.pop(0))
        else:
            info = InfoSet.of(game, match.state, seat)
            action = registry.bots[match.seats[seat]]().choose(info, match.bot_rng(seat))
        match.apply(action)
    assert queue == []
    return "".join(lines)


@functools.cache
def positions(record: str) -> dict[tuple[int, int, bool], dict[str, Any]]:
    """The true state at each (hand, turn, hand over) an update can show, from the record."""
    found: dict[tuple[int, int, bool], dict[str, Any]] = {}
    turn = 0
    for _, event in parse_record_lines(record, "server record"):
        if event.event == "deal":
            found[(event.hand, turn, False)] = event.state
        elif event.event == "action":
            turn += 1
            over = event.state.get("to_play") is None
            found[(event.hand, turn, over)] = event.state
    return found


@functools.cache
def actions_after(record: str) -> dict[tuple[int, int, str], dict[str, Any]]:
    """(hand, seat, label) -> the state after that action (the log line's moment)."""
    return {(e.hand, e.seat, e.label): e.state
            for _, e in parse_record_lines(record, "server record") if e.event == "action"}


def allowed(export: dict[str, Any], seat: int | None) -> Counter[str]:
    """Every card of the position less those in another seat's hand (but for the cards
    known there to ``seat``: Canasta's taken with the pile) or in the stock."""
    hidden = Counter(c for c in export.get("stock", []) if c)
    known = export.get("known", {}).get("hands")
    for other, hand in enumerate(export.get("hands", [])):
        if other != seat:
            marks = known[other] if known else []
            hidden.update(Counter(hand) - Counter(m["card"] for m in marks if m["to"] is None
                                                  or seat in m["to"]))
    return Counter(view_cards(export)) - hidden


def cards_in_text(text: str) -> Counter[str]:
    return Counter("JK" if m.group(0) == "Jkr" else m.group(1) + SUIT[m.group(2)]
                   for m in GLYPH.finditer(text))


def zone_cards(update: dict[str, Any]) -> Counter[str]:
    return Counter(c for z in update["zones"] for c in [*z["cards"], *(x for g in z["groups"]
                                                                         for x in g["cards"])] if c)


def check_no_leak(update: dict[str, Any], record: str) -> None:
    """Each part of ``update`` shows only cards its seat may see at that moment; each log
    line only what was public right after its action."""
    key = (update["hand_no"], update["turn"], update["hand_over"])
    export = positions(record)[key]
    seat = update["seat"]
    may = allowed(export, seat)
    parts = {"zones": zone_cards(update), "view": Counter(view_cards(update["view"])),
             "why_not": Counter(list(update["why_not"]))}
    for i, action in enumerate(update["actions"]):
        parts[f"action {i}"] = Counter(view_cards(action["action"]))
        parts[f"cards of action {i}"] = Counter(action["cards"])
    for name, shown in parts.items():
        extra = shown - may
        assert not extra, f"{name} of the update for seat {seat} at {key} shows {dict(extra)}"
    names = update["names"]
    after = actions_after(record)
    for line in update["log"]:
        who, _, label = line["text"].partition(": ")
        assert who == names[line["seat"]]
        state = after[(line["hand"], line["seat"], label)]
        extra = cards_in_text(label) - allowed(state, seat)
        assert not extra, f"log line {line['text']!r} shows {dict(extra)} to seat {seat}"


async def gather_bounded(*aws: Any, timeout: float) -> list[Any]:
    return await asyncio.wait_for(asyncio.gather(*aws), timeout)
