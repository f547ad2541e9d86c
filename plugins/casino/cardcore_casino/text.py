"""The rules as the engine plays them, written from the same configuration it plays by."""

from __future__ import annotations


def rules_text(game, options) -> str:
    r = game.rules_for(options)
    royal = r.game_id == "royal_casino"
    direction = "clockwise" if r.direction == 1 else "counter-clockwise"
    o = options
    lines = [f"# {game.name}", "", game.description, ""]
    lines += [
        "## Players and deal",
        "- 2, 3 or 4 players; with 4, seats 0+2 play seats 1+3 and pool their captures; "
        "3 players play each for themselves.",
        "- The first dealer is drawn at random; the deal then passes to the left (seat + 1).",
        f"- Play goes {direction}. The dealer's neighbour in that direction leads "
        "after every deal.",
    ]
    if royal:
        lines.append("- Deal in packets of four: each non-dealer, four face up to the table, "
                     "then the dealer.")
    elif getattr(o, "deal_in_twos", True):
        lines.append("- Deal in packets of two: the non-dealers, two face up to the table, the "
                     "dealer; twice, so four each and four on the table.")
    else:
        lines.append("- Deal one card at a time: the non-dealers, one to the table, the dealer; "
                     "four rounds, so four each and four on the table.")
    lines += [
        "- When every hand is empty the same packets give four more each (none to the table) "
        "until the stock is gone. The last deal is announced: \"last\".",
        "",
        "## Values",
    ]
    if royal:
        top = 14 if o.ace_fourteen else 13
        ace = ("an ace counts 1 on the table and in builds; played from the hand to capture it "
               "counts 1 or 14, as the player chooses" if o.ace_fourteen else
               "an ace counts 1 everywhere")
        lines += [f"- Number cards their pips, J 11, Q 12, K 13; {ace}.",
                  f"- The highest build is {top}."]
    else:
        court = ("a court card takes every loose card of its rank it chooses"
                 if o.court_cards_take_all else
                 "a court card captures exactly one loose court card of the same rank")
        lines += ["- Ace 1, number cards their pips. J, Q and K have no value: they never sum "
                  f"and never build; {court}.",
                  "- The highest build is 10."]
    lines += [
        "",
        "## A turn: play one card from the hand",
        "- **Capture**: take one or more disjoint groups of the played card's value — a loose "
        "card of that value, loose cards adding up to it, or a whole build of that value (a "
        "build is never part of a sum). Every loose card of the value is a group of its own. "
        "Taking everything on the table is a sweep; the next player can only trail.",
        "- **Build**: the played card with at least one card already on the table. A new build "
        "is the card, alone or with loose cards, making its value, and may take in further "
        "loose groups of that value at once (a multiple build: a 5 played on a loose 5 builds "
        "fives). A single build may be raised by one "
        "card from the hand (loose cards never raise it, but loose groups of the new value may "
        "be taken in, making it multiple)"
        + (" — only a build owned by an opponent" if not r.raise_own_build else
           " — any single build, your own too") + ". A card, alone or with loose cards, "
        "making the value of a build joins it (it becomes or stays multiple), with any further "
        "loose groups of that value. Multiple builds never change value; builds never merge; "
        "builds of the same value may stand side by side.",
        "- The owner of a build is the last player to create, raise or add to it. No move may "
        "leave a player owning a build without holding a card that captures its value"
        + (" (one ace backs either a build of 1 or a build of 14, not both)" if r.ace_dual
           else "") + ". Only the current owner is bound; an owner may own several builds.",
        "- With 4 players, partners may not raise or add to each other's builds, but may "
        "capture them.",
    ]
    trail = "- **Trail**: lay the card on the table. An owner of a build may not trail."
    if r.trail_rule == "no_match":
        trail += (" A card of the same value as a loose card may not be trailed (capturing "
                  "stays optional otherwise).")
    elif r.trail_rule == "no_capture":
        trail += " A card that could capture may not be trailed."
    else:
        trail += " A card that could capture may still be trailed."
    lines.append(trail)
    sweeps = "Sweeps score 1 each" if r.sweeps_score else "Sweeps do not score"
    lines += [
        "",
        "## End of the hand and scoring",
        "- Cards left on the table go to the last player who captured (never a sweep); if "
        "nobody captured, to nobody. A capture with the hand's last card that empties the "
        "table is a sweep.",
        "- Most cards 3 and most spades 1 (strictly more than every other side; a tie scores "
        "nobody), big casino (10♦) 2, little casino (2♠) 1, each ace 1.",
    ]
    if royal:
        t = o.target
        lines.append(
            f"- {sweeps}; opposing sweeps cancel one for one (with three players each scores "
            "its sweeps less the most of any other, never below 0). A side that starts the "
            f"hand on {t - 3} or more scores no sweeps, but its sweeps still cancel.")
        if t > 3:
            lines += [
                f"- Near the target: a side starting a hand on {t - 3} scores only most cards, "
                f"on {t - 2} only big casino, on {t - 1} only little casino; each lands it on "
                f"{t} and wins outright, before any side that passed {t} by normal scoring; "
                "otherwise it scores nothing that hand. Two sides landing on the target this "
                f"way play another hand. Sides starting on {t} or more (after a tie) score "
                "everything but sweeps.",
            ]
        lines.append("- Each side's score row lists the aces it scored in the order spades, "
                     "clubs, hearts, diamonds.")
    else:
        lines.append(f"- {sweeps}; sweeps never cancel.")
    lines += [
        "",
        "## Winning",
        f"- The target is {o.target}. When sides reach it (at or above) in one hand, the "
        "highest total wins; equal highest totals play another hand.",
    ]
    return "\n".join(lines) + "\n"
