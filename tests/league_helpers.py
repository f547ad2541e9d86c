"""Finished matches in a real library, for the league tests (seeded: the same every run)."""

from __future__ import annotations

from cardcore.engine.bots.play import play_bots
from cardcore.engine.match import Match
from cardcore.engine.match_setup import game_options

#: The league of docs/leagues.md's example: Casino to 11, three partnerships.
OPTIONS = {"target": 11}
PAIRS = [("Ann", "Cat"), ("Bob", "Dan"), ("Eve", "Fay")]


def finished_match(store, registry, names, seed, game_id="casino", options=None):
    """A match of four random bots named ``names`` (seats 0 and 2 play 1 and 3), played to
    its end and put in the library as the table would: its id."""
    game = registry.games[game_id]
    opts = game_options(game, OPTIONS if options is None else options)
    events = []
    match = Match(game, seed=seed, seats=["random"] * 4, names=list(names), options=opts,
                  on_event=events.append)
    match.start()
    play_bots(match, {s: registry.bots["random"]() for s in range(4)})
    return store.import_record(events, match.snapshot(), source="table")


def new_league(book, registry, name="Tuesday", pairs=PAIRS, game_id="casino", options=None):
    game = registry.games[game_id]
    opts = game_options(game, OPTIONS if options is None else options).model_dump(mode="json")
    return book.create(name, game_id, opts, "2026", [(None, list(p)) for p in pairs])
