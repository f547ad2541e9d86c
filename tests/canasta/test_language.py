"""Canasta in Indonesian (docs/languages.md, docs/glossary.md): labels, why-not reasons, the
table's badges, log lines and the rules text read in the language in use; English and what a
record keeps (the export) are unchanged."""

from __future__ import annotations

from cardcore.language import speaking

from .helpers import GAME, position


def both(fn):
    """``fn()`` in English, then in Indonesian."""
    english = fn()
    with speaking("id"):
        return english, fn()


def labels(st) -> list[str]:
    return sorted(a.label for a in st.legal_actions())


def test_d29_d31_taking_the_pile_onto_a_meld_is_named_by_its_rank():
    st = position(phase="draw", hands=[["5C", "9D", "KC"], [], [], []], discard=["4C", "KC"],
                  melds=[[{"rank": "K", "cards": ["KS", "KH", "KD"]}], []])
    assert both(lambda: labels(st)) == (["Draw from the stock", "Take the pile onto the kings"],
                                        ["Ambil dari dek", "Ambil tumpukan ke meld King"])


def test_d24_melds_adds_and_discards_in_indonesian():
    st = position(hands=[["7C", "7C", "7S", "2C", "5H"], [], [], []],
                  melds=[[{"rank": "K", "cards": ["KH", "KD", "KC"]}], []])
    english, indonesian = both(lambda: labels(st))
    assert {"Add 2♣ to the kings", "Meld 7♠ 7♣ 2♣", "Discard 5♥"} <= set(english)
    assert {"Tambah 2♣ ke meld King", "Turunkan 7♠ 7♣ 2♣", "Buang 5♥"} <= set(indonesian)


def test_d36_a_first_meld_shows_its_count_of_the_minimum_in_indonesian():
    st = position(hands=[["QS", "QH", "QD", "KS", "KH", "KD", "5C", "9D", "4H", "6H"], [], [], []])
    melds = both(lambda: [label for label in labels(st) if "·" in label])
    assert melds == (["Meld Q♠ Q♥ Q♦ + K♠ K♥ K♦ · 30 + 30 = 60 of 50"],
                     ["Turunkan Q♠ Q♥ Q♦ + K♠ K♥ K♦ · 30 + 30 = 60 dari 50"])


def test_d36_why_not_and_the_first_meld_badge_in_indonesian():
    st = position(hands=[["KS", "KH", "KD", "KC", "QS", "QH", "QD", "5C", "9D", "6H"], [], [], []],
                  totals_before=[1500, 0])
    assert both(lambda: st.why_not("KS")) == (
        "your best first meld counts 70; a first meld needs 90 points",
        "meld pertama terbaik Anda bernilai 70; meld pertama perlu 90 poin")
    zones = both(lambda: [(z.title, z.badges) for z in st.zones(0) if z.id == "melds-0"])
    assert zones == ([("Melds", ["first meld needs 90 points"])],
                     [("Meld", ["meld pertama perlu 90 poin"])])


def test_d27_a_wild_card_on_top_stops_the_pile_in_indonesian():
    st = position(phase="draw", hands=[["5C", "9D"], [], [], []], discard=["9D", "2C"])
    assert both(lambda: st.why_not("5C")) == (
        "draw first (d): 2♣ on top, the pile cannot be taken",
        "ambil kartu dulu (d): 2♣ di atas, tumpukan tidak bisa diambil")


def test_d28_a_drawn_red_three_in_the_log_in_indonesian():
    st = position(phase="draw", hands=[["5C", "9D"], [], [], []], stock=["3H", "4C", "8S"])
    draw = next(a for a in st.legal_actions() if a.to_json()["type"] == "draw")
    assert both(lambda: st.log_line(draw)) == (
        "Draw from the stock — drew a red three 3♥ (laid out, replaced)",
        "Ambil dari dek — dapat tiga merah 3♥ (dibuka, diganti)")
    exported = st.export()
    with speaking("id"):
        assert st.export() == exported


def test_the_rules_text_in_indonesian_follows_the_options():
    with speaking("id"):
        text = GAME.rules(GAME.Options(preset="classic", browse_pile=False))
    assert text.startswith("Aturan: preset classic; differs: browse_pile=false.")
    assert "Tumpukan dirapikan" in text and "minimal dua kartu alami" in text
    assert "Canasta for four players" not in text
    assert GAME.rules(GAME.Options()).startswith("Rules: preset texts.\n\nCanasta for four")
