"""Royal Casino's parts of the rules text: packets of four, valued court cards and aces
1 or 14, cancelling sweeps and the near-target rule."""

from __future__ import annotations

from cardcore_casino.text import RulesText
from cardcore_royal_casino.options import RoyalCasinoOptions
from cardcore_royal_casino.words import _


class RoyalCasinoText(RulesText[RoyalCasinoOptions]):
    def deal(self) -> list[str]:
        return [_("- Deal in packets of four: each non-dealer, four face up to the table, "
                  "then the dealer.")]

    def values(self) -> list[str]:
        o = self.options
        top = 14 if o.ace_fourteen else 13
        if o.ace_fourteen:
            ace = _("an ace counts 1 on the table and in builds; played from the hand to "
                    "capture it counts 1 or 14, as the player chooses")
        else:
            ace = _("an ace counts 1 everywhere")
        return [_("- Number cards their pips, J 11, Q 12, K 13; {ace}.").format(ace=ace),
                _("- The highest build is {top}.").format(top=top)]

    def sweeps(self, sweeps: str) -> list[str]:
        t = self.options.target
        lines = [
            _("- {sweeps}; opposing sweeps cancel one for one (with three players each scores "
              "its sweeps less the most of any other, never below 0). A side that starts the "
              "hand on {near} or more scores no sweeps, but its sweeps still cancel.").format(
                sweeps=sweeps, near=t - 3)]
        if t > 3:
            lines.append(
                _("- Near the target: a side starting a hand on {t3} scores only most cards, "
                  "on {t2} only big casino, on {t1} only little casino; each lands it on "
                  "{t} and wins outright, before any side that passed {t} by normal scoring; "
                  "otherwise it scores nothing that hand. Two sides landing on the target this "
                  "way play another hand. Sides starting on {t} or more (after a tie) score "
                  "everything but sweeps.").format(t3=t - 3, t2=t - 2, t1=t - 1, t=t))
        lines.append(_("- Each side's score row lists the aces it scored in the order spades, "
                       "clubs, hearts, diamonds."))
        return lines
