"""All Fours, the Trinidad card game, as a multiplayer table in the browser."""
