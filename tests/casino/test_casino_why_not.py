"""Why a card has no trail (``why_not``): the owner of a build (D12), Royal Casino's
matching value (D11), casino's "no trailing a capturing card" option (D11)."""

import pytest

from .helpers import CASINO, GAMES, ROYAL, legal


@pytest.mark.parametrize("game_id", ["casino", "royal_casino"])
def test_d12_the_owner_of_a_build_has_no_trail_and_is_told_why(game_id):
    s = GAMES[game_id].state_from_json({
        "hands": [["8C", "5D"], ["KD"]], "to_play": 0,
        "table": {"loose": ["4H"], "builds": [{"value": 8, "owner": 0, "groups": [["2H", "6S"]]}]}})
    assert not any(t.startswith("trail") for t in legal(s))
    assert s.why_not("5D") == "the owner of a build may not trail: you own the 8"
    assert s.why_not("8C") == s.why_not("5D")
    assert s.why_not("9C") is None  # not in the hand


def test_d12_a_build_someone_else_owns_binds_nobody_else():
    s = CASINO.state_from_json({
        "hands": [["8C", "5D"], ["8D"]], "to_play": 0,
        "table": {"loose": ["4H"], "builds": [{"value": 8, "owner": 1, "groups": [["2H", "6S"]]}]}})
    assert {"trail 5D", "trail 8C"} <= legal(s)
    assert s.why_not("5D") is None


def test_d11_royal_casino_no_trail_onto_a_loose_card_of_the_same_value():
    s = ROYAL.state_from_json({"hands": [["QC", "5D", "AS"], ["KD"]], "to_play": 0,
                               "table": {"loose": ["QH", "4S", "AD"], "builds": []}})
    assert legal(s) >= {"trail 5D"} and not legal(s) & {"trail QC", "trail AS"}
    assert s.why_not("QC") == "a card of a loose card's value may not be trailed: Q♥ is loose"
    assert s.why_not("AS") == "a card of a loose card's value may not be trailed: A♦ is loose"
    assert s.why_not("5D") is None  # 5 matches no loose card (4 + ... is a capture, not a match)
    # casino lets the same cards trail
    c = CASINO.state_from_json({**s.export(), "game": "casino",
                                "options": CASINO.Options().model_dump(mode="json")})
    assert {"trail QC", "trail AS"} <= legal(c) and c.why_not("QC") is None


def test_d11_casino_option_no_trailing_a_card_that_could_capture():
    s = CASINO.state_from_json({"hands": [["9C", "5D"], ["KD"]], "to_play": 0,
                                "table": {"loose": ["4H", "5S"], "builds": []},
                                "options": {"may_trail_capturing_card": False}})
    assert "trail 9C" not in legal(s) and "trail 5D" not in legal(s)
    assert s.why_not("9C") == "a card that could capture may not be trailed"
