"""Canasta for cardcore: partnership rummy with two decks and jokers (DECISIONS 24-42)."""
