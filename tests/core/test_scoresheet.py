import json

from cardcore.engine.scoresheet import ScoreSheet


def row(a: dict, b: dict) -> dict:
    return {"sides": [{"seats": [0], "items": a, "total": sum(a.values())},
                      {"seats": [1], "items": b, "total": sum(b.values())}]}


def test_totals_and_running_totals():
    sheet = ScoreSheet(["We", "They"], target=21)
    sheet.add(row({"cards": 3, "aces": 2}, {"spades": 1, "sweeps": 2}))
    sheet.add(row({"cards": 0, "aces": 1}, {"cards": 3, "big_casino": 2}))
    assert sheet.totals == [6, 8]
    assert sheet.running() == [[5, 3], [6, 8]]
    assert sheet.item_keys() == ["cards", "aces", "spades", "sweeps", "big_casino"]


def test_json_round_trip():
    sheet = ScoreSheet(["We", "They"], target=5000)
    sheet.add(row({"melded": 120}, {"melded": -30}))
    data = json.loads(json.dumps(sheet.to_json()))
    assert data["totals"] == [120, -30]
    again = ScoreSheet.from_json(data)
    assert again.totals == [120, -30] and again.target == 5000 and again.hands == sheet.hands


def test_a_row_for_the_wrong_number_of_sides_is_refused():
    sheet = ScoreSheet(["A", "B", "C"], target=21)
    try:
        sheet.add(row({}, {}))
    except ValueError as exc:
        assert "2 sides" in str(exc)
    else:
        raise AssertionError("accepted a 2-side row on a 3-side sheet")
    assert sheet.hands == []
