"""What the table adds to a zone's title and a group's badges (docs/authors.md, Zones and
groups): whose they are, said once."""

from cardcore.apps.tui.widgets.zones import TableInfo, render_zone, zone_title
from cardcore.engine.game import Group, Zone

PAIRS = TableInfo(names=["South", "West", "North", "East"], side_names=["South & North", "West & East"],
                  viewer=0, viewer_side=0)


def test_a_zone_of_a_side_or_seat_gets_its_name_after_the_title():
    assert zone_title(Zone("taken-1", "pile", "Taken", side=1), PAIRS) == "Taken — West & East"
    assert zone_title(Zone("melds-1", "melds", "Melds", seat=1, side=1), PAIRS) == "Melds — West"
    assert zone_title(Zone("hands-3", "hand", "Hands", seat=3, side=1), PAIRS) == "East — West & East"
    assert zone_title(Zone("hands-2", "hand", "Hands", seat=2, side=0), PAIRS) == "North (partner)"


def test_a_title_that_already_names_them_is_not_told_twice():
    assert zone_title(Zone("won-0", "pile", "Taken by South & North", side=0), PAIRS) == \
        "Taken by South & North"
    assert zone_title(Zone("led", "row", "East leads", seat=3), PAIRS) == "East leads"
    # a name inside another word is not the name: "Northern" does not say North
    assert zone_title(Zone("x", "row", "Northern pile", seat=2), PAIRS) == "Northern pile — North"


def test_a_groups_owner_is_added_unless_a_badge_names_them():
    trick = Zone("trick", "row", "Trick", groups=[Group("t-3", ["4H"], ["East"], seat=3),
                                                  Group("t-0", ["9H"], ["led"], seat=0)])
    text = render_zone(trick, PAIRS).plain
    assert "⟨4♥⟩ East" in text and "East · East" not in text
    assert "⟨9♥⟩ led · South" in text


def test_a_hand_with_a_known_card_draws_its_backs_as_one_run():
    hand = Zone("hands-1", "hand", "Hands", seat=1, side=1, cards=["2D", *[None] * 12])
    row = render_zone(hand, PAIRS).plain.splitlines()[1].strip()
    assert row == "2♦ ▒▒ ×12"
    two = Zone("hands-3", "hand", "Hands", seat=3, side=1, cards=[None, "KS", None, None])
    assert render_zone(two, PAIRS).plain.splitlines()[1].strip() == "▒▒ K♠ ▒▒ ▒▒"
