"""The game object, the export contract, views, zones, labels and random play."""

import json
import random
from collections import Counter

import pytest

from cardcore.engine.cards import CardError, canasta_deck
from cardcore.engine.game import IllegalAction, StateError
from cardcore.engine.seating import Seating
from cardcore.engine.testing import check_game
from cardcore_canasta.rules import CARD_VALUE, ID_TEXT, VALID

from .helpers import GAME, play, position, show


def test_d42_four_players_in_partnerships_with_a_draw():
    assert GAME.id == "canasta" and GAME.player_counts == (4, 2, 3)
    assert GAME.partnerships and GAME.has_partnership_draw
    o = GAME.Options()
    assert (o.target, o.wild_rule, o.black_three_freezes, o.concealed_needs_minimum) == (
        5000, "two_per_wild", True, True)
    with pytest.raises(ValueError):
        GAME.Options(wild_rule="three")
    assert "Canasta" in GAME.rules(o) and "5000" in GAME.rules(o)


def test_d37_the_dealer_sits_at_the_right_of_the_high_drawer():
    seating = Seating(4, partnerships=True, draw=(2, 0, 3, 1))
    assert GAME.first_dealer(seating, GAME.Options(), random.Random(0)) == 1
    seating = Seating(4, partnerships=True, draw=(0, 2, 1, 3))
    assert GAME.first_dealer(seating, GAME.Options(), random.Random(0)) == 3
    # without a draw at setup, the game makes one (seeded)
    dealers = {GAME.first_dealer(Seating(4, partnerships=True), GAME.Options(), random.Random(s))
               for s in range(30)}
    assert dealers == {0, 1, 2, 3}


def test_export_contract_keys_and_round_trip():
    st = GAME.new_hand(Seating(4, dealer=3, partnerships=True), GAME.Options(),
                       random.Random(7), [1200, 350])
    data = st.export()
    assert list(data) == ["game", "players", "dealer", "to_play", "phase", "hands", "stock",
                          "discard", "frozen", "melds", "red_threes", "initial_meld_done",
                          "has_melded", "turn", "totals_before", "went_out", "concealed",
                          "known", "options"]
    assert data["known"] == {"hands": [[], [], [], []]}  # nothing taken with the pile yet
    assert data["totals_before"] == [1200, 350] and data["to_play"] == 0
    assert data["turn"] == {"new_ranks": [], "added_to_earlier": False}
    cards = Counter(c for h in data["hands"] for c in h) + Counter(data["stock"])
    cards += Counter(data["discard"]) + Counter(c for r in data["red_threes"] for c in r)
    assert cards == Counter(canasta_deck())
    assert GAME.state_from_json(json.loads(json.dumps(data))).export() == data


def test_partial_positions_and_impossible_data():
    st = GAME.state_from_json({"hands": [["7H", "7S", "9C"], [], [], []], "discard": ["4D"],
                               "stock": ["5S"]})
    data = st.export()
    assert data["to_play"] == 1 and data["phase"] == "draw" and data["melds"] == [[], []]
    assert data["hands"][0] == ["7S", "7H", "9C"]  # multisets come out sorted
    with pytest.raises(CardError):
        GAME.state_from_json({"hands": [["7X"], [], [], []]})
    with pytest.raises(StateError, match="3 times"):
        GAME.state_from_json({"hands": [["7H", "7H"], ["7H"], [], []], "stock": ["4S"]})
    with pytest.raises(StateError, match="red three"):
        GAME.state_from_json({"hands": [["3H"], [], [], []], "stock": ["4S"]})
    with pytest.raises(StateError, match="meld rule"):
        GAME.state_from_json({"melds": [[{"rank": "7", "cards": ["7H", "2S", "JK"]}], []],
                              "stock": ["4S"]})
    with pytest.raises(StateError, match="no legal step"):  # one card, no canasta
        GAME.state_from_json({"hands": [["4S"], [], [], []], "to_play": 0, "phase": "play",
                              "discard": ["9H"]})


def test_view_hides_other_hands_and_the_stock_even_after_the_hand():
    st = position(stock=[], hands=[["4H", "5H"], ["6S", "8S"], ["9S"], ["KS"]], discard=["KC"],
                  melds=[[{"rank": "K", "cards": ["KH", "KD", "KC"]}], []])
    view = st.view(1)
    assert view["hands"] == [[None, None], ["6S", "8S"], [None], [None]]
    assert view["discard"] == ["KC"]
    play(st, "discard 5H")
    assert st.is_over and st.view(1)["hands"][0] == [None]


def test_the_spectator_sees_no_hand_and_no_stock():
    st = position(hands=[["4H", "5H"], ["6S", "8S"], ["9S"], ["KS"]], discard=["KC", "2C"],
                  red_threes=[["3H"], []], melds=[[{"rank": "K", "cards": ["KH", "KD", "KC"]}], []],
                  options={"browse_pile": True})  # the whole pile public (D47's default)
    view = st.view(None)
    data = st.export()
    assert view["hands"] == [[None, None], [None, None], [None], [None]]
    assert view["stock"] == [None] * len(data["stock"]) and len(data["stock"]) == 4
    public = {k: v for k, v in data.items() if k not in ("hands", "stock")}
    assert {k: v for k, v in view.items() if k not in ("hands", "stock")} == public
    assert public["discard"] == ["KC", "2C"] and public["frozen"]


@pytest.mark.parametrize("data, field", [
    ([], "position"),
    ({"hands": "7H"}, "hands"),
    ({"hands": [["7H", 7], [], [], []]}, "hands.0.1"),
    ({"hands": [["7H"], []]}, "hands"),
    ({"dealer": True}, "dealer"),
    ({"dealer": 1.0}, "dealer"),
    ({"dealer": 4}, "dealer"),
    ({"to_play": "1"}, "to_play"),
    ({"phase": "deal"}, "phase"),
    ({"totals_before": [100.0, 0]}, "totals_before.0"),
    ({"totals_before": [100]}, "totals_before"),
    ({"melds": [[{"rank": "7"}], []]}, "melds.0.0.cards"),
    ({"melds": [[{"rank": "7", "cards": ["7H", "7S", "7D"]}, "x"], []]}, "melds.0.1"),
    ({"melds": [[{"rank": "3", "cards": ["3S", "3C", "2C"]}], []], "stock": ["4S"]}, "melds.0.0"),
    ({"red_threes": [["3S"], []]}, "red_threes.0"),
    ({"turn": {"new_ranks": [7]}}, "turn.new_ranks.0"),
    ({"turn": []}, "turn"),
    ({"frozen": "yes"}, "frozen"),
    ({"concealed": 0}, "concealed"),
    ({"has_melded": [True, False]}, "has_melded"),
    ({"options": {"target": "5000"}}, "options.target"),
    ({"options": {"wild_rule": "three"}}, "options.wild_rule"),
    ({"stock": ["7X"]}, "stock"),
])
def test_loading_errors_are_state_errors_naming_the_field(data, field):
    with pytest.raises(StateError) as err:
        GAME.state_from_json(data)
    assert str(err.value).startswith(field + ":") or field == "position", str(err.value)


def _full_position(seed=7):
    st = GAME.new_hand(Seating(4, dealer=1, partnerships=True), GAME.Options(),
                       random.Random(seed), [0, 0])
    rng = random.Random(seed)
    for _ in range(rng.randrange(20, 120)):
        if st.is_over:
            break
        acts = st.legal_actions()
        st.apply(acts[rng.randrange(len(acts))])
    return st.export()


def test_strict_positions_hold_the_whole_deck_and_reachable_counts():
    for seed in range(8):
        data = _full_position(seed)
        assert GAME.state_from_json(data, strict=True).export() == data
    data = _full_position(3)
    assert not data["went_out"] and data["phase"] != "over"
    # a partial position is fine, but not strict
    partial = {**data, "stock": data["stock"][1:]}
    assert GAME.state_from_json(partial).export() == partial
    with pytest.raises(StateError, match="whole deck"):
        GAME.state_from_json(partial, strict=True)
    # a seat not to act with no cards: the hand would be over
    idle = next(s for s in range(4) if s != data["to_play"])
    empty = {**data, "hands": [[] if s == idle else h for s, h in enumerate(data["hands"])],
             "stock": data["stock"] + data["hands"][idle]}
    with pytest.raises(StateError, match=f"hands.{idle}: empty"):
        GAME.state_from_json(empty, strict=True)
    # more stock than the deal leaves
    start = GAME.new_hand(Seating(4, dealer=0, partnerships=True), GAME.Options(),
                          random.Random(1), [0, 0]).export()
    reds = sum(map(len, start["red_threes"]))
    k = 108 - 45 - reds - len(start["stock"]) + 1  # one card more than the deal can leave
    crowded = {**start, "hands": [start["hands"][0][:-k], *start["hands"][1:]],
               "stock": start["stock"] + start["hands"][0][-k:]}
    with pytest.raises(StateError, match="stock: .* after the deal"):
        GAME.state_from_json(crowded, strict=True)
    # melds nobody laid, a hand over without going out while the stock lasts
    GAME.state_from_json(data, strict=True)
    nobody = {**data, "has_melded": [False] * 4}
    if any(data["melds"]):
        with pytest.raises(StateError, match="has_melded"):
            GAME.state_from_json(nobody, strict=True)
    over = {**data, "phase": "over", "to_play": None}
    with pytest.raises(StateError, match="went_out"):
        GAME.state_from_json(over, strict=True)


def test_zones_and_labels():
    st = position(phase="draw", hands=[["7H", "7S", "9C"], [], [], []],
                  discard=["2C", "4D", "7D"], melds=[[{"rank": "K", "cards": ["KH", "KD", "KC"]}],
                                                     []])
    zones = {z.id: z for z in st.zones(0)}
    assert zones["stock"].badges == ["stock 4"] and zones["stock"].cards == [None]
    assert zones["discard"].kind == "pile" and zones["discard"].badges == ["frozen: 2♣ in it", "3 cards"]
    assert zones["hand-1"].cards == []
    assert [g.id for g in zones["melds-0"].groups] == ["meld-0-K"]
    assert zones["melds-1"].badges == ["first meld needs 50 points"]
    labels = {a.label: a for a in st.legal_actions()}
    assert set(labels) == {"Draw from the stock", "Take the pile with 7♠ 7♥"}
    take = labels["Take the pile with 7♠ 7♥"]
    assert take.hand_cards == ("7S", "7H") and take.targets == ("discard", "melds-0")
    assert take.to_json() == {"type": "take_pile", "with": ["7S", "7H"], "melds": []}
    assert GAME.action_from_json(st, take.to_json()) == take
    play(st, "take 7S 7H")
    labels = {a.label for a in st.legal_actions()}
    assert {"Discard 9♣", "Discard 4♦", "Add 2♣ to the 7s"} <= labels


def test_labels_name_court_and_ace_melds_in_words():
    from cardcore_canasta.actions import meld_name
    from cardcore_canasta.rules import SLOT_NAMES

    names = {SLOT_NAMES[i]: meld_name(i) for i in range(len(SLOT_NAMES))}
    assert names["A"] == "aces" and names["K"] == "kings" and names["10"] == "10s"
    st = position(hands=[["7C", "7C", "7S", "2C", "5H"], [], [], []],
                  melds=[[{"rank": "K", "cards": ["KH", "KD", "KC"]}], []])
    meld = next(a for a in st.legal_actions() if show(a) == "meld 7S 7C 2C")
    assert meld.label == "Meld 7♠ 7♣ 2♣" and meld.targets == ("melds-0",)


def test_an_illegal_step_changes_nothing():
    st = position(hands=[["7C", "9C"], [], [], []])
    before = st.export()
    other = position(hands=[["8C", "9C"], [], [], []]).legal_actions()[0]
    with pytest.raises(IllegalAction):
        st.apply(other)
    assert st.export() == before


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 2, 3])
def test_check_game_d43_d44_every_player_count(players):
    report = check_game(GAME, seeds=range(5), max_hands=3, deep_every=3, player_counts=[players])
    assert report.hands >= 5 and report.matches == 3


def _check_table(st):
    """Rule invariants of any position reached in play."""
    total = sum(len(h) for h in st.hands) + len(st.stock) + len(st.pile)
    total += sum(len(m[0]) for side in st.melds for m in side.values())
    total += sum(len(r) for r in st.red_threes)
    assert total == 108
    valid = VALID[st.setup.classic]
    for side in range(st.setup.sides):
        for slot, (ids, nat, w) in st.melds[side].items():
            assert all(c >> 2 == slot or c >= 48 for c in ids)
            if slot == 0:
                assert st.is_over or len(st.hands[st.to_play]) == 1
                assert len(ids) in (3, 4) and not w
            else:
                assert valid[nat][w]
        assert st.canastas[side] == sum(len(m[0]) >= 7 for m in st.melds[side].values())
    if st.went_out is not None:  # going out needs one canasta, two with two players (D34, D43)
        assert st.canastas[st.side_of[st.went_out]] >= (2 if len(st.hands) == 2 else 1)
    assert not any(c in (1, 2) for h in st.hands for c in h)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "wild_rule"), [
    (4, "two_per_wild"), (4, "classic"), (2, "two_per_wild"), (3, "classic")])
def test_random_hands_every_card_accounted_every_hand_ends(players, wild_rule):
    ends = play_random_hands(players, wild_rule, 1000)
    # random play rarely makes the two canastas going out needs with two players (D43)
    assert ends["out"] > (5 if players == 2 else 100) and ends["stock"] > 100
    assert ID_TEXT[52] == "JK"


@pytest.mark.parametrize(("players", "wild_rule"), [(4, "two_per_wild"), (3, "classic")])
def test_random_hands_every_card_accounted_first_30(players, wild_rule):
    """The quick loop's share of the test above: its first 30 hands."""
    ends = play_random_hands(players, wild_rule, 30)
    assert ends["out"] + ends["stock"] == 30


def play_random_hands(players, wild_rule, hands):
    """Play random hands to their end checking the table's invariants at every step and
    every card and score at the end; how the hands ended."""
    options = GAME.Options(wild_rule=wild_rule, black_three_freezes=wild_rule == "classic")
    rng = random.Random(99)
    ends = Counter()
    for h in range(hands):
        seating = GAME.seating(players, options, dealer=h % players)
        totals = [rng.choice([-50, 0, 1500, 3000]) for _ in range(seating.sides)]
        st = GAME.new_hand(seating, options, random.Random(f"{players}:{wild_rule}:{h}"), totals)
        for _ in range(3000):
            if st.is_over:
                break
            acts = st.legal_actions()
            assert acts
            a = acts[rng.randrange(len(acts))]
            side = st.side_of[st.to_play]
            first = not st.initial_meld_done[side]
            before = {s: len(m[0]) for s, m in st.melds[side].items()}
            st.apply(a)
            if first and st.initial_meld_done[side] and not st.is_over:  # a first meld meets the minimum
                laid = sum(CARD_VALUE[c] for s, m in st.melds[side].items() for c in m[0]
                           if s not in before)
                assert laid >= st.setup.minimums[side]
            _check_table(st)
        assert st.is_over
        ends["out" if st.went_out is not None else "stock"] += 1
        ends["concealed"] += st.concealed
        data = st.export()
        assert Counter(c for h in data["hands"] for c in h) + Counter(data["stock"]) + Counter(
            data["discard"]) + Counter(c for side in data["melds"] for m in side for c in m["cards"]
                                       ) + Counter(c for r in data["red_threes"] for c in r) == Counter(
            canasta_deck())
        row = st.score()
        assert all(s["total"] == sum(s["items"].values()) for s in row["sides"])
    return ends


@pytest.mark.parametrize("seed", range(6))
def test_d37_d38_draw_for_partners_first_dealer_and_first_player(seed):
    from cardcore.engine.match import Match
    from cardcore.engine.seating import draw_strength

    match = Match(GAME, seed=seed, draw_for_partners=True)
    match.start()
    draw = match.draw
    final = {}
    for r in draw.rounds:
        final.update(r)
    assert "JK" not in final.values() and len(set(final.values())) == 4
    ranking = sorted(final, key=lambda p: draw_strength(final[p]), reverse=True)
    assert list(draw.ranking) == ranking
    # the two highest sit together at seats 0 and 2; the highest plays first, the
    # dealer at their right (seat 3) deals
    hi, second = ranking[0], ranking[1]
    seats = match.seating.draw  # seats by rank
    assert seats[0] == 0 and seats[1] == 2
    assert match.seating.names[0] == ("South", "West", "North", "East")[hi]
    assert match.seating.names[2] == ("South", "West", "North", "East")[second]
    assert match.seating.dealer == 3 and match.state.to_play == 0
    # the next hand: the deal passes left, the dealer's left plays first
    while match.hand_no == 1:
        match.apply(match.legal_actions()[-1])
    assert match.seating.dealer == 0 and match.state.to_play == 1


@pytest.mark.parametrize("seed", range(6))
def test_d38_without_draw_for_partners_the_seats_stay_the_draw_picks_the_dealer(seed):
    from cardcore.engine.match import Match
    from cardcore.engine.seating import partnership_draw

    match = Match(GAME, seed=seed)
    match.start()
    assert match.draw is None
    assert match.seating.names == ("South", "West", "North", "East")
    high = partnership_draw(4, random.Random(f"{seed}:0")).ranking[0]
    assert match.seating.dealer == (high - 1) % 4 and match.state.to_play == high


def test_d38_ties_rank_then_suit_only_tied_players_redraw():
    from cardcore.engine.seating import partnership_draw

    # popped from the end: player 0 JK, 1 7H, 2 7H (identical: both redraw), 3 7S;
    # the redraw: player 0 AC, 1 2S, 2 7D
    class Unshuffled(random.Random):
        def shuffle(self, x):  # keep the stacked order
            pass

    deck = ["7D", "2S", "AC", "7S", "7H", "7H", "JK"]
    draw = partnership_draw(4, Unshuffled(0), deck=deck)
    assert draw.rounds[0] == {0: "JK", 1: "7H", 2: "7H", 3: "7S"}
    assert sorted(draw.rounds[1]) == [0, 1, 2]
    final = {p: c for r in draw.rounds for p, c in r.items() if c != "JK"}
    final.update(draw.rounds[-1])
    # 7S beats 7D on suit; the ace is highest, the deuce lowest
    assert draw.ranking[0] == next(p for p, c in final.items() if c == "AC")
    assert draw.ranking[-1] == next(p for p, c in final.items() if c == "2S")
    assert [final[p] for p in draw.ranking] == ["AC", "7S", "7D", "2S"]


def test_docs_rules_canasta_is_the_text_the_engine_plays_by():
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "rules-canasta.md").read_text()
    assert GAME.rules(GAME.Options()).strip() in doc
