"""export / state_from_json / view / zones / determinize / actions of the fishing games."""

import json
import random

import pytest

from cardcore.engine.cards import CardError, standard_deck
from cardcore.engine.game import IllegalAction, StateError
from cardcore.engine.seating import Seating
from cardcore_casino.moves import trail
from cardcore_casino.rules import ID

from .helpers import CASINO, GAMES, ROYAL, as_json, legal, load, play

POSITION = {
    "hands": [["AS", "10D"], ["5H", "8S"]],
    "table": {"loose": ["5C", "3H"],
              "builds": [{"value": 8, "owner": 1, "groups": [["2H", "6S"], ["8C"]]}]},
    "to_play": 0,
}


def fresh(game_id, players=2, seed=1):
    game = GAMES[game_id]
    opts = game.Options()
    seating = Seating(players, dealer=0, direction=game.direction(opts), partnerships=players == 4)
    return game.new_hand(seating, opts, random.Random(seed), [0] * (2 if players == 4 else players))


def test_export_has_exactly_the_design_shape(game_id):
    data = load(game_id, **POSITION).export()
    assert list(data) == ["game", "players", "dealer", "to_play", "hands", "table", "captured",
                          "sweeps", "stock", "last_capture", "totals_before", "options"]
    assert data["game"] == game_id and data["players"] == 2 and data["to_play"] == 0
    assert data["table"] == POSITION["table"]
    assert data["captured"] == [[], []] and data["sweeps"] == [0, 0] and data["stock"] == []
    assert data["last_capture"] is None and data["totals_before"] == [0, 0]
    assert data["options"] == GAMES[game_id].Options().model_dump(mode="json")
    json.dumps(data)


def test_export_round_trips_exactly_through_state_from_json(game_id):
    state = fresh(game_id, 3)
    rng = random.Random(2)
    while not state.is_over:
        data = state.export()
        assert GAMES[game_id].state_from_json(json.loads(json.dumps(data))).export() == data
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
    data = state.export()
    assert GAMES[game_id].state_from_json(data).export() == data


@pytest.mark.parametrize("bad,error", [
    ({"hands": [["AS", "XX"], ["5H"]]}, CardError),
    ({"hands": [["AS", "JK"], ["5H"]]}, CardError),
    ({"hands": [["AS", "5H"], ["5H"]]}, CardError),               # a card twice
    ({"hands": [["AS"], ["5H"]], "table": {"loose": ["AS"]}}, CardError),
    ({"hands": [["AS"]]}, StateError),                             # one player
    ({"hands": [["AS"], ["5H"]], "players": 3}, StateError),
    ({"hands": [["AS"], ["5H"]], "to_play": 5}, StateError),
    ({"hands": [[], ["5H"]], "to_play": 0}, StateError),          # to play with no card
    ({"hands": [["AS"], ["5H"]], "to_play": None}, StateError),   # over, cards in hands
    ({"hands": [["AS"], ["5H"]], "stock": ["2C"]}, StateError),   # not whole deals
    ({"hands": [["AS"], ["5H"]], "options": {"nonsense": 1}}, StateError),
    ({"hands": [["AS"], ["5H"]], "game": "canasta"}, StateError),
    ({"hands": [["AS"], ["5H"]], "sweeps": [1]}, StateError),
    ({"hands": [["8S"], ["5H"]], "table": {"builds": [
        {"value": 9, "owner": 0, "groups": [["2H", "6S"]]}]}}, StateError),  # 2+6 is not 9
    ({"hands": [["8S"], ["5H"]], "table": {"builds": [
        {"value": 8, "owner": 1, "groups": [["2H", "6S"]]}]}}, StateError),  # owner holds no 8
    ({"hands": [["8S"], ["5H"]], "table": {"builds": [
        {"value": 8, "owner": 0, "groups": [["8H"]]}]}}, StateError),        # one card
    ({"hands": [["8S"], ["5H"]], "table": {"builds": [
        {"value": 15, "owner": 0, "groups": [["8H", "7C"]]}]}}, StateError),
])
def test_state_from_json_rejects_impossible_data(game_id, bad, error):
    with pytest.raises(error) as info:
        GAMES[game_id].state_from_json(bad)
    assert str(info.value)
    assert issubclass(error, ValueError)


def test_casino_court_cards_never_build_in_a_loaded_state():
    with pytest.raises(StateError, match="court"):
        CASINO.state_from_json({"hands": [["KS"], ["5H"]], "table": {"builds": [
            {"value": 10, "owner": 0, "groups": [["QH"], ["KH"]]}]}})


def test_partial_export_takes_defaults_and_the_leader_to_play():
    s = CASINO.state_from_json({"hands": [["AS"], ["5H"], ["6D"]], "dealer": 1})
    data = s.export()
    assert data["to_play"] == 2 and data["captured"] == [[], [], []]
    assert data["totals_before"] == [0, 0, 0]
    s = ROYAL.state_from_json({"hands": [["AS"], ["5H"], ["6D"]], "dealer": 1})
    assert s.to_play == 0


def test_parsing_accepts_any_case_and_t_for_ten():
    s = CASINO.state_from_json({"hands": [["as", "td"], ["5h"]], "to_play": 0})
    assert s.export()["hands"] == [["AS", "10D"], ["5H"]]


def test_view_hides_other_hands_and_the_stock_keeping_lengths(game_id):
    state = fresh(game_id, 4)
    data = state.export()
    view = state.view(1)
    assert view["hands"][1] == data["hands"][1]
    for s in (0, 2, 3):  # the partner's hand is hidden too
        assert view["hands"][s] == [None] * len(data["hands"][s])
    assert view["stock"] == [None] * len(data["stock"])
    assert view["table"] == data["table"] and view["captured"] == data["captured"]


def test_the_spectators_view_hides_every_hand_and_the_stock_the_rest_public(game_id):
    for players in (2, 3, 4):
        state = fresh(game_id, players)
        state.apply(state.legal_actions()[0])
        data = state.export()
        view = state.view(None)
        assert view["hands"] == [[None] * len(h) for h in data["hands"]]
        assert view["stock"] == [None] * len(data["stock"])
        rest = {k: v for k, v in data.items() if k not in ("hands", "stock")}
        assert {k: v for k, v in view.items() if k not in ("hands", "stock")} == rest
        # the open table (zones(None)) still shows every card
        hand_zones = [z for z in state.zones(None) if z.id.startswith("hand-")]
        assert [z.cards for z in hand_zones] == data["hands"]


def test_view_hides_hands_after_the_hand_is_over_too():
    s = load("casino", hands=[["5D"], ["KC"]], table={"loose": ["5H"]}, to_play=0)
    play(s, "capture 5D: 5H")
    play(s, "trail KC")
    assert s.is_over and s.view(0)["hands"] == [[], []]


def test_zones_builds_with_value_multiple_and_owner(game_id):
    s = load(game_id, **POSITION)
    zones = {z.id: z for z in s.zones(0)}
    assert set(zones) == {"stock", "table", "hand-0", "hand-1", "captured-0", "captured-1"}
    table = zones["table"]
    assert table.cards == ["5C", "3H"]
    (build,) = table.groups
    assert build.id == "build-0" and build.cards == ["2H", "6S", "8C"]
    assert build.badges == ["8", "multiple"] and build.seat == 1
    assert zones["hand-0"].cards == ["AS", "10D"] and zones["hand-1"].cards == [None, None]
    assert zones["hand-1"].seat == 1 and zones["hand-1"].side == 1
    assert zones["captured-0"].badges[:3] == ["cards 0", "spades 0", "sweeps 0"]
    assert all(c is not None for z in s.zones(None) for c in z.cards)


def test_capture_pile_zones_count_cards_and_sweeps():
    s = load("casino", hands=[["10H", "2D"], ["4C", "6C"]],
             table={"loose": ["AC", "2S", "3S", "4H"]}, to_play=0)
    play(s, "capture 10H: AC 2S 3S 4H")
    pile = next(z for z in s.zones(1) if z.id == "captured-0")
    assert pile.badges[:3] == ["cards 5", "spades 2", "sweeps 1"]
    assert "last capture" in pile.badges


@pytest.mark.parametrize("game_id", ["casino", "royal_casino"])
def test_d19_partners_captures_are_one_zone_per_side(game_id):
    s = load(game_id, hands=[["10H", "2D"], ["4C", "6C"], ["9D", "5C"], ["KD", "7C"]],
             captured=[["3S"], ["8S", "8H"], ["AC", "JS"], []], sweeps=[0, 0, 1, 0],
             table={"loose": ["4H"]}, to_play=0, last_capture=2)
    zones = {z.id: z for z in s.zones(0)}
    assert not any(z.startswith("captured-") and not z.startswith("captured-side-") for z in zones)
    mine, theirs = zones["captured-side-0"], zones["captured-side-1"]
    assert mine.side == 0 and mine.seat is None and mine.cards == ["3S", "AC", "JS"]
    assert mine.badges == ["cards 3", "spades 2", "sweeps 1", "last capture"]
    assert theirs.cards == ["8S", "8H"] and theirs.badges == ["cards 2", "spades 1", "sweeps 0"]


def test_action_json_sorted_labels_targets_and_hand_cards():
    s = load("casino", hands=[["8D", "10S"], ["8H", "KD"]],
             table={"loose": ["5S", "3H", "10C", "2C"],
                    "builds": [{"value": 8, "owner": 1, "groups": [["2H", "6S"]]}]}, to_play=0)
    by_json = {json.dumps(a.to_json()): a for a in s.legal_actions()}
    capture = by_json[json.dumps({"type": "capture", "card": "8D",
                                  "taken": ["2H", "3H", "5S", "6S"]})]
    assert capture.label == "Capture 2♥ 3♥ 5♠ 6♠ with 8♦"
    assert capture.targets == ("table", "build-0") and capture.hand_cards == ("8D",)
    only_build = by_json[json.dumps({"type": "capture", "card": "8D", "taken": ["2H", "6S"]})]
    assert only_build.targets == ("build-0",)
    trail = by_json[json.dumps({"type": "trail", "card": "10S"})]
    assert trail.label == "Trail 10♠" and trail.targets == ("table",)
    for a in s.legal_actions():
        data = a.to_json()
        cards = data.get("taken") or data.get("used") or []
        assert cards == sorted(cards)


def test_build_labels_new_raise_add():
    s = load("casino", hands=[["3D", "9H", "AC", "8S"], ["6C", "KD"]],
             table={"loose": ["5C", "2S"],
                    "builds": [{"value": 6, "owner": 1, "groups": [["2H", "4S"]]}]}, to_play=0)
    labels = {a.label for a in s.legal_actions()}
    assert "Build 8: 3♦ on 5♣" in labels
    assert "Raise to 9: 3♦ on 2♥ 4♠" in labels
    s = load("casino", hands=[["8D", "8S"], ["8H", "KD"]],
             table={"builds": [{"value": 8, "owner": 1, "groups": [["2H", "6S"]]}]}, to_play=0)
    assert "Add to 8: 8♦ on 2♥ 6♠" in {a.label for a in s.legal_actions()}


def test_action_from_json_accepts_any_order_and_case_of_cards(game_id):
    s = load(game_id, hands=[["8D"], ["2C"]], table={"loose": ["3H", "5S", "8C"]}, to_play=0)
    a = GAMES[game_id].action_from_json(
        s, {"type": "capture", "card": "8d", "taken": ["8C", "5S", "3h"]})
    assert a.to_json() == {"type": "capture", "card": "8D", "taken": ["3H", "5S", "8C"]}
    with pytest.raises(IllegalAction):
        GAMES[game_id].action_from_json(s, {"type": "capture", "card": "8D", "taken": ["3H"]})


def test_equal_json_is_one_action_listed_once_in_a_fixed_order():
    s = load("casino", **POSITION)
    first = [a.to_json() for a in s.legal_actions()]
    again = [a.to_json() for a in CASINO.state_from_json(s.export()).legal_actions()]
    assert first == again
    assert len({json.dumps(j, sort_keys=True) for j in first}) == len(first)


def test_illegal_action_is_refused_with_a_reason_and_changes_nothing(game_id):
    s = load(game_id, hands=[["8C", "5D"], ["KD"]],
             table={"loose": ["5H"], "builds": [{"value": 8, "owner": 0,
                                                  "groups": [["2H", "6S"]]}]}, to_play=0)
    before = s.export()
    trail = load(game_id, hands=[["8C"], ["KD"]], to_play=0).legal_actions()[0]
    with pytest.raises(IllegalAction, match="owner of a build may not trail"):
        s.apply(trail)
    assert s.export() == before
    with pytest.raises(IllegalAction, match="not in the hand"):
        s.apply(GAMES[game_id].action_from_json(
            load(game_id, hands=[["9C"], ["KD"]], to_play=0), as_json("trail 9C")))
    assert s.export() == before


def test_clone_is_independent(game_id):
    s = fresh(game_id, 2)
    twin = s.clone()
    before = s.export()
    twin.apply(twin.legal_actions()[0])
    assert s.export() == before and twin.export() != before


def test_determinize_keeps_the_view_and_every_owner_holding_its_card(game_id):
    s = load(game_id, hands=[["8C", "KS", "QH"], ["3D", "9H", "4C"]],
             table={"loose": ["5H"], "builds": [{"value": 8, "owner": 0,
                                                  "groups": [["2H", "6S"]]}]},
             stock=["2D", "3C", "4D", "5D", "6D", "7D", "9D", "10H"], to_play=1)
    rng = random.Random(4)
    for _ in range(200):
        sample = s.determinize(1, rng)
        assert sample.view(1) == s.view(1)
        assert any(c.startswith("8") for c in sample.export()["hands"][0])
        assert sorted(sample.export()["hands"][0] + sample.export()["stock"]) == sorted(
            s.export()["hands"][0] + s.export()["stock"])


def test_rules_text_describes_the_options_in_play():
    text = CASINO.rules(CASINO.Options())
    assert "exactly one loose court card" in text and "packets of two" in text
    assert "may still be trailed" in text and "target is 21" in text
    text = CASINO.rules(CASINO.Options(court_cards_take_all=True, deal_in_twos=False,
                                       may_trail_capturing_card=False, sweeps=False, target=11))
    assert "every loose card of its rank" in text and "one card at a time" in text
    assert "may not be trailed" in text and "do not score" in text and "target is 11" in text
    text = ROYAL.rules(ROYAL.Options())
    assert "counter-clockwise" in text and "1 or 14" in text and "highest build is 14" in text
    assert ("starting a hand on 18 scores only most cards, on 19 only big casino, on 20 only "
            "little casino") in text
    assert "highest build is 13" in ROYAL.rules(ROYAL.Options(ace_fourteen=False))


def test_game_attributes():
    for game, gid in ((CASINO, "casino"), (ROYAL, "royal_casino")):
        assert game.id == gid and game.name and game.description
        assert "\n" not in game.description
        assert set(game.Options.model_fields) >= {"target", "direction", "sweeps"}
    assert set(CASINO.Options.model_fields) == {
        "target", "court_cards_take_all", "direction", "deal_in_twos",
        "may_trail_capturing_card", "sweeps"}
    assert set(ROYAL.Options.model_fields) == {"target", "ace_fourteen", "direction", "sweeps"}
    assert CASINO.Options().model_dump() == {
        "target": 21, "court_cards_take_all": False, "direction": "clockwise",
        "deal_in_twos": True, "may_trail_capturing_card": True, "sweeps": True}
    assert ROYAL.Options().model_dump() == {
        "target": 21, "ace_fourteen": True, "direction": "counter_clockwise", "sweeps": True}


def test_legal_cache_is_dropped_after_apply(game_id):
    s = load(game_id, hands=[["7H", "2D"], ["3C", "3D"]], table={"loose": ["7C"]}, to_play=0)
    assert "capture 7H: 7C" in legal(s)
    play(s, "capture 7H: 7C")
    assert all(a.to_json()["card"] in ("3C", "3D") for a in s.legal_actions())


def test_a_callers_list_of_legal_actions_is_its_own(game_id):
    s = load(game_id, hands=[["7H", "2D"], ["3C", "3D"]], table={"loose": ["7C"]}, to_play=0)
    mine = s.legal_actions()
    first = mine[0]
    mine.clear()
    assert s.legal_actions()[0] == first
    s.apply(first)


def test_log_line_names_the_sweep(game_id):
    s = load(game_id, hands=[["10H", "2D"], ["4C", "6C"]],
             table={"loose": ["AC", "2S", "3S", "4H"]}, to_play=0)
    sweep = CASINO.action_from_json(s, as_json("capture 10H: AC 2S 3S 4H")) if game_id == \
        "casino" else ROYAL.action_from_json(s, as_json("capture 10H: AC 2S 3S 4H"))
    assert s.log_line(sweep) == "Capture A♣ 2♠ 3♠ 4♥ with 10♥ — sweep"


def test_labels_read_as_design_writes_them(game_id):
    s = load(game_id, hands=[["8D", "3D", "9C", "5H"], ["6C", "KD"]],
             table={"loose": ["3H", "5S", "5C"],
                    "builds": [{"value": 6, "owner": 1, "groups": [["2H", "4S"]]}]}, to_play=0)
    labels = {a.label for a in s.legal_actions()}
    assert {"Capture 3♥ 5♠ with 8♦", "Build 8: 3♦ on 5♣", "Raise to 9: 3♦ on 2♥ 4♠",
            "Trail 9♣"} <= labels
    s = load(game_id, hands=[["5H"], ["KD"]], to_play=0)
    assert [a.label for a in s.legal_actions()] == ["Trail 5♥"]


def test_design_capture_json_lists_a_build_whole_and_sorted(game_id):
    s = load(game_id, hands=[["9D"], ["9S", "KD"]],
             table={"loose": ["4S", "5H"],
                    "builds": [{"value": 9, "owner": 1, "groups": [["7C", "2H"], ["9H"]]}]},
             to_play=0)
    got = {json.dumps(a.to_json()) for a in s.legal_actions()}
    assert json.dumps({"type": "capture", "card": "9D", "taken": ["2H", "7C", "9H"]}) in got
    assert json.dumps({"type": "capture", "card": "9D",
                       "taken": ["2H", "4S", "5H", "7C", "9H"]}) in got


def test_docs_rules_casino_is_the_text_the_engine_plays_by():
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "rules-casino.md").read_text()

    def demoted(text):
        return "\n".join("#" + line if line.startswith("#") else line
                         for line in text.splitlines())

    for game in (CASINO, ROYAL):
        assert demoted(game.rules(game.Options())) in doc


@pytest.mark.parametrize("bad,field", [
    ({"hands": [["AS"], ["5H"]], "to_play": True}, "to_play"),
    ({"hands": [["AS"], ["5H"]], "to_play": 1.0}, "to_play"),
    ({"hands": [["AS"], ["5H"]], "players": "2"}, "players"),
    ({"hands": [["AS"], ["5H"]], "sweeps": [1.0, 0]}, "sweeps[0]"),
    ({"hands": [["AS"], ["5H"]], "totals_before": [0, False]}, "totals_before[1]"),
    ({"hands": [["AS"], [5]]}, "hands[1][0]"),
    ({"hands": [["AS"], ["XX"]]}, "hands[1]"),
    ({"hands": 3}, "hands"),
    ({}, "hands"),
    ({"hands": [["AS"], ["5H"]], "table": []}, "table"),
    ({"hands": [["AS"], ["5H"]], "table": {"loose": None}}, "table.loose"),
    ({"hands": [["8S"], ["5H"]], "table": {"builds": [{"value": "8", "owner": 0,
                                                        "groups": [["2H", "6S"]]}]}},
     "table.builds[0].value"),
    ({"hands": [["8S"], ["5H"]], "table": {"builds": [{"value": 8, "owner": 0}]}},
     "table.builds[0].groups"),
    ({"hands": [["8S"], ["5H"]], "table": {"builds": [{"value": 8, "owner": 0,
                                                        "groups": [["2H", 6]]}]}},
     "table.builds[0].groups[0][1]"),
    ({"hands": [["8S"], ["5H"]], "table": {"builds": [{"value": 8, "owner": 7,
                                                        "groups": [["2H", "6S"]]}]}},
     "table.builds[0].owner"),
    ({"hands": [["AS"], ["5H"]], "captured": [[]]}, "captured"),
    ({"hands": [["AS"], ["5H"]], "last_capture": 2}, "last_capture"),
    ({"hands": [["AS"], ["5H"]], "options": {"target": 0}}, "options"),
])
def test_state_from_json_names_the_field_and_raises_only_state_errors(game_id, bad, field):
    with pytest.raises(StateError) as info:
        GAMES[game_id].state_from_json(bad)
    assert str(info.value).startswith(field + ":")


def whole_deck_position(game_id, hand_sizes, to_play):
    """A position holding the whole deck: hands of the given sizes, the rest in the piles;
    every field written (strict loading wants them all)."""
    deck = sorted(standard_deck())
    hands = [[deck.pop() for _ in range(k)] for k in hand_sizes]
    n = len(hand_sizes)
    options = GAMES[game_id].Options()
    sides = GAMES[game_id].seating(n, options).sides
    return {"game": game_id, "players": n, "dealer": 0, "to_play": to_play, "hands": hands,
            "table": {"loose": [], "builds": []}, "captured": [deck] + [[] for _ in range(n - 1)],
            "sweeps": [0] * n, "stock": [], "last_capture": None, "totals_before": [0] * sides,
            "options": options.model_dump(mode="json")}


def test_strict_loading_wants_the_whole_deck_and_hand_sizes_play_can_reach(game_id):
    game = GAMES[game_id]
    leader = game.seating(4, game.Options(), dealer=0).leader  # 1, or 3 counter-clockwise
    order = game.seating(4, game.Options(), dealer=0).deal_order()
    sizes = [0] * 4
    for i, s in enumerate(order):
        sizes[s] = 3 if i < 2 else 4  # the first two in deal order have played
    good = whole_deck_position(game_id, sizes, order[2])
    assert game.state_from_json(good, strict=True).export()["hands"] == good["hands"]
    # the same hands with another seat to play cannot happen
    with pytest.raises(StateError, match="hands"):
        game.state_from_json({**good, "to_play": order[3]}, strict=True)
    for sizes in ([4, 4, 4, 5], [4, 2, 4, 4], [5, 5, 5, 5]):
        bad = whole_deck_position(game_id, sizes, leader)
        with pytest.raises(StateError, match="hands"):
            game.state_from_json(bad, strict=True)
    # a card short of the deck: fine as a partial position, refused when strict
    short = whole_deck_position(game_id, [4, 4, 4, 4], leader)
    short["captured"][0] = short["captured"][0][1:]
    assert game.state_from_json(short).to_play == leader
    with pytest.raises(StateError, match="missing"):
        game.state_from_json(short, strict=True)
    # every key: a partial position loads, but not strictly
    for key in ("players", "table", "sweeps", "stock", "last_capture", "totals_before"):
        partial = {k: v for k, v in good.items() if k != key}
        assert game.state_from_json(partial).export() == game.state_from_json(good).export()
        with pytest.raises(StateError, match=f"^{key}: missing") as refused:
            game.state_from_json(partial, strict=True)
        assert refused.value.path == (key,)


def test_strict_loading_takes_every_position_of_play(game_id):
    for players in (2, 3, 4):
        state = fresh(game_id, players)
        rng = random.Random(players)
        while True:
            data = state.export()
            assert GAMES[game_id].state_from_json(data, strict=True).export() == data
            if state.is_over:
                break
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])


def test_a_long_listing_is_applied_from_clones_that_share_its_index(game_id):
    # twelve small loose cards: far more actions than the identity scan is for (state.KEYED);
    # a listed action found by its id, another by its key, a foreign one refused
    loose = ["AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C"]
    s = load(game_id, hands=[["9H", "8D"], ["4C", "5C"]], table={"loose": loose}, to_play=0)
    listed = s.legal_actions()
    assert len(listed) > 48
    other = s.clone()
    move = as_json("capture 9H: AS AH AD 3S 3H")
    before = other.export()
    with pytest.raises(IllegalAction):
        other.apply(trail(ID["4C"]))  # a card of the other hand
    assert other.export() == before
    play(other, "capture 9H: AS AH AD 3S 3H")
    third = s.clone()
    twin = load(game_id, hands=[["9H", "8D"], ["4C", "5C"]], table={"loose": loose}, to_play=0)
    equal = next(a for a in twin.legal_actions() if a.to_json() == move)  # not a listed object
    third.apply(equal)
    s.apply(GAMES[game_id].action_from_json(s, move))
    assert s.export() == other.export() == third.export()
    assert sorted(s.captured[0]) == sorted(other.captured[0]) and len(s.loose) == 7


def test_actions_cross_to_a_worker_process_and_back_equal(game_id):
    # a search's worker process gets its actions pickled; a crowded table's keep a mask
    # over its loose cards (their key is made when read)
    import pickle

    loose = ["AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C"]
    for table in (["5S", "2H"], loose):
        s = load(game_id, hands=[["9H", "7D"], ["4C", "5C"]], table={"loose": table}, to_play=0)
        for action in s.legal_actions():
            back = pickle.loads(pickle.dumps(action))
            assert back == action and back.key == action.key and back.to_json() == action.to_json()
