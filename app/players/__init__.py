"""Players (issue #34): what a profile is, without the server around it: handles, keys and
the seat tokens derived from them, ratings. Pure: the services store and serve them."""
