"""Registers the game."""
