"""Canasta for cardcore: partnership rummy with two decks and jokers (D24-D47)."""
