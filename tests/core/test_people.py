"""People, not seats: local profiles, person keys in records and the library, statistics per
person and per partnership (docs/library.md, "People")."""

from __future__ import annotations

import json

import pytest

from cardcore.apps.cli import build_parser, main, match_setup
from cardcore.engine import records
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.journal import EventError, parse_event
from cardcore.engine.match import Match, SetupError
from cardcore.engine.match_setup import MatchSetup
from cardcore.engine.people import distinct_name, person_id, seat_key, told_apart
from cardcore.engine.replay import Rebuild
from cardcore.services import profiles
from cardcore.services.plugins import load_registry
from cardcore.services.store import open_library
from cardcore.services.store.checks import import_checked

ANN, ANN2, BOB, CY, DEE = ("p:" + c * 16 for c in "abcde")


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def played(store, registry, seats, names, people=None, seed=1, game_id="casino"):
    """A whole match (random bots in every seat, humans too), committed action by action;
    its id."""
    game = registry.games[game_id]
    options = game.Options(target=1)  # one hand decides (ties play another)
    play = store.create(game_id, options.model_dump(mode="json"), seed, seats, names)
    match = Match(game, options, seed=seed, seats=seats, names=names, people=people,
                  on_event=play.append_event)
    match.start()
    play.save_snapshot(match.snapshot())
    bot = registry.bots["random"]()
    while not match.over:
        seat = match.to_play
        match.apply(bot.choose(InfoSet.of(game, match.state, seat), match.bot_rng(seat)))
        play.save_snapshot(match.snapshot())
    play.close()
    return play.id


def expected(store, ids, groups):
    """Per group (a set of seats by match id, all on one side or each their own), the
    figures counted by hand from the stored score rows and winners."""
    out = {}
    for label, seats_by_match in groups.items():
        got = {"matches": 0, "wins": 0, "hands": 0, "points": 0}
        for match_id, seats in seats_by_match.items():
            rows = store.score_sheet(ids[match_id])
            side_of = {s: i for i, side in enumerate(rows[0]["sides"]) for s in side["seats"]}
            sides = {side_of[s] for s in seats}
            got["matches"] += 1
            got["wins"] += int(store.get(ids[match_id]).winner in sides)
            for row in rows:
                for side in sides:
                    got["hands"] += 1
                    got["points"] += row["sides"][side]["total"]
        out[label] = got
    return out


def figures(rows):
    return {st.player: {"matches": st.matches, "wins": st.wins, "hands": st.hands, "points": st.points}
            for st in rows}


def test_statistics_per_person_and_per_partnership_whichever_seats_they_sat_in(registry):
    store = open_library()
    four = ["human"] * 4
    ids = {
        # Ann and Cy partners in seats 0 and 2, then in seats 3 and 1: one partnership
        1: played(store, registry, four, ["Ann", "Bob", "Cy", "Dee"], [ANN, BOB, CY, DEE], seed=1),
        2: played(store, registry, four, ["Bob", "Cy", "Dee", "Ann"], [BOB, CY, DEE, ANN], seed=2),
        # another Ann (another profile) partners Bob; a record from before keys: Ann by name
        3: played(store, registry, four, ["Ann", "Cy", "Bob", "Dee"], [ANN2, CY, BOB, DEE], seed=3),
        4: played(store, registry, ["human", "greedy"], ["Ann", "East"], None, seed=4),
    }
    people = store.stats("casino", games=registry.games)
    labels = {st.player for st in people}
    # three people share the name Ann: two profiles (told apart by their keys), one name alone
    assert labels == {"Ann · aaaa", "Ann · bbbb", "Ann", "Bob", "Cy", "Dee", "greedy"}
    want = expected(store, ids, {
        "Ann · aaaa": {1: {0}, 2: {3}}, "Ann · bbbb": {3: {0}}, "Ann": {4: {0}},
        "Bob": {1: {1}, 2: {0}, 3: {2}}, "Cy": {1: {2}, 2: {1}, 3: {1}}, "Dee": {1: {3}, 2: {2}, 3: {3}},
        "greedy": {4: {1}}})
    assert figures(people) == want
    assert next(st for st in people if st.player == "Ann · aaaa").person == ANN

    pairs = store.stats("casino", games=registry.games, partnerships=True)
    want = expected(store, ids, {
        "Ann · aaaa & Cy": {1: {0, 2}, 2: {1, 3}}, "Bob & Dee": {1: {1, 3}, 2: {0, 2}},
        "Ann · bbbb & Bob": {3: {0, 2}}, "Cy & Dee": {3: {1, 3}}})
    assert figures(pairs) == want  # match 4 has no partnership: its sides are of one seat
    ann_cy = next(st for st in pairs if st.player == "Ann · aaaa & Cy")
    assert ann_cy.members == ("Ann · aaaa", "Cy") and ann_cy.matches == 2
    store.close()


def test_a_record_keeps_each_seats_person_and_the_library_reads_it_back(registry, tmp_path):
    store = open_library()
    match_id = played(store, registry, ["human", "human"], ["Ann", "Bob"], [ANN, None])
    text = store.export_record(match_id)
    start = json.loads(text.splitlines()[0])
    assert start["people"] == [ANN, None]
    # the same record imported elsewhere: rebuilt through the engine, the people kept
    other = open_library(str(tmp_path / "other.sqlite"))
    numbered = records.parse_record_lines(text, "record")
    assert Rebuild(registry.games["casino"], numbered).run().people == [ANN, None]
    new_id = import_checked(other, registry.games["casino"], numbered)
    (ann,) = [st for st in other.stats() if st.player == "Ann"]
    assert ann.person == ANN and new_id
    # a record without keys is as before: no "people" written, each person their name
    plain = played(store, registry, ["human", "human"], ["Ann", "Bob"])
    assert "people" not in store.export_record(plain).splitlines()[0]
    other.close()
    store.close()


def test_a_person_key_in_a_record_is_checked():
    start = {"event": "match_start", "game": "casino", "seed": 1, "seats": ["human", "human"],
             "options": {}, "people": [ANN, None]}
    assert parse_event(start).people == [ANN, None]
    for bad in (["p:ABC"], ["x" * 5000], [ANN, 7]):
        with pytest.raises(EventError, match="people"):
            parse_event({**start, "people": bad})
    with pytest.raises(EventError, match="person"):
        parse_event({"event": "seat", "seat": 0, "what": "named", "name": "Ann", "person": "token!"})
    with pytest.raises(SetupError, match="people.0: a person key is a letter"):
        MatchSetup.of(game="casino", seats=["human"], people=["s:zz"])


def test_a_profile_keeps_a_persons_name_across_matches(registry, cardcore_home):
    def setup(names, seats=("human", "human")):
        return profiles.with_people(MatchSetup(game="casino", seats=list(seats), names=names,
                                               seed=1).check(registry))

    first = setup(["Ann", "Player 2"])  # a default name is nobody in particular
    assert first.people[1] is None and first.people[0].startswith("p:")
    again = setup(["Bob", "Ann"])
    assert again.people[1] == first.people[0]  # the same person in another seat
    assert sorted(profiles.known_names()) == ["Ann", "Bob"]  # one profile a name
    # two people typed "Ann" at one table: the second is "Ann (2)", a profile of their own
    twice = setup(["Ann", "Ann"])
    assert twice.names == ["Ann", "Ann (2)"] and twice.people[0] == first.people[0]
    assert twice.people[1] not in (None, first.people[0])
    assert setup(["Ann", "Ann"]).people == twice.people
    match = twice.new_match()
    match.start()
    assert match.snapshot()["people"] == twice.people
    assert setup(["Ann", "Bob"], seats=("human", "greedy")).people[1] is None  # a bot: nobody
    # a damaged profiles file is set aside, never overwritten, and play goes on
    path = cardcore_home / "profiles.json"
    path.write_text("{not json")
    assert profiles.known_names() == []
    fresh = setup(["Ann", "Player 2"])
    assert fresh.people[0] != first.people[0]
    assert len(list(cardcore_home.glob("profiles.json.damaged-*"))) == 1


def test_play_names_on_the_command_line(registry, capsys, cardcore_home):
    args = build_parser().parse_args(["play", "casino", "--names", "Ann, Bob", "--seats", "human,greedy"])
    setup = profiles.with_people(match_setup(registry, args, humans_allowed=True))
    assert setup.names == ["Ann", "Bob"] and setup.people[0].startswith("p:") and setup.people[1] is None
    assert profiles.known_names() == ["Ann"]
    assert main(["play", "casino", "--names", "Ann"]) == 2
    assert capsys.readouterr().err.strip() == "cardcore: error: --names names 1 seats for 2 players"
    assert main(["play", "casino", "--names", "Ann,\x1b[31m"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "U+001B" in err and "\x1b" not in err


def test_the_person_rule_in_one_place():
    assert person_id("Ann", ANN) == ANN
    assert person_id("Ann", None) == person_id("Ann", seat_key("t0ken")) == "name:Ann"
    key = seat_key("t0ken")
    assert key.startswith("s:") and "t0ken" not in key and key != seat_key("t0ken2")
    assert distinct_name("Ann", ["Bob"]) == "Ann"
    assert distinct_name("Ann", ["Ann", "Ann (2)"]) == "Ann (3)"
    assert len(distinct_name("x" * 24, ["x" * 24])) == 24
    assert told_apart({ANN: "Ann", "name:Ann": "Ann", BOB: "Bob"}) == {
        ANN: "Ann · aaaa", "name:Ann": "Ann", BOB: "Bob"}
