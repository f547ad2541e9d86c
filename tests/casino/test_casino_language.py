"""Casino and Royal Casino in Indonesian (docs/languages.md): labels, log lines, why-not
reasons, zones and the rules text read in the language in use; English stays as it was, and
what a record keeps (the export, the view, the Match's log label) stays English."""

from __future__ import annotations

from cardcore.engine.match import Match
from cardcore.language import speaking

from .helpers import CASINO, ROYAL

BUILD = {"hands": [["8C", "5D", "3H"], ["KD"]], "to_play": 0,
         "table": {"loose": ["4H", "5S"], "builds": [{"value": 8, "owner": 0, "groups": [["2H", "6S"]]}]}}


def labels(state) -> set[str]:
    return {a.label for a in state.legal_actions()}


def test_d13_d12_labels_and_why_not_in_indonesian_and_english():
    s = CASINO.state_from_json(BUILD)
    english = labels(s)
    assert {"Capture 2♥ 6♠ with 8♣", "Build 8: 3♥ on 5♠", "Add to 8: 3♥ on 2♥ 5♠ 6♠"} <= english
    with speaking("id"):
        assert {"Tangkap 2♥ 6♠ dengan 8♣", "Bangun 8: 3♥ di atas 5♠",
                "Tambah ke 8: 3♥ di atas 2♥ 5♠ 6♠"} <= labels(s)
        assert s.why_not("5D") == "pemilik bangunan tidak boleh menaruh: Anda pemilik bangunan 8"
    assert labels(s) == english
    assert s.why_not("5D") == "the owner of a build may not trail: you own the 8"


def test_d3_a_royal_ace_capturing_as_14_and_d11_the_matching_value_in_indonesian():
    s = ROYAL.state_from_json({"hands": [["AC", "QC", "5D"], ["KD"]], "to_play": 0,
                               "table": {"loose": ["QH", "9S", "5H"], "builds": []}})
    with speaking("id"):
        assert "Tangkap 5♥ 9♠ dengan A♣ sebagai 14" in labels(s)
        assert s.why_not("QC") == "kartu senilai kartu lepas tidak boleh ditaruh: Q♥ ada di meja"
    assert "Capture 5♥ 9♠ with A♣ as 14" in labels(s)


def test_d7_d8_log_lines_say_the_sweep_and_the_end_in_indonesian():
    s = CASINO.state_from_json({"hands": [["8C"], []], "to_play": 0, "dealer": 1,
                                "table": {"loose": ["3H", "5S"], "builds": []}})
    capture = next(a for a in s.legal_actions() if a.to_json()["type"] == "capture")
    with speaking("id"):
        assert s.log_line(capture) == "Tangkap 3♥ 5♠ dengan 8♣ — sapu bersih — ronde selesai"
    assert s.log_line(capture) == "Capture 3♥ 5♠ with 8♣ — sweep — the hand is over"


def test_zones_are_drawn_in_the_language_of_each_call_and_the_view_stays_english():
    s = CASINO.state_from_json(BUILD)
    view = s.view(0)
    english = [(z.title, z.badges) for z in s.zones(0)]
    with speaking("id"):
        indonesian = [(z.title, z.badges) for z in s.zones(0)]
    assert english[:3] == [("Stock", ["stock 0", "last"]), ("Table", ["last"]),
                           ("Seat 0", ["to play"])]
    assert indonesian[:3] == [("Dek", ["dek 0", "terakhir"]), ("Meja", ["terakhir"]),
                              ("Kursi 0", ["giliran"])]
    assert indonesian[-1] == ("Tangkapan", ["kartu 0", "sekop 0", "sapu bersih 0"])
    # the zones kept for a second viewer are not the other language's
    assert [(z.title, z.badges) for z in s.zones(1)][:2] == english[:2]
    assert s.view(0) == view


def test_the_log_a_match_records_is_english_whatever_the_language_in_use():
    events = []
    with speaking("id"):
        match = Match(CASINO, CASINO.Options(), seed=3, on_event=events.append)
        match.start()
        match.apply(match.legal_actions()[0])
    played = [e for e in events if getattr(e, "event", "") == "action"]
    assert played and played[0].label.split(" ")[0] in ("Trail", "Capture", "Build")


def test_rules_and_options_in_indonesian_name_every_option():
    from cardcore.engine.option_fields import options_markdown

    for game in (CASINO, ROYAL):
        with speaking("id"):
            text = game.rules(game.Options()) + options_markdown(game.Options, game.translate)
        assert "## Pemain dan pembagian kartu" in text and "sapu bersih" in text
        assert "Players and deal" not in text
        for key, field in game.Options.model_fields.items():
            assert f"`{key}`" in text and field.description not in text
    assert "Permainan berjalan berlawanan arah jarum jam" in _id(ROYAL.rules, ROYAL.Options())


def _id(fn, *args):
    with speaking("id"):
        return fn(*args)


def test_cardcore_rules_casino_in_indonesian_lists_every_option(capsys, monkeypatch):
    """The rules run on a thread of their own (``call_limited``): the language goes along."""
    from cardcore.apps.cli import main

    monkeypatch.setenv("COLUMNS", "100")
    with speaking("id"):
        assert main(["rules", "casino"]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert "Pemain dan pembagian kartu" in flat and "Bangunan tertinggi 10." in flat
    for key in CASINO.Options.model_fields:
        assert f"{key} (default " in flat
    assert "deal_in_twos (default true; true or false): bagi dua-dua (false: satu per satu)" in flat


def test_texts_declared_as_data_are_translated_through_the_game():
    """The description, the options' descriptions, the score extras' labels and the score
    rows' words: ``Game.translate`` finds them in the game's catalog, then the core's, then
    (a fishing game) Casino's; English as it is."""
    with speaking("id"):
        assert ROYAL.translate(ROYAL.description).startswith("Casino dengan kartu gambar bernilai")
        assert [ROYAL.translate(w) for w in ("won outright", "big casino", "sweeps")] == [
            "menang langsung", "casino besar", "sapu bersih"]
        assert CASINO.translate(CASINO.Options.model_fields["target"].description or "") == \
            "poin untuk memenangkan partai"
        assert CASINO.translate("no such text") == "no such text"
    assert ROYAL.translate("big casino") == "big casino"
