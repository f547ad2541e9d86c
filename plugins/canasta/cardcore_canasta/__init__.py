"""canasta for cardcore (in progress)."""
