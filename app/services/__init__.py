"""The rooms, nights and records of this server: what the API and the pages ask of it."""
