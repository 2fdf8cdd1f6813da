"""`make run`: serve the game (the server arrives with the server issue)."""

print("The All Fours server is not built yet: only the rules engine exists so far.")
