"""Services: files on disk, the plugin loader, the match library, the server, tournaments.
They use the engine and import no application."""
