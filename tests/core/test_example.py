"""The example game marks the table card a play follows (the authors' docs point at it)."""


def test_a_play_marks_the_discard_it_follows(crazy_eights):
    state = crazy_eights.state_from_json({
        "game": "crazy_eights", "players": 2, "dealer": 0, "to_play": 1,
        "hands": [["2C", "3C"], ["9H", "8S", "KC"]], "stock": ["4D"], "discard": ["9C"],
        "suit": "C", "passes": 0})
    plays = {a.label: a.table_cards for a in state.legal_actions() if a.to_json()["type"] == "play"}
    assert plays == {"Play 9♥": (("9C", "discard"),), "Play K♣": (("9C", "discard"),),
                     **{f"Play 8♠, call {s}": (("9C", "discard"),)
                        for s in ("spades", "hearts", "diamonds", "clubs")}}
