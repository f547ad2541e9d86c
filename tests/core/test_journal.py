"""The journal: every event a typed model, records byte for byte as written."""

import json
import sqlite3
import zlib
from pathlib import Path

import pytest

from cardcore.engine import journal
from cardcore.engine.bots import RandomBot
from cardcore.engine.bots.base import InfoSet
from cardcore.engine.journal import (
    Deal,
    EventError,
    HandEnd,
    MatchStart,
    Note,
    Played,
    Resume,
    SeatChange,
    Undo,
    dumps,
    parse_event,
    parse_events,
    start_of,
)
from cardcore.engine.match import Match
from cardcore.engine.records import RecordError, parse_record_lines
from cardcore.engine.replay import replay
from cardcore.services.plugins import load_registry

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def fixture_lines():
    """Every record line of the committed first-version library (raw and packed)."""
    db = sqlite3.connect(FIXTURES / "library-v1.sqlite")
    try:
        lines = [r[0] for r in db.execute("SELECT line FROM events ORDER BY match_id, seq")]
        for (blob,) in db.execute("SELECT lines FROM chunks ORDER BY match_id, first_seq"):
            lines += zlib.decompress(blob).decode().splitlines()
    finally:
        db.close()
    return lines


def round_trips(lines):
    for line in lines:
        event = parse_event(json.loads(line))
        assert dumps(event) == line
        assert dumps(parse_event(event.to_json())) == line


def test_every_line_of_the_first_version_library_round_trips_byte_for_byte():
    lines = fixture_lines()
    kinds = {json.loads(line)["event"] for line in lines}
    assert {"match_start", "deal", "action", "hand_end", "match_end"} <= kinds
    round_trips(lines)


def played_record(game, seed, players, undo_at=5):
    """A record of a match of ``game`` with bots, with an undo (to a position the hand had)
    and a resume from a snapshot, as the table writes them."""
    lines = []

    def write(event):
        lines.append(dumps(event))

    match = Match(game, game.Options(), seed=seed, players=players, seats=["random"] * players,
                  names=[f"P{i}" for i in range(players)], on_event=write)
    match.start()
    bots = {s: RandomBot() for s in range(players)}
    snap = None
    n = 0
    while match.to_play is not None:
        seat = match.to_play
        if n == undo_at:
            snap = match.snapshot()
        match.apply(bots[seat].choose(InfoSet.of(game, match.live_state(), seat), match.bot_rng(seat)))
        n += 1
        if n == undo_at + 2 and snap is not None and match.hand_no == snap["hand"]:
            match = Match.from_snapshot(game, snap, on_event=write)
            write(Undo.make(hand=match.hand_no, seat=seat, decisions=match.decisions,
                            state=match.live_state().export()))
        if n == undo_at + 6 and not match.over:
            match = Match.from_snapshot(game, match.snapshot(), on_event=write)
            write(Resume.make(hand=match.hand_no, decisions=match.decisions))
    return lines


@pytest.mark.parametrize("game_id, players", [
    ("casino", 2), ("royal_casino", 4), pytest.param("canasta", 4, marks=pytest.mark.slow),
    ("crazy_eights", 3)])
def test_fresh_records_of_every_game_round_trip_and_replay(game_id, players, crazy_eights):
    registry = load_registry()
    game = crazy_eights if game_id == "crazy_eights" else registry.games[game_id]
    lines = played_record(game, 3, players)
    kinds = [json.loads(line)["event"] for line in lines]
    assert "undo" in kinds and "resume" in kinds and kinds[-1] == "match_end"
    round_trips(lines)
    numbered = parse_record_lines("\n".join(lines), "fresh")
    assert [dumps(e) for e in replay(game, numbered)] == lines


def test_a_record_with_a_bad_line_is_refused_naming_the_line_and_field(crazy_eights):
    lines = played_record(crazy_eights, 4, 2)
    bad = json.loads(lines[3])
    bad["seat"] = "north"
    lines[3] = json.dumps(bad)
    with pytest.raises(RecordError, match=r"^fresh: line 4: seat: Input should be a valid integer"):
        parse_record_lines("\n".join(lines), "fresh")


def test_an_old_match_start_without_later_fields_dumps_as_it_was():
    old = ('{"event":"match_start","match":0,"game":"casino","seed":7,"seats":["greedy","random"],'
           '"options":{"target":21},"version":"0.1.0"}')
    event = parse_event(json.loads(old))
    assert isinstance(event, MatchStart) and start_of(event) is event
    assert event.names is None and event.side_names is None
    assert dumps(event) == old
    # another key order (the session's old save import wrote names after options)
    other = ('{"event":"match_start","match":0,"game":"casino","seed":7,"seats":["human","random"],'
             '"options":{},"names":["A","B"],"side_names":["A","B"]}')
    assert dumps(parse_event(json.loads(other))) == other
    # keys a later version adds are kept, in place
    later = '{"event":"resume","hand":2,"future":[1],"decisions":9}'
    assert dumps(parse_event(json.loads(later))) == later
    with pytest.raises(EventError, match="begins with match_start"):
        start_of(parse_event(json.loads(later)))


def test_made_events_write_what_the_engine_wrote_as_dicts():
    state = {"hands": [["AS"]], "to_play": 0}
    made = Played.make(hand=1, seat=0, action={"card": "AS"}, label="plays A♠", state=state)
    assert made.to_json() == {"event": "action", "hand": 1, "seat": 0, "action": {"card": "AS"},
                              "label": "plays A♠", "state": state}
    assert dumps(made) == ('{"event":"action","hand":1,"seat":0,"action":{"card":"AS"},"label":"plays A♠",'
                           '"state":{"hands":[["AS"]],"to_play":0}}')
    assert made == Played.model_construct(hand=1, seat=0, action={"card": "AS"}, label="plays A♠",
                                          state=state)
    assert parse_event(made.to_json()) == made
    with pytest.raises(TypeError, match="label"):
        Played.make(hand=1, seat=0, action={}, state={})


@pytest.mark.parametrize("data, message", [
    ([1], "not an event (a JSON list"),
    ({"hand": 1}, "event: missing"),
    ({"event": "shuffle"}, "event: 'shuffle' is no kind of event"),
    ({"event": "deal", "hand": "1", "dealer": 0, "state": {}}, "hand: Input should be a valid integer"),
    ({"event": "deal", "hand": 1, "dealer": 0}, "state: Field required"),
    ({"event": "action", "hand": 1, "seat": -1, "action": {}, "label": "", "state": {}}, "seat: "),
    ({"event": "hand_end", "hand": 1, "score": {"sides": 2}, "totals": [0]},
     "score: a score row needs sides"),
    ({"event": "match_start", "seed": 1, "seats": ["a"], "options": {}}, "game: Field required"),
    ({"event": "seat", "seat": 1, "what": "danced", "name": "Ann"}, "what: "),
])
def test_bad_events_are_refused_in_one_line_naming_the_field(data, message):
    with pytest.raises(EventError) as err:
        parse_event(data)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_many_events_name_the_index_of_the_bad_one():
    good = Resume.make(hand=1, decisions=0).to_json()
    assert [e.event for e in parse_events([good, good])] == ["resume", "resume"]
    with pytest.raises(EventError, match=r"^1: decisions: Field required"):
        parse_events([good, {"event": "resume", "hand": 1}])


def test_the_tables_own_events_are_typed_too():
    seat = parse_event({"event": "seat", "seat": 2, "what": "stand_in", "name": "Ann"})
    assert isinstance(seat, SeatChange) and seat.what == "stand_in"
    note = parse_event({"event": "note", "text": "the server went away", "error": True})
    assert isinstance(note, Note) and note.error
    assert Note.make(text="hi", error=False).to_json() == {"event": "note", "text": "hi", "error": False}
    assert "note" not in journal.RECORDED and "seat" in journal.RECORDED  # a seat's name is kept
    named = SeatChange.make(seat=1, what="named", name="Bob")
    assert journal.dumps(named) == '{"event":"seat","seat":1,"what":"named","name":"Bob"}'
    with pytest.raises(journal.EventError, match="name"):
        parse_event({"event": "seat", "seat": 1, "what": "named", "name": "B" * 25})


def test_an_optional_field_left_out_of_make_is_not_written():
    start = dict(match=0, game="casino", seed=1, seats=["human", "greedy"], names=["A", "B"],
                 side_names=["A", "B"], options={}, version="0.1.0")
    assert "first_dealer" not in journal.dumps(journal.MatchStart.make(**start))
    rematch = journal.MatchStart.make(**start, first_dealer=1)
    assert journal.dumps(rematch).endswith(',"version":"0.1.0","first_dealer":1}')
    assert parse_event(rematch.to_json()) == rematch
    with pytest.raises(TypeError, match="seed"):
        journal.MatchStart.make(match=0, game="casino", seats=[], options={})


def test_a_score_row_is_kept_as_the_very_dict_it_was():
    row = {"sides": [{"seats": [0], "items": {"b": 1, "a": 2}, "total": 3, "counts": {"z": 1}}],
           "zeta": 1, "end": "stock"}
    event = parse_event({"event": "hand_end", "hand": 1, "score": row, "totals": [3]})
    assert isinstance(event, HandEnd)
    assert event.score is row
    assert list(event.to_json()["score"]) == ["sides", "zeta", "end"]


def test_a_deal_is_a_deal():
    event = parse_event({"event": "deal", "hand": 1, "dealer": 0, "state": {}})
    assert isinstance(event, Deal) and event.hand == 1
