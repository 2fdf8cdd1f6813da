"""Each pair's standings line counted straight from a night's export, independently of
app/night/standings.py: what the night tests and bench.night check the night's own
standings against."""

from __future__ import annotations

from typing import Any

from app.verify import check

Json = dict[str, Any]


def independent_standings(export: Json) -> dict[int, Json]:
    """Each pair's line counted straight from the exported game records (and the byes)."""
    to = export["night"]["options"]["match"]
    lines: dict[int, Json] = {}
    for p in export["night"]["pairs"]:
        lines[p["pair"]] = dict.fromkeys(
            (
                "played",
                "wins",
                "losses",
                "bullseyes_for",
                "bullseyes_against",
                "hang_jacks_for",
                "hang_jacks_against",
                "chalk_difference",
            ),
            0,
        )
    matches: dict[tuple[int, int], Json] = {}
    for g in export["games"]:
        check(g["record"])  # raises unless the record checks out against its seed
        key = (g["round"], g["table"])
        m = matches.setdefault(key, {"pairs": g["pairs"], "b": [0, 0], "h": [0, 0], "c": [0, 0]})
        rec = g["record"]
        m["b"][rec["winner"]] += 1
        for side in (0, 1):
            m["c"][side] += rec["scores"][side]
        for hand in rec["hands"]:
            for a in hand["awards"]:
                if a["kind"] == "hang_jack":
                    m["h"][a["team"]] += 1
    per_round: dict[int, list[int]] = {}
    for (rnd, _), m in matches.items():
        assert max(m["b"]) == to
        per_round.setdefault(rnd, []).extend(m["b"])
        for side in (0, 1):
            line = lines[m["pairs"][side]]
            won = m["b"][side] == to
            line["played"] += 1
            line["wins" if won else "losses"] += 1
            line["bullseyes_for"] += m["b"][side]
            line["bullseyes_against"] += m["b"][1 - side]
            line["hang_jacks_for"] += m["h"][side]
            line["hang_jacks_against"] += m["h"][1 - side]
            line["chalk_difference"] += m["c"][side] - m["c"][1 - side]
    for r in export["night"]["rounds"]:
        if r["bye"] is not None:
            scored = per_round.get(r["round"], [])
            line = lines[r["bye"]]
            line["played"] += 1
            line["wins"] += 1
            line["bullseyes_for"] += sum(scored) // len(scored) if scored else 0
    return lines
