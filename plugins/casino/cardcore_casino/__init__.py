"""casino for cardcore (in progress)."""
