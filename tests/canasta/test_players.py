"""Canasta for two and for three players (D42-D45), and the rule presets (D46)."""

import random

import pytest

from cardcore.engine.match import Match
from cardcore.engine.seating import partnership_draw
from cardcore_canasta.rules import CanastaOptions, variant

from .helpers import GAME, discards, play, steps

K3 = ["KH", "KD", "KC"]
SEVENS = ["7H", "7H", "7D", "7D", "7C", "7C", "7S"]


def table(players: int, **fields):
    """A play-phase position for seat 0 with ``players`` seats (the last one deals)."""
    sides = 2 if players == 4 else players
    data = {"players": players, "dealer": players - 1, "to_play": 0, "phase": "play",
            "stock": ["4C", "5C", "6C", "8C"], "discard": ["9D"],
            "hands": [[] for _ in range(players)],
            "melds": [[] for _ in range(sides)]}
    data.update(fields)
    return GAME.state_from_json(data)


def new_hand(players: int, seed: int = 0, totals=None):
    seating = GAME.seating(players, GAME.Options(), dealer=players - 1)
    return GAME.new_hand(seating, GAME.Options(), random.Random(seed), totals or [0] * seating.sides)


# --- D42: two, three or four; each player a side without partners ---------------------


@pytest.mark.parametrize(("players", "size"), [(2, 15), (3, 13), (4, 11)])
def test_d42_d43_d44_the_deal_by_players(players, size):
    for seed in range(20):
        st = new_hand(players, seed)
        assert [len(h) for h in st.hands] == [size] * players  # red threes replaced (D28)
        cards = sum(map(len, st.hands)) + len(st.stock) + len(st.pile) + sum(map(len, st.red_threes))
        assert cards == 108
        assert st.to_play == 0 and st.dealer == players - 1
    sides = 2 if players == 4 else players
    assert st.setup.sides == sides and len(st.melds) == sides
    assert st.side_of == ((0, 1, 0, 1) if players == 4 else tuple(range(players)))


def test_d42_players_out_of_range_are_refused():
    from cardcore.engine.game import StateError

    with pytest.raises(StateError, match="players"):
        GAME.state_from_json({"players": 5})
    with pytest.raises(StateError, match="hands"):
        GAME.state_from_json({"players": 2, "hands": [[], [], [], []]})
    with pytest.raises(StateError, match="totals_before"):
        GAME.state_from_json({"players": 3, "totals_before": [0, 0]})


# --- D43: two players ---------------------------------------------------------------


def test_d43_a_draw_takes_the_top_two_cards():
    st = table(2, phase="draw", hands=[["9C", "JD"], ["QS"]], stock=["4C", "5C", "6C"])
    play(st, "draw")
    assert sorted(st.export()["hands"][0]) == ["4C", "5C", "9C", "JD"]
    assert st.export()["stock"] == ["6C"]
    assert steps(st) == discards("4C", "5C", "9C", "JD")


def test_d43_the_last_card_alone():
    st = table(2, phase="draw", hands=[["9C", "JD"], ["QS"]], stock=["4C"])
    play(st, "draw")
    assert sorted(st.export()["hands"][0]) == ["4C", "9C", "JD"] and st.stock == []


def test_d43_red_threes_drawn_are_laid_out_and_replaced():
    st = table(2, phase="draw", hands=[["9C", "JD"], ["QS"]], stock=["3H", "4C", "3D", "5C", "6C"])
    play(st, "draw")
    assert st.export()["red_threes"] == [["3H", "3D"], []]
    assert sorted(st.export()["hands"][0]) == ["4C", "5C", "9C", "JD"]
    assert st.export()["stock"] == ["6C"]


def test_d43_d33_a_red_three_as_the_last_card_ends_the_hand_even_second():
    st = table(2, phase="draw", hands=[["9C", "JD"], ["QS"]], stock=["4C", "3D"])
    play(st, "draw")
    assert st.is_over and st.went_out is None
    assert st.export()["red_threes"] == [["3D"], []] and "4C" in st.export()["hands"][0]


@pytest.mark.parametrize(("players", "allowed"), [
    (2, discards("KS", "5D")),
    (3, discards("KS", "5D") | {"add K: KS"}),
    (4, discards("KS", "5D") | {"add K: KS"}),
])
def test_d43_going_out_needs_two_canastas_with_two_players(players, allowed):
    # one canasta: with four or three, meld the king and discard the last card;
    # with two that would leave one card and one canasta missing
    sides = 2 if players == 4 else players
    melds = [[{"rank": "7", "cards": SEVENS}, {"rank": "K", "cards": K3}]] + [[]] * (sides - 1)
    hands = [["KS", "5D"]] + [["QS"], ["QH"], ["QD"]][:players - 1]
    st = table(players, hands=hands, melds=melds, initial_meld_done=[True] + [False] * (sides - 1))
    assert steps(st) == allowed


def test_d43_two_canastas_let_a_player_of_two_go_out():
    melds = [[{"rank": "7", "cards": SEVENS}, {"rank": "K", "cards": K3 + ["KS", "KH", "KD", "KC"]}], []]
    st = table(2, hands=[["AS", "5D"], ["QS"]], melds=melds, has_melded=[True, False])
    assert steps(st) == discards("AS", "5D")
    play(st, "discard AS")
    assert not st.is_over  # one card left: the next turn
    st = table(2, hands=[["5D"], ["QS"]], melds=melds, has_melded=[True, False])
    assert steps(st) == discards("5D")
    play(st, "discard 5D")
    assert st.is_over and st.went_out == 0 and not st.concealed


def test_d43_going_out_concealed_needs_both_canastas_in_the_hand():
    kings = ["KH", "KH", "KD", "KD", "KC", "KC", "KS"]
    hand = SEVENS + kings + ["5D"]
    st = table(2, hands=[hand, ["QS"]], totals_before=[0, 0])
    assert _melding_all_but_one(st) == 1
    st.apply(next(a for a in st.legal_actions() if _melded(a) == 14))
    play(st, "discard 5D")
    assert st.is_over and st.concealed and st.score()["sides"][0]["items"]["concealed"] == 100
    # one canasta in the hand: with two players no step melds all but the last card,
    # with three there is one (D44)
    hand = SEVENS + K3 + ["5D"]
    assert _melding_all_but_one(table(2, hands=[hand, ["QS"]])) == 0
    assert _melding_all_but_one(table(3, hands=[hand, ["QS"], ["QH"]])) == 1


def _melded(action) -> int:
    j = action.to_json()
    return sum(map(len, j["melds"])) if j["type"] == "meld" else 0


def _melding_all_but_one(st) -> int:
    """How many steps meld every card of the hand but one."""
    return sum(1 for a in st.legal_actions() if _melded(a) == len(st.hands[0]) - 1)


def test_d43_scores_per_player_cards_left_in_own_hand():
    melds = [[{"rank": "7", "cards": SEVENS}, {"rank": "K", "cards": K3 + ["KS", "KH", "KD", "KC"]}],
             [{"rank": "A", "cards": ["AS", "AH", "AD"]}]]
    st = GAME.state_from_json({
        "players": 2, "dealer": 1, "to_play": None, "phase": "over", "went_out": 0,
        "hands": [[], ["JK", "4C"]], "melds": melds,
        "red_threes": [["3H", "3H", "3D", "3D"], []], "stock": ["9C"]})
    row = st.score()
    assert [s["seats"] for s in row["sides"]] == [[0], [1]]
    assert row["sides"][0]["items"] == {"melded": 35 + 70, "natural_canastas": 1000, "mixed_canastas": 0,
                                        "red_threes": 800, "going_out": 100, "concealed": 0, "in_hand": 0}
    assert row["sides"][1]["items"] == {"melded": 60, "natural_canastas": 0, "mixed_canastas": 0,
                                        "red_threes": 0, "going_out": 0, "concealed": 0, "in_hand": -55}
    assert row["sides"][0]["total"] == 2005 and row["sides"][1]["total"] == 5


def test_d43_strict_loading_knows_the_two_player_deal():
    from cardcore.engine.game import StateError

    st = new_hand(2, 3)
    data = st.export()
    assert GAME.state_from_json(data, strict=True).export() == data
    data["stock"], data["hands"][0] = data["stock"][1:], data["hands"][0] + data["stock"][:1]
    GAME.state_from_json(data, strict=True)  # a card drawn: still possible
    bad = st.export()
    bad["hands"][1], bad["stock"] = [], bad["stock"] + bad["hands"][1]
    with pytest.raises(StateError, match="stock|hands.1"):
        GAME.state_from_json(bad, strict=True)


# --- D44: three players ----------------------------------------------------------------


def test_d44_three_players_draw_one_card_minimum_by_own_total():
    st = table(3, phase="draw", hands=[["9C", "JD"], ["QS"], ["QH"]], stock=["4C", "5C"],
               totals_before=[3000, 0, -100])
    assert st.setup.minimums == (120, 50, 15)
    play(st, "draw")
    assert sorted(st.export()["hands"][0]) == ["4C", "9C", "JD"] and st.export()["stock"] == ["5C"]
    play(st, "discard 4C")
    assert st.to_play == 1


def test_d44_the_first_meld_by_the_players_own_total():
    hand = ["KH", "KD", "KC", "AS", "AH", "AD", "9C", "9D"]  # kings 30, aces 60
    melds = {total: {s for s in steps(table(3, hands=[hand, ["QS"], ["QH"]], totals_before=[total, 0, 0]))
                     if s.startswith("meld")} for total in (0, 1500, 3000)}
    assert melds == {0: {"meld AS AH AD"}, 1500: {"meld KH KD KC | AS AH AD"}, 3000: set()}
    # the other players' totals do not matter
    assert {s for s in steps(table(3, hands=[hand, ["QS"], ["QH"]], totals_before=[0, 3000, -100]))
            if s.startswith("meld")} == melds[0]


# --- D45: the first dealer -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_d45_the_draw_chooses_the_first_player_no_partners(players, seed):
    match = Match(GAME, seed=seed, players=players, seats=["random"] * players, draw_for_partners=True)
    match.start()
    assert match.draw is None and not match.seating.partnerships
    assert match.seating.names == tuple(f"Player {i + 1}" for i in range(players))
    high = partnership_draw(players, random.Random(f"{seed}:0")).ranking[0]
    assert match.seating.dealer == (high - 1) % players and match.state.to_play == high
    assert match.sheet.side_names == list(match.seating.names)


# --- D46: presets ----------------------------------------------------------------------


def test_d46_a_preset_fills_the_options():
    assert CanastaOptions().preset == "texts"
    classic = CanastaOptions(preset="classic")
    assert (classic.wild_rule, classic.black_three_freezes, classic.concealed_needs_minimum) == (
        "classic", False, False)
    texts = CanastaOptions(preset="texts")
    assert texts == CanastaOptions()
    with pytest.raises(ValueError):
        CanastaOptions(preset="house")


def test_d46_an_option_given_wins_over_the_preset():
    o = CanastaOptions(preset="classic", black_three_freezes=True)
    assert (o.wild_rule, o.black_three_freezes, o.concealed_needs_minimum) == ("classic", True, False)
    o = CanastaOptions(wild_rule="classic")
    assert (o.preset, o.wild_rule, o.black_three_freezes) == ("texts", "classic", True)
    # exports carry every option: they load back the same
    assert CanastaOptions.model_validate(o.model_dump(mode="json"), strict=True) == o


def test_d46_the_command_line_takes_a_preset():
    from cardcore.apps.cli import parse_options

    o = parse_options(GAME, ["preset=classic", "concealed_needs_minimum=true"])
    assert (o.preset, o.wild_rule, o.concealed_needs_minimum) == ("classic", "classic", True)


def test_d46_the_rules_text_names_the_preset_and_the_differences():
    assert GAME.rules(CanastaOptions()).startswith("Rules: preset texts.\n")
    text = GAME.rules(CanastaOptions(preset="classic", black_three_freezes=True, target=3000))
    assert text.startswith("Rules: preset classic; differs: target=3000, black_three_freezes=true.\n")
    assert "at least two natural cards and never" in text  # classic wild rule
    assert variant(CanastaOptions(wild_rule="classic")) == "preset texts; differs: wild_rule=classic"
    assert variant(CanastaOptions(preset="classic")) == "preset classic"


def test_d46_the_score_sheet_names_the_preset_and_the_differences():
    from cardcore.apps.tui.widgets.sheet import score_table
    from cardcore.engine.bots import RandomBot
    from cardcore.engine.bots.play import play_bots
    from cardcore.engine.scoresheet import ScoreSheet

    options = CanastaOptions(preset="classic", wild_rule="two_per_wild")
    match = Match(GAME, options, seed=1, players=3, seats=["random"] * 3, max_hands=1)
    match.start()
    assert Match.from_snapshot(GAME, match.snapshot()).sheet.variant == match.sheet.variant
    play_bots(match, {s: RandomBot() for s in range(3)})
    assert match.sheet.variant == "preset classic; differs: wild_rule=two_per_wild"
    assert ScoreSheet.from_json(match.sheet.to_json()).variant == match.sheet.variant
    title = str(score_table(match.sheet).title)
    assert title == "Score sheet — target 5000 — preset classic; differs: wild_rule=two_per_wild"
    assert len(match.sheet.side_names) == 3 and len(match.sheet.hands[0]["sides"]) == 3
