"""Clubs and seasons (issue #37): a club's members (profiles), its invite links, its seasons
and the nights of each season, and a season's standings counted on read from the nights as
stored (app/night/season.py), so that a director's correction changes the season at once.

Everything lives in the database (clubs, club_*, seasons): a restart or a second process
loses nothing. Two admins starting a season at once start one: the season's number is unique
in its club, and the club's row is locked while roles or seasons change.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from app.night import club_reasons as why
from app.night.club import ClubRow, MemberRow, SeasonRow
from app.night.reasons import NO_SUCH_NIGHT, NOT_DIRECTOR
from app.night.season import SeasonNight, SeasonTable, Who, guest, profile, season_table
from app.night.standings import Order, Standing
from app.night.state import NightState
from app.players.handles import folded_handle
from app.players.keys import hashed
from app.services import errors
from app.services.commit import drew_code, retried
from app.services.csv_export import CsvWriter
from app.services.identity import check_code, new_token
from app.services.night_view import export_json as night_export_json
from app.services.night_view import night_state
from app.services.nights import Nights, Opened, state_of
from app.services.players import SignedIn
from app.services.privacy import shown_handle
from app.services.quotas import Quotas
from app.store import club_repo as repo
from app.store import night_repo
from app.store.db import read, write

P = ParamSpec("P")
T = TypeVar("T")
Json = dict[str, Any]

COLUMNS = (
    "played",
    "wins",
    "losses",
    "bullseyes_for",
    "bullseyes_against",
    "hang_jacks_for",
    "hang_jacks_against",
    "head_to_head",
    "chalk_difference",
)


@dataclass(frozen=True, slots=True)
class ClubOpened:
    code: str


@dataclass(frozen=True, slots=True)
class SeasonOfClub:
    """A season and what its standings are counted from."""

    club: ClubRow
    season: SeasonRow
    nights: list[SeasonNight]
    codes: list[str]
    names: dict[Who, Json]  # who -> {"handle", "name"} or {"name"}


class Clubs:
    def __init__(self, engine: Engine, nights: Nights, quotas: Quotas | None = None) -> None:
        self.engine = engine
        self.nights = nights
        self.quotas = quotas or Quotas()

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """A use case from the event loop, in a worker thread."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- reading -----------------------------------------------------------------------

    def _club(self, conn: Connection, code: str) -> ClubRow:
        check_code(code)
        found = repo.club_by_code(conn, code)
        if found is None:
            raise errors.NotFound(why.NO_CLUB, code=code)
        return found

    def _admin(self, conn: Connection, club: ClubRow, me: SignedIn) -> list[MemberRow]:
        members = repo.members_of(conn, club.id)
        if not any(m.player_id == me.player.id and m.role == "admin" for m in members):
            raise errors.Forbidden(why.NOT_ADMIN)
        return members

    def club(self, code: str, me: SignedIn | None = None) -> Json:
        """The club as ``GET /api/clubs/{code}`` answers it to ``me``: members, seasons,
        nights and the standings of its latest season; an unlisted player's handle only to
        the club's members (app/services/privacy.py)."""
        viewer = me.player.id if me is not None else None
        with read(self.engine) as conn:
            club = self._club(conn, code)
            members = repo.members_of(conn, club.id)
            among = any(m.player_id == viewer for m in members)
            seasons = repo.seasons_of(conn, club.id)
            nights = repo.nights_of(conn, club.id)
            loaded = {n.code: state_of(conn, n.code) for n in nights}
            latest = (
                self._season_of(conn, club, seasons[-1], loaded, viewer=viewer, among=among)
                if seasons
                else None
            )
        states = {code: night_state(state) for code, state in loaded.items()}
        return {
            "code": club.code,
            "name": club.name,
            "order": club.standings,
            "members": [
                {
                    "handle": shown_handle(
                        m.handle, listed=m.listed, player=m.player_id, viewer=viewer, among=among
                    ),
                    "name": m.name,
                    "role": m.role,
                }
                for m in members
            ],
            "seasons": [season_json(s) for s in seasons],
            "nights": [
                {
                    "code": n.code,
                    "name": n.name,
                    "season": n.season,
                    "state": states[n.code][0],
                    "winner": states[n.code][1],
                    "url": f"/n/{n.code}",
                }
                for n in nights
            ],
            "standings": standings_json(latest) if latest else None,
        }

    def mine(self, me: SignedIn) -> list[Json]:
        """The clubs the player is a member of."""
        with read(self.engine) as conn:
            found = repo.clubs_of_player(conn, me.player.id)
        return [{"code": c, "name": n, "role": r, "url": f"/c/{c}"} for c, n, r in found]

    def role_of(self, code: str, me: SignedIn | None) -> str | None:
        """The signed-in player's role in the club (None: not a member)."""
        if me is None:
            return None
        with read(self.engine) as conn:
            club = self._club(conn, code)
            members = repo.members_of(conn, club.id)
        return next((m.role for m in members if m.player_id == me.player.id), None)

    def season(self, code: str, number: int, me: SignedIn | None = None) -> SeasonOfClub:
        """A season as ``me`` is shown it (a stranger: an unlisted player's name alone)."""
        viewer = me.player.id if me is not None else None
        with read(self.engine) as conn:
            club = self._club(conn, code)
            found = [s for s in repo.seasons_of(conn, club.id) if s.number == number]
            if not found:
                raise errors.NotFound(why.NO_SUCH_SEASON, season=number)
            among = any(m.player_id == viewer for m in repo.members_of(conn, club.id))
            return self._season_of(conn, club, found[0], viewer=viewer, among=among)

    def _season_of(
        self,
        conn: Connection,
        club: ClubRow,
        season: SeasonRow,
        loaded: dict[str, NightState] | None = None,
        *,
        viewer: int | None = None,
        among: bool = True,
    ) -> SeasonOfClub:
        """The season's nights and names; ``viewer`` (not ``among`` the members) is shown an
        unlisted player's name alone."""
        nights: list[SeasonNight] = []
        codes: list[str] = []
        names: dict[Who, Json] = {}
        profiles: dict[int, dict[tuple[int, int], int]] = {}
        for n in repo.nights_of(conn, club.id):
            if n.season != season.number:
                continue
            state = loaded[n.code] if loaded else state_of(conn, n.code)
            profiles[n.night_id] = repo.profiles_of_night(conn, n.night_id)
            partners: dict[int, tuple[Who, Who]] = {}
            for pair in state.pairs:
                two: list[Who] = []
                for slot, name in enumerate(pair.names[:2]):
                    pid = profiles[n.night_id].get((pair.number, slot))
                    who = profile(pid) if pid is not None else guest(str(name))
                    names.setdefault(who, {"name": str(name)})
                    two.append(who)
                partners[pair.number] = (two[0], two[1])
            nights.append(SeasonNight(state, partners))
            codes.append(n.code)
        ids = {pid for found in profiles.values() for pid in found.values()}
        for pid, (handle, name, listed) in repo.handles_of(conn, ids).items():
            shown = shown_handle(handle, listed=listed, player=pid, viewer=viewer, among=among)
            names[profile(pid)] = {"handle": shown, "name": name} if shown else {"name": name}
        return SeasonOfClub(club, season, nights, codes, names)

    # -- the admins' and members' changes -------------------------------------------------

    def open(self, me: SignedIn, name: str, order: Order = "wins_first") -> ClubOpened:
        self.quotas.clubs.take(me.player.handle)

        def insert(conn: Connection, code: str) -> ClubOpened:
            club_id = repo.insert_club(conn, code=code, name=name, standings=order)
            repo.add_member(conn, club_id, me.player.id, "admin")
            return ClubOpened(code)

        return drew_code(self.engine, insert, busy=why.BUSY)

    def invite(self, me: SignedIn, code: str) -> str:
        """A new invite link's token (only its hash is kept)."""
        token = new_token()
        with write(self.engine) as conn:
            club = self._club(conn, code)
            self._admin(conn, club, me)
            self.quotas.club_invites.take(me.player.handle)
            repo.insert_invite(conn, club.id, hashed(token))
        return token

    def revoke_invites(self, me: SignedIn, code: str) -> int:
        with write(self.engine) as conn:
            club = self._club(conn, code)
            self._admin(conn, club, me)
            return repo.revoke_invites(conn, club.id, datetime.now(UTC))

    def _invite(self, conn: Connection, club: ClubRow, invite: str) -> None:
        """The invite is the club's and stands: else 404, or 410 once revoked."""
        found = repo.invite_by_hash(conn, hashed(invite[:200]))
        if found is None or found[0] != club.id:
            raise errors.NotFound(why.NO_INVITE)
        if found[1] is not None:
            raise errors.Gone(why.INVITE_GONE)

    def invited(self, code: str, invite: str, me: SignedIn | None) -> Json:
        """What an invite link's page shows before anyone presses Join: the club's name and
        the reader's role in it (None: not a member). Joins nothing."""
        with read(self.engine) as conn:
            club = self._club(conn, code)
            self._invite(conn, club, invite)
            members = repo.members_of(conn, club.id) if me is not None else []
        role = next((m.role for m in members if me and m.player_id == me.player.id), None)
        return {"code": club.code, "name": club.name, "role": role}

    def join(self, me: SignedIn, code: str, invite: str) -> Json:
        with write(self.engine) as conn:
            club = self._club(conn, code)
            self._invite(conn, club, invite)
            members = repo.members_of(conn, club.id)
            mine = [m for m in members if m.player_id == me.player.id]
            if not mine:
                repo.add_member(conn, club.id, me.player.id, "member")
            role = mine[0].role if mine else "member"
        return {"handle": me.player.handle, "name": me.player.name, "role": role}

    def _member(self, members: Sequence[MemberRow], handle: str) -> MemberRow:
        folded = folded_handle(handle)
        found = [m for m in members if m.handle == folded]
        if not found:
            raise errors.NotFound(why.NOT_A_MEMBER, handle=handle[:40])
        return found[0]

    def remove(self, me: SignedIn, code: str, handle: str) -> None:
        """An admin removes a member (or a member leaves). Their nights stay counted."""
        with write(self.engine) as conn:
            club = self._club(conn, code)
            repo.lock_club(conn, club.id)
            members = repo.members_of(conn, club.id)
            gone = self._member(members, handle)
            if gone.player_id != me.player.id:
                self._admin(conn, club, me)
            admins = [m for m in members if m.role == "admin"]
            if gone.role == "admin" and len(admins) == 1:
                raise errors.Conflict(why.LAST_ADMIN)
            repo.remove_member(conn, club.id, gone.player_id)

    def name_admin(self, me: SignedIn, code: str, handle: str) -> Json:
        with write(self.engine) as conn:
            club = self._club(conn, code)
            repo.lock_club(conn, club.id)
            members = self._admin(conn, club, me)
            named = self._member(members, handle)
            repo.set_role(conn, club.id, named.player_id, "admin")
        return {"handle": named.handle, "name": named.name, "role": "admin"}

    def start_season(
        self, me: SignedIn, code: str, name: str, after: int | None = None
    ) -> SeasonRow:
        """Starts the club's next season, ending the running one. ``after``: the season the
        admin saw as the latest (0: none); another one started meanwhile refuses (409), as
        does a second start of a season of the same name as the running one."""

        def attempt() -> SeasonRow:
            with write(self.engine) as conn:
                club = self._club(conn, code)
                repo.lock_club(conn, club.id)
                self._admin(conn, club, me)
                seasons = repo.seasons_of(conn, club.id)
                last = seasons[-1] if seasons else None
                running = last is not None and last.ended_at is None
                if after is not None and after != (last.number if last else 0):
                    raise errors.Conflict(why.SEASON_CHANGED)
                if running and last is not None and last.name == name:
                    raise errors.Conflict(why.SEASON_CHANGED)
                number = (last.number if last else 0) + 1
                now = datetime.now(UTC)
                season_id = repo.start_season(conn, club.id, number, name, now)
                return SeasonRow(season_id, number, name, now, None)

        def taken() -> None:
            raise errors.Conflict(why.SEASON_CHANGED)

        return retried(attempt, busy=why.BUSY, taken=taken)

    # -- the club's nights ---------------------------------------------------------------

    def night_opening(self, me: SignedIn | None, code: str) -> int:
        """The club a night an admin opens will belong to (refused without a running
        season, before the night is opened)."""
        if me is None:
            raise errors.Forbidden(why.NOT_ADMIN)
        with read(self.engine) as conn:
            club = self._club(conn, code)
            self._admin(conn, club, me)
            seasons = repo.seasons_of(conn, club.id)
            if not seasons or seasons[-1].ended_at is not None:
                raise errors.Conflict(why.NO_SEASON)
            return club.id

    def open_night(self, me: SignedIn | None, club: str, **night: Any) -> Opened:
        """A night of the club's running season (an admin's), ``night`` as Nights.open."""
        club_id = self.night_opening(me, club)
        opened = self.nights.open(**night)
        self.attach(opened.code, club_id)
        return opened

    def take_night(self, me: SignedIn, club: str, night: str, director: str) -> int:
        """An admin who directs a night opened without a club puts it in the club's running
        season (its number); a night of a club already refuses (409: nights never move)."""
        club_id = self.night_opening(me, club)
        state = self.nights.load(night)
        if not self.nights.is_director(state, director[:200]):
            raise errors.Forbidden(NOT_DIRECTOR)
        return self.attach(night, club_id)

    def attach(self, night: str, club_id: int) -> int:
        """The night joins the club's running season (its number, read in the same
        transaction: a season started meanwhile takes it); a night of a club refuses (409)."""
        try:
            with write(self.engine) as conn:
                row = night_repo.night_by_code(conn, night)
                if row is None:
                    raise errors.NotFound(NO_SUCH_NIGHT, code=night)
                if repo.club_of_night(conn, row.id) is not None:
                    raise errors.Conflict(why.NIGHT_IN_A_CLUB, night=night)
                seasons = repo.seasons_of(conn, club_id)
                if not seasons or seasons[-1].ended_at is not None:
                    raise errors.Conflict(why.NO_SEASON)
                repo.add_night(conn, row.id, club_id, seasons[-1].id)
                return seasons[-1].number
        except IntegrityError:
            raise errors.Conflict(why.NIGHT_IN_A_CLUB, night=night) from None

    # -- exports -------------------------------------------------------------------------

    def export_json(self, code: str, number: int, me: SignedIn | None = None) -> Json:
        season = self.season(code, number, me)
        return {
            "club": {"code": season.club.code, "name": season.club.name},
            "season": season_json(season.season),
            "standings": standings_json(season),
            "nights": [night_export_json(n.state, self.nights.record) for n in season.nights],
        }

    def export_csv(self, code: str, number: int, me: SignedIn | None = None) -> str:
        season = self.season(code, number, me)
        table = count(season)
        out = io.StringIO()
        writer = CsvWriter(out)
        writer.writerow(["kind", "rank", "players", "nights", *COLUMNS])
        for kind, lines in (("pair", table.pairs), ("player", table.players)):
            for line in lines:
                names = " & ".join(_label(season.names, w) for w in line.who)
                writer.writerow(
                    [kind, line.line.rank, names, line.nights, *_columns(line.line).values()]
                )
        return out.getvalue()


def club_of_night(engine: Engine, night_id: int) -> Json | None:
    """The club and season a night belongs to (its pages link back to the club's)."""
    with read(engine) as conn:
        found = repo.club_for_night(conn, night_id)
    if found is None:
        return None
    code, name, season = found
    return {"code": code, "name": name, "season": season, "url": f"/c/{code}"}


def count(season: SeasonOfClub) -> SeasonTable:
    return season_table(season.nights, season.club.standings)  # type: ignore[arg-type]


def season_json(s: SeasonRow) -> Json:
    return {
        "number": s.number,
        "name": s.name,
        "started_at": s.started_at.isoformat(),
        "ended_at": s.ended_at.isoformat() if s.ended_at else None,
    }


def _label(names: dict[Who, Json], who: Who) -> str:
    return str(names.get(who, {}).get("name", who))


def _columns(s: Standing) -> Json:
    return {c: getattr(s, c) for c in COLUMNS}


def standings_json(season: SeasonOfClub) -> Json:
    table = count(season)

    def line(line: Any) -> Json:
        return {
            "rank": line.line.rank,
            "players": [season.names.get(w, {"name": w}) for w in line.who],
            "nights": line.nights,
            **_columns(line.line),
        }

    return {
        "season": season.season.number,
        "name": season.season.name,
        "order": season.club.standings,
        "nights": len(season.nights),
        "pairs": [line(x) for x in table.pairs],
        "players": [line(x) for x in table.players],
        "awards": [
            {
                "kind": a.award.kind,
                "players": [season.names.get(w, {"name": w}) for w in a.who],
                "value": a.award.value,
                **({"suit": a.award.suit} if a.award.suit else {}),
                **({"night": season.codes[a.night]} if a.award.round is not None else {}),
            }
            for a in table.awards
        ],
    }
