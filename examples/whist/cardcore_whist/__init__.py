"""Whist: an example trick-taking cardcore game (the kit's trick part)."""
