"""royal_casino for cardcore (in progress)."""
