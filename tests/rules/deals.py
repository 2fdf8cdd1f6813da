"""Hand-made deals whose play and scoring are worked out by hand, for the scoring tests.

Each is for dealer 0 with hearts trump (kick 3H, which scores nothing, then stand); seat 1
leads. ``rotate(hands, k)`` with dealer ``k`` gives the same deal moved round the table.
"""

from __future__ import annotations

# Seat 1 leads AH and catches seat 2's JH (hang jack); then seat 1 leads clubs and no one
# can follow or trump, so team 1 lifts everything. Trumps dealt: AH(1) JH(2) 2H(3) 4H(0).
# Awards: high t1 (AH), low t1 (2H), hang_jack t1 3 (JH of seat 2), game t1 (25 to 0).
HANG = {
    1: "AH 2C 3C 4C 5C 6C",
    2: "JH 2D 3D 4D 5D 6D",
    3: "2H 7D 8D 9D TD JD",
    0: "4H QD KD AD 2S 3S",
}
HANG_PLAY = "AH JH 2H 4H  2C 2D 7D QD  3C 3D 8D KD  4C 4D 9D AD  5C 5D TD 2S  6C 6D JD 3S"

# As HANG with AH and 4H swapped: seat 0 takes its partner's JH with the AH, then leads out.
# Awards: high t0 (AH, seat 0), low t1 (2H, seat 3), jack t0 1 (JH, seat 2), game t0.
JACK_OWN = {
    1: "4H 2C 3C 4C 5C 6C",
    2: "JH 2D 3D 4D 5D 6D",
    3: "2H 7D 8D 9D TD JD",
    0: "AH QD KD AD 2S 3S",
}
JACK_OWN_PLAY = "4H JH 2H AH  QD 2C 2D 7D  KD 3C 3D 8D  AD 4C 4D 9D  2S 5C 5D TD  3S 6C 6D JD"

# Only one trump is dealt (2H, seat 2): it is High and Low. The JH stays in the stock.
# Team 1 lifts the TC, team 0 the TD; nothing else counts: Game ties 10 to 10.
TIE = {
    1: "TC 2C 3C 4C 5C 6C",
    2: "2H TD 2D 3D 4D 5D",
    3: "6D 7D 8D 9D 7S 8S",
    0: "2S 3S 4S 5S 6S 9S",
}
TIE_PLAY = "TC 2D 7S 2S  2C 2H 8S 3S  TD 6D 4S 3C  3D 7D 5S 4C  8D 6S 5C 4D  9D 9S 6C 5D"

# The seed's example, for dealer 1 (team 1) and the beggar seat 2 (team 0) leading:
# team 0 gets High (AH), team 1 Low (2H), Jack (JH, seat 1, lifted by seat 1) and Game
# (team 0 lifts AH KH = 7, team 1 TC JH TS TD QD = 33).
EXAMPLE = {
    2: "AH 2C 3C 4C 5C 6C",
    3: "2H TD TC 8D 9D QD",
    0: "2D 3D 4D 5D 6D 7D",
    1: "KH JH TS 9S 8S 7S",
}
EXAMPLE_PLAY = "AH 2H 2D KH  2C TC 3D JH  TS 3C TD 4D  9S 4C QD 5D  8S 5C 8D 6D  7S 6C 9D 7D"
