"""Royal Casino's parts of the rules text: packets of four, valued court cards and aces
1 or 14, cancelling sweeps and the near-target rule."""

from __future__ import annotations

from cardcore_casino.text import RulesText
from cardcore_royal_casino.options import RoyalCasinoOptions


class RoyalCasinoText(RulesText[RoyalCasinoOptions]):
    def deal(self) -> list[str]:
        return ["- Deal in packets of four: each non-dealer, four face up to the table, "
                "then the dealer."]

    def values(self) -> list[str]:
        o = self.options
        top = 14 if o.ace_fourteen else 13
        ace = ("an ace counts 1 on the table and in builds; played from the hand to capture it "
               "counts 1 or 14, as the player chooses" if o.ace_fourteen else
               "an ace counts 1 everywhere")
        return [f"- Number cards their pips, J 11, Q 12, K 13; {ace}.",
                f"- The highest build is {top}."]

    def sweeps(self, sweeps: str) -> list[str]:
        t = self.options.target
        lines = [
            f"- {sweeps}; opposing sweeps cancel one for one (with three players each scores "
            "its sweeps less the most of any other, never below 0). A side that starts the "
            f"hand on {t - 3} or more scores no sweeps, but its sweeps still cancel."]
        if t > 3:
            lines.append(
                f"- Near the target: a side starting a hand on {t - 3} scores only most cards, "
                f"on {t - 2} only big casino, on {t - 1} only little casino; each lands it on "
                f"{t} and wins outright, before any side that passed {t} by normal scoring; "
                "otherwise it scores nothing that hand. Two sides landing on the target this "
                f"way play another hand. Sides starting on {t} or more (after a tie) score "
                "everything but sweeps.")
        lines.append("- Each side's score row lists the aces it scored in the order spades, "
                     "clubs, hearts, diamonds.")
        return lines
