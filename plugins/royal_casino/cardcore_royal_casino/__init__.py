"""Royal Casino for cardcore: the fishing engine of ``cardcore_casino``, configured."""
