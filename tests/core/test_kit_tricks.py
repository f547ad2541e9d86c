"""The kit's trick part: follow suit, the winner, loading (errors naming their place), export,
clone, the deck check, the last trick kept until the next lead, and its zones."""

import pytest

from cardcore import StateError
from cardcore.engine.cards import standard_deck
from cardcore.engine.kit import ACE_HIGH, Trick, Tricks, follow, winner
from cardcore_whist.game import Play


def test_follow_suit_when_the_hand_can_else_any_card():
    hand = ["2H", "KS", "AH", "3C"]
    assert follow(hand, "H") == ["2H", "AH"]
    assert follow(hand, "D") == hand  # void in the suit led: any card
    assert follow(hand, None) == hand  # the lead: any card
    assert follow([], "H") == []


def test_the_winner_with_and_without_trumps():
    plays = [(1, "KH"), (2, "AH"), (3, "2S"), (0, "AD")]
    assert winner(plays, None) == 2  # the highest of the suit led; the A♦ is off suit
    assert winner(plays, "D") == 0  # the only trump
    assert winner(plays, "S") == 3  # the two of trumps beats the ace led
    assert winner(plays, "H") == 2  # trumps led: the highest trump
    assert winner([(0, "2C"), (1, "3C")], "S") == 1
    # the game's rank order: briscola's ace, three, king, queen, jack, seven, ..., two
    briscola = ("2", "4", "5", "6", "7", "J", "Q", "K", "3", "A")
    assert winner([(0, "KC"), (1, "3C")], None, briscola) == 1
    assert winner([(0, "KC"), (1, "3C")], None, ACE_HIGH) == 0
    assert winner([(0, "QH"), (1, "QH")], None) == 0  # equal cards: the first played


def test_a_trick_taken_stays_the_last_until_the_next_lead():
    trick = Trick(trump="S")
    for seat, card in [(0, "5H"), (1, "9H"), (2, "2S"), (3, "AH")]:
        trick.play(seat, card)
    assert trick.led == "H" and trick.last is None
    trick.close(winner(trick.plays, trick.trump))
    assert trick.last == (2, ((0, "5H"), (1, "9H"), (2, "2S"), (3, "AH")))
    assert trick.plays == [] and trick.led is None and trick.taken(4) == [0, 0, 1, 0]
    trick.play(2, "KD")  # the next lead: the last trick leaves the table
    assert trick.last is None and trick.led == "D"
    assert trick.done[-1][0] == 2 and trick.cards() == ["5H", "9H", "2S", "AH", "KD"]


def position(**trick):
    """Seat 1 to play to a trick South (0) led, dealer East (3)."""
    return {"game": "whist", "players": 4, "dealer": 3, "to_play": 1,
            "hands": [["2C"], ["3H", "AS", "KH"], ["4D"], ["5D"]],
            "trick": {"plays": [[0, "QH"]], "done": [], "trump": "S", **trick}}


def test_the_part_loads_exports_and_the_view_shows_it_all(whist):
    state = whist.state_from_json(position())
    assert state.trick == Trick([(0, "QH")], [], "S")
    assert state.export()["trick"] == {"plays": [[0, "QH"]], "done": [], "trump": "S"}
    for seat in (0, 1, 2, 3, None):  # public: every seat and the spectator see the trick
        assert state.view(seat)["trick"] == state.export()["trick"]
    assert [a.label for a in state.legal_actions()] == ["Play 3♥", "Play K♥"]


@pytest.mark.parametrize(("trick", "words", "path"), [
    ({"plays": "QH"}, "trick.plays: a list of [seat, card]", ("trick", "plays")),
    ({"plays": [[0, "ZZ"]]}, "trick.plays[0]: not a card", ("trick", "plays", 0)),
    ({"plays": [[True, "QH"]]}, "trick.plays[0]: a seat number", ("trick", "plays", 0)),
    ({"plays": [[7, "QH"]]}, "trick.plays: no seat 7 at a table of 4", ("trick", "plays")),
    ({"trump": "X"}, "trick.trump: 'X' is not a suit", ("trick", "trump")),
    ({"colour": 1}, "trick: no field 'colour'", ("trick",)),
    ({"done": [{"winner": 0, "plays": [[0, "AC"], [1, "KC"]]}]},
     "trick.done[0]: a trick taken holds 2 cards, not 4", ("trick", "done", 0)),
    ({"done": [{"winner": 3, "plays": [[0, "AC"], [1, "KC"], [2, "QC"], [0, "JC"]]}]},
     "trick.done[0]: a seat plays twice", ("trick", "done", 0)),
    ({"done": [{"winner": 2, "plays": [[0, "AC"], [1, "KC"], [2, "QC"]]}, 5]},
     "trick.done[1]: an object with winner and plays", ("trick", "done", 1)),
    ({"plays": [[0, "QH"], [1, "AS"], [2, "4D"], [3, "5D"]]},
     "trick.plays: a full trick is taken", ("trick", "plays")),
    ({"plays": [[0, "QH"], [1, "QH"]]}, "cards: QH appears 2 times", ("cards",)),
])
def test_loading_refuses_with_the_place_at_fault(whist, trick, words, path):
    with pytest.raises(StateError, match=words.replace("[", r"\[").replace(".", r"\.")) as caught:
        whist.state_from_json(position(**trick))
    assert caught.value.path == path


def test_a_strict_load_wants_every_field_and_counts_the_tricks_cards(whist):
    state = whist.new_hand(whist.seating(4, whist.Options(), dealer=3), whist.Options(),
                           __import__("random").Random(5), [0, 0])
    for _ in range(6):  # a trick taken and two cards of the next
        state.apply(state.legal_actions()[0])
    data = state.export()
    assert len(data["trick"]["done"]) == 1 and len(data["trick"]["plays"]) == 2
    assert whist.state_from_json(data, strict=True).export() == data  # the deck is whole
    for field in ("plays", "done", "trump"):
        cut = {**data, "trick": {k: v for k, v in data["trick"].items() if k != field}}
        with pytest.raises(StateError, match=f"trick: {field} missing") as caught:
            whist.state_from_json(cut, strict=True)
        assert caught.value.path == ("trick", field)
    played = data["trick"]["done"][0]["plays"][0][1]
    doubled = {**data, "hands": [data["hands"][0] + [played], *data["hands"][1:]]}
    with pytest.raises(StateError, match=f"cards: {played} appears 2 times"):
        whist.state_from_json(doubled)
    assert sorted(state.all_cards()) == sorted(standard_deck())


def test_a_clone_shares_no_list(whist):
    state = whist.state_from_json(position())
    twin = state.clone()
    before = state.export()
    twin.apply(Play("KH"))
    twin.trick.play(2, "4D")
    twin.trick.done.append((0, ()))
    assert state.export() == before and state.trick.plays == [(0, "QH")] and state.trick.done == []


def test_the_table_shows_who_played_what_the_lead_the_trumps_and_who_took_it(whist):
    state = whist.state_from_json(position(plays=[[0, "QH"], [1, "3H"], [2, "4D"]])
                                   | {"to_play": 3, "hands": [["2C"], ["AS", "KH"], [], ["5D"]]})
    trick, *taken = state.zones(0)[4:]
    assert (trick.id, trick.kind, trick.title, trick.seat) == ("trick", "trick", "Trick 1", None)
    assert trick.badges == ["led ♥", "trump ♠"]
    assert [(g.id, g.cards, g.seat) for g in trick.groups] == [
        ("trick-0", ["QH"], 0), ("trick-1", ["3H"], 1), ("trick-2", ["4D"], 2)]
    assert [(z.id, z.side, z.badges) for z in taken] == [("trick-taken-0", 0, ["0 tricks"]),
                                                         ("trick-taken-1", 1, ["0 tricks"])]
    state.apply(Play("5D"))  # East's card: South's queen takes it
    trick, *taken = state.zones(0)[4:]
    assert (trick.title, trick.seat, trick.badges) == ("Trick 1", 0, ["led ♥", "trump ♠"])
    assert [g.cards[0] for g in trick.groups] == ["QH", "3H", "4D", "5D"]
    assert [z.badges for z in taken] == [["1 tricks"], ["0 tricks"]]
    state.apply(Play("2C"))  # South leads again: the last trick gives way to the new one
    trick = state.zones(0)[4]
    assert (trick.title, trick.seat, trick.badges) == ("Trick 2", None, ["led ♣", "trump ♠"])
    assert [(g.cards, g.seat) for g in trick.groups] == [(["2C"], 0)]


def test_a_tricks_part_is_one_for_the_table():
    with pytest.raises(ValueError, match="one for the table"):
        Tricks(per="seat")
