"""Applications: the ``cardcore`` command and its subcommands, the Textual front end."""
