"""Crazy Eights: an example third-party cardcore game."""
