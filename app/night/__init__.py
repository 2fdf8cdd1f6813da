"""Club night: several tables, rounds, standings in bullseyes (issue #27).

The pure core (no I/O): ``pairing`` draws the rounds of each format, ``standings`` ranks the
pairs from the tables' results, ``awards`` reads the side prizes off the game records, and
``plan`` says what the next round of a night is. The services (app/services/nights.py) keep
a night in the database and open its tables as ordinary rooms.
"""
