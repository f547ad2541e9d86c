"""Canasta's messages: its gettext domain (docs/languages.md).

Every sentence the game shows people (labels, log lines, why-not reasons, zone titles and
badges, the rules text) is marked with ``_`` and read in the language in use.
"""

from __future__ import annotations

from cardcore.language import N_, Domain

DOMAIN = Domain("cardcore_canasta", "cardcore_canasta")
_ = DOMAIN.gettext

#: The score rows' keys as the score sheet words them (the key, "_" as a space), and how a
#: hand ended (``end``), for the front ends to look up with ``Game.translate``.
SHEET_WORDS = (N_("melded"), N_("natural canastas"), N_("mixed canastas"), N_("red threes"),
               N_("going out"), N_("concealed"), N_("in hand"), N_("canastas"), N_("melds"),
               N_("stock"))
