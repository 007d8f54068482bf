"""Network play: the game over net sessions (host, client, discovery)."""
