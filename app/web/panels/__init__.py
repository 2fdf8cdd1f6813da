"""The table page in panels: each module turns one viewer's RoomView into one frozen panel the
templates read (``page.<panel>.<field>``).

A panel that needs another's result takes that panel as an argument, so the order in which
``app.web.table.build`` makes them is the order their signatures force, and nothing else:

    seats(view)                        who sits where, round the table from the viewer
    score(view, seats)                 the teams, their chalk, the winner
    clocks(view)                       the countdowns (away, turn timer, reckoning)
    hand(view)                         the viewer's cards, playable or not and why
    decision(view, seats)              the beg buttons and what each choice does
    lifts(view, seats)                 the lift on the table and the last one
    kicks(view, seats, score)          trump and the kicks
    status(view, seats, score)         the status sentence, the page's title, start, nudge
    awards(view, seats, score)         the last hand's awards
    match(view, score)                 the match of more than one game (or None)
    renege(view, seats, score)         renege mode's calls, verdicts and reckoning
    away(view)                         what the computer played for the viewer while away
    news(view, seats, kicks, lifts, awards, renege, away, status, match)
                                       the live region's sentences, each said once
"""
