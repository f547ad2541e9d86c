"""The protocol's models and the conversions both ends share (no sockets here)."""

from __future__ import annotations

import json

import pytest

from cardcore.engine.bots.base import hidden_places
from cardcore.engine.match import Match
from cardcore.services.net import protocol
from cardcore.services.net.protocol import ERROR_CODES, MAX_MESSAGE_BYTES, ProtocolError, decode, encode
from cardcore.services.net.wire import RemoteAction, action_json, info_of_view, zone_from_json, zone_json
from cardcore.services.plugins import load_registry


@pytest.mark.parametrize(("raw", "code"), [
    ("{", "bad_json"),
    ("[]", "bad_json"),
    ("null", "bad_json"),
    ('{"v": 1}', "bad_field"),
    ('{"v": 2, "type": "hello"}', "bad_version"),
    ('{"v": "1", "type": "hello"}', "bad_version"),
    ('{"v": 1, "type": "fly"}', "unknown_type"),
    ('{"v": 1, "type": "hello", "admin": true}', "bad_field"),
    ('{"v": 1, "type": "join", "code": "abc-123", "secret": "s"}', "bad_field"),
    ('{"v": 1, "type": "act", "code": "ABC-123", "action": [], "turn": 1}', "bad_field"),
    ('{"v": 1, "type": "act", "code": "ABC-123", "action": {}, "turn": 1.5}', "bad_field"),
    ('{"v": 1, "type": "act", "code": "ABC-123", "action": {}, "turn": true}', "bad_field"),
    ('{"v": 1, "type": "chat", "code": "ABC-123", "text": ""}', "bad_field"),
    ('{"v": 1, "type": "chat", "code": "ABC-123", "text": "a\\u202eb"}', "bad_field"),
    ('{"v": 1, "type": "create_table", "game": "casino", "seats": ["human"]}', "bad_field"),
    ('{"v": 1, "type": "hello", "name": "x\\ny"}', "bad_field"),
    ("[" * 5000 + "]" * 5000, "bad_json"),
    ('{"v": 1, "type": "chat", "code": "ABC-123", "text": "' + "x" * MAX_MESSAGE_BYTES + '"}', "too_big"),
])
def test_bad_frames_are_one_line_errors_with_a_code(raw, code):
    with pytest.raises(ProtocolError) as err:
        decode(raw)
    assert err.value.code == code and err.value.code in ERROR_CODES
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


def test_every_client_message_decodes_as_sent():
    messages = [
        protocol.Hello(name="Ann", id=1), protocol.ListTables(), protocol.Leave(code="KQX-482"),
        protocol.CreateTable(game="canasta", options={"target": 100}, seats=["human", "greedy"] * 2,
                             names=["A", "B", "C", "D"], seed=7),
        protocol.Join(code="KQX-482", invite="s3cret", name="Bo"), protocol.Watch(code="KQX-482"),
        protocol.Act(code="KQX-482", action={"type": "draw"}, turn=12),
        protocol.Chat(code="KQX-482", text="gg ♥"),
    ]
    for message in messages:
        assert decode(encode(message)) == message
    assert decode('{"type": "hello"}') == protocol.Hello()  # "v" may be left out: it means 1


def test_server_messages_decode_as_a_client_reads_them():
    error = protocol.error("stale", "turn 3\nis past", 4)
    assert decode(encode(error), sent_by="server") == protocol.ErrorMessage(code="stale",
                                                                             message="turn 3 is past", id=4)
    with pytest.raises(ProtocolError) as err:
        decode('{"v": 1, "type": "update"}', sent_by="server")
    assert err.value.code == "bad_field"


@pytest.mark.parametrize(("game_id", "players"), [("casino", 2), ("royal_casino", 4), ("canasta", 4)])
def test_zones_and_actions_cross_the_wire_unchanged(game_id, players):
    game = load_registry().games[game_id]
    match = Match(game, seats=["human"] * players, seed=3)
    match.start()
    for _ in range(6):
        state = match.state
        seat = state.to_play
        zones = state.zones(seat)
        assert [zone_from_json(json.loads(json.dumps(zone_json(z)))) for z in zones] == zones
        actions = state.legal_actions()
        remote = [RemoteAction.from_json(json.loads(json.dumps(action_json(a)))) for a in actions]
        assert [(r.to_json(), r.label, r.hand_cards, r.table_cards, r.targets, r.step) for r in remote] == \
            [(a.to_json(), a.label, a.hand_cards, a.table_cards, a.targets, a.step) for a in actions]
        assert len(set(remote)) == len(remote)
        assert remote[0] == RemoteAction.from_json(action_json(actions[0]))
        # a client's bot reads the view alone and finds the same legal actions
        info = info_of_view(game, seat, json.loads(json.dumps(state.view(seat))))
        assert [a.to_json() for a in info.legal_actions()] == [a.to_json() for a in actions]
        assert sum(info._unseen.values()) == len(hidden_places(state.view(seat)))
        match.apply(actions[-1])

