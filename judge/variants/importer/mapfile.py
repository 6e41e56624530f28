"""Read DPjudge `.map` files (with the files they `USE`) into plain data.

The syntax is DPjudge's (its pages/Map; MIT, Copyright 2017 Manus Hand): place-name lines
`Name = abbr alias...`, terrain lines `COAST|LAND|WATER|PORT|SHUT|AMEND abbr ABUTS abut...` whose
letter case says which units may cross, power lines `NAME (ADJECTIVE:L) HOME...`, unit lines
`A BUD`, and directives (USE, MAP, DROP, UNOWNED, UNPLAYED, BEGIN, FLOW, VICTORY, RULE...).
What the judge has no rule for is kept in `MapData.needs`, each with the line that asked for it,
so that a variant needing more than the judge's hooks is named, never silently half-imported.
This is a tool: the judge never reads `.map` files while it runs.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

TERRAINS = ("COAST", "LAND", "WATER", "PORT", "SHUT")
# Home-centre prefixes DPjudge gives meanings the judge has no rule for.
HOME_MARKS = {"&": "claimable home centres (&SC)", "+": "factory build sites (+X)"}
# The marks the judge has hooks for, kept with the power: `*` (judge/engine/partisans.py), `@` and `~`
# (judge/engine/alternative_homes.py).
READ_MARKS = "*@~"
# Directives that are about running games on DPjudge's web site, not about the board or rules.
IGNORED = {"TEXTONLY", "FLAGS", "FLAG", "ROTATE", "NOTIFY", "DESC", "DESCRIPTION", "NAME"}


class MapError(ValueError):
    """A line the importer cannot read (names its file and line)."""


@dataclass
class Place:
    name: str
    aliases: list[str]


@dataclass
class Terrain:
    kind: str              # COAST, LAND, WATER, PORT or SHUT
    fleet_ok: bool         # the abbreviation was not written in lower case
    abuts: list[str]       # as written: case and marks carry meaning


@dataclass
class PowerData:
    id: str
    name: str
    adjective: str
    letter: str
    homes: list[str] = field(default_factory=list)
    owns: list[str] | None = None
    units: list[tuple[str, str]] = field(default_factory=list)   # (A|F, location)
    alternatives: list[tuple[str, list[str]]] = field(default_factory=list)  # @X(Y,Z): X in place of Y or Z
    hidden: list[str] = field(default_factory=list)                           # ~X: builds there hidden
    partisan_sites: list[str] = field(default_factory=list)      # *X: build sites while some homes are lost


@dataclass
class MapData:
    places: dict[str, Place] = field(default_factory=dict)       # abbreviation (lower) -> names
    terrain: dict[str, Terrain] = field(default_factory=dict)    # abbreviation (lower) -> terrain line
    powers: dict[str, PowerData] = field(default_factory=dict)
    unowned: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    begin: str | None = None
    flow: list[str] = field(default_factory=list)
    victory: list[int] = field(default_factory=list)
    unplayed: list[str] = field(default_factory=list)
    new_homes: int | None = None                                  # NEWHOMES year: homes become the centres owned
    dummies: list[str] = field(default_factory=list)              # powers nobody plays (DUMMY)
    in_phase: list[tuple[str, PowerData]] = field(default_factory=list)  # IN W1939A: a power's marks then
    # IN SEASON: WATER XXX over a SHUT XXX: the space's terrain while open, and the seasons it is open
    seasonal: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    needs: list[str] = field(default_factory=list)                # what no hook of the judge covers
    renamed: list[str] = field(default_factory=list)              # what the import changed, and why
    files: list[str] = field(default_factory=list)

    def need(self, what: str) -> None:
        if what not in self.needs:
            self.needs.append(what)


def base(abbr: str) -> str:
    return abbr.split("/")[0].lower()


def read_map(path: str | Path, search: tuple[Path, ...] = ()) -> MapData:
    """Read a `.map` file and everything it uses (looked up beside it, then in `search`)."""
    data = MapData()
    _Reader(data, (Path(path).parent, *map(Path, search))).read(Path(path).name)
    _open_seasonal_spaces(data)
    return data


def _open_seasonal_spaces(data: MapData) -> None:
    """A space shut but in some seasons gets the terrain it has while open (its borders are those of
    that terrain); the seasons are kept in `seasonal` for the converter. Any other change by season
    is a need."""
    for abbr, (kind, seasons) in list(data.seasonal.items()):
        line = data.terrain.get(abbr)
        if line is None or line.kind != "SHUT":
            del data.seasonal[abbr]
            data.need(f"map changes during play (IN/FROM): IN {' '.join(seasons)}: {kind} {abbr.upper()} "
                      f"over a space that is not SHUT")
            continue
        line.kind = kind


class _Reader:
    def __init__(self, data: MapData, folders: tuple[Path, ...]) -> None:
        self.data = data
        self.folders = folders
        self.power: PowerData | None = None
        self.dynamic = False        # inside IN/FROM lines: applied only in some phases
        self.in_phase: str | None = None    # inside `IN W1939A` lines: the phase
        self.in_power: PowerData | None = None  # and the power they name
        self.stanza: str | None = None  # inside a DIRECTIVES stanza ("" for every game)

    def read(self, name: str) -> None:
        tries = [name] if name.lower().endswith((".map", ".geography", ".politics", ".military",
                                                 ".locations")) else [name, f"{name}.map"]
        path = next((f / t for f in self.folders for t in tries if (f / t).is_file()), None)
        if path is None:
            raise MapError(f"{name}: no such map file in {', '.join(map(str, self.folders))}")
        self.data.files.append(path.name)
        for number, raw in enumerate(path.read_text(encoding="latin-1").splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                self.line(line)
            except MapError:
                raise
            except (ValueError, IndexError, KeyError) as e:
                raise MapError(f"{path.name}:{number}: cannot read {line!r} ({e})") from None

    # -- one line -------------------------------------------------------------------------------
    def line(self, line: str) -> None:
        words = line.split()
        head = words[0].upper()
        d = self.data
        if self.stanza is not None:
            if head == "END":
                self.stanza = None
            elif self.stanza not in ("", "STANDARD"):
                pass    # for DPjudge's other kinds of game (PAYOLA DIRECTIVES): this judge plays standard games
            elif head in ("RULE", "RULES"):
                self.rules(words[1:])
            else:
                d.need(f"DIRECTIVES stanza: {line}")
            return
        if self.dynamic:
            if head == "FROM" and len(words) > 1 and words[1].upper() == "START":
                self.dynamic = False
            elif not self.phase_homes(words):
                d.need(f"map changes during play (IN/FROM): {line}")
            return
        if "=" in line:
            return self.place(line)
        if head in ("USE", "USES", "MAP"):
            for name in words[1:]:
                self.read(name)
            return
        if head in TERRAINS or head == "AMEND":
            return self.terrain_line(words)
        if head in ("DIRECTIVE", "DIRECTIVES") or (len(words) == 2 and words[1].upper() in ("DIRECTIVE", "DIRECTIVES")):
            self.stanza = "" if head.startswith("DIRECTIVE") else head
            return
        if head in ("IN", "FROM"):
            if ":" in line:
                self.in_season(line)
            else:
                self.dynamic = not (head == "FROM" and words[1:2] == ["START"])
                code = words[1].upper() if len(words) == 2 else ""
                self.in_phase = code if head == "IN" and re.fullmatch(r"[A-Z]-?\d+[A-Z]", code) else None
                self.in_power = None
                if self.in_phase is None:
                    d.need(f"map changes during play (IN/FROM): {line}")
            return
        if head == "DROP":
            for w in words[1:]:
                self.drop(w.lower())
            return
        if head in ("UNOWNED", "NEUTRAL") or (head == "CENTERS" and self.power is None):
            self.power = None
            for w in words[1:]:
                if w.startswith("-"):
                    if w[1:].lower() in d.unowned:
                        d.unowned.remove(w[1:].lower())
                elif w.lower() not in d.unowned:
                    d.unowned.append(w.lower())
            return
        if head in ("OWNS", "CENTERS"):
            p = self.current(line)
            if head == "CENTERS" or p.owns is None:
                p.owns = []
            for w in words[1:]:
                if w.upper() in ("SC!", "SC?"):
                    d.need(f"builds in an unowned home centre ({w} in OWNS)")
                else:
                    p.owns.append(w.lower())
            return
        if head in ("INHABITS", "HOME", "HOMES"):
            p = self.current(line)
            if head != "INHABITS" or not hasattr(p, "_inhabited"):
                p.homes = []
                p.partisan_sites = []   # (DPjudge: these lines replace partisan sites too)
                p._inhabited = True  # type: ignore[attr-defined]
            self.homes(p, words[1:])
            return
        if head in ("RESERVES", "MILITIA"):
            d.need(f"{head} (extra units beyond the centre count)")
            return
        if head == "UNITS":
            self.current(line).units = []
            return
        if head in ("A", "F") and len(words) == 2 and self.power is not None:
            loc = words[1].lower()
            p = self.power
            p.units = [u for u in p.units if base(u[1]) != base(loc)] + [(head, loc)]
            for other in d.powers.values():
                if other is not p:
                    other.units = [u for u in other.units if base(u[1]) != base(loc)]
            return
        if head == "VICTORY":
            d.victory = [int(w) for w in words[1:]]
            return
        if head == "FLOW":
            if len(words) == 1:
                d.flow = []
            d.flow += [w.upper() for w in words[1:]]
            return
        if head == "BEGIN":
            d.begin = " ".join(w.upper() for w in words[1:])
            return
        if head in ("RULE", "RULES"):
            return self.rules(words[1:])
        if head == "UNPLAYED":
            return self.unplayed(words[1:], line)
        if head in ("DUMMY", "DUMMIES"):
            return self.dummy(words[1:], line)
        if head == "NEWHOMES" and len(words) == 2 and words[1].isdigit():
            d.new_homes = int(words[1])
            return
        if head in ("LEAGUE", "CONTROL", "TEAM", "TEAMS", "NEWHOMES"):
            what = {"LEAGUE": "leagues restricting support and convoy (LEAGUE)",
                    "CONTROL": "dummy powers controlled by others (CONTROL)",
                    "TEAM": "teams of powers (TEAMS)", "TEAMS": "teams of powers (TEAMS)",
                    "NEWHOMES": "home centres reassigned during the game (NEWHOMES)"}[head]
            d.need(f"{what}: {line}")
            return
        if head in IGNORED:
            return
        self.power_line(line)

    def phase_homes(self, words: list[str]) -> bool:
        """Inside `IN <phase>`: a power's name, then its HOMES with other marks in that phase (Zeus's
        `IN W1939A` / `U+S+A` / `HOMES ~@CAL(NYO) HAW ~NYO WAS`). False: a change the judge cannot make."""
        d = self.data
        if self.in_phase is None:
            return False
        if len(words) == 1 and _power_id(words[0]) in d.powers:
            self.in_power = d.powers[_power_id(words[0])]
            return True
        p = self.in_power
        if p is None or words[0].upper() not in ("HOMES", "HOME", "INHABITS"):
            return False
        then = PowerData(p.id, p.name, p.adjective, p.letter)
        self.homes(then, words[1:])
        if sorted(then.homes) != sorted(p.homes):
            return False      # the home centres themselves changing: no hook for it
        d.in_phase.append((self.in_phase, then))
        return True

    # -- geography ------------------------------------------------------------------------------
    def place(self, line: str) -> None:
        left, _, right = line.partition("=")
        old = None
        if "->" in left:
            old, _, left = left.partition("->")
            old = old.strip().lower()
        names = right.split()
        abbr = names[0].lower()
        aliases = []
        for a in names[1:]:
            if a.endswith("?"):
                continue  # ambiguous (TYR: Tyrolia or Tyrrhenian): never read as either
            aliases.append(a.replace("+", " ").lower())
        if old and old != abbr:
            self.rename(old, abbr)
        # "+" is DPjudge's space inside one word, in a name as in an alias (Empire's "Washington D+C")
        self.data.places[abbr] = Place(" ".join(left.replace("+", " ").split()), aliases)

    def terrain_line(self, words: list[str]) -> None:
        kind, abbr = words[0].upper(), words[1]
        abuts = words[3:] if len(words) > 2 and words[2].upper() == "ABUTS" else []
        key = abbr.lower()
        fleet_ok = not (abbr.islower())
        d = self.data
        if kind == "AMEND":
            t = d.terrain.get(key)
            if t is None:
                raise MapError(f"AMEND of {abbr}, which has no terrain line yet")
            t.fleet_ok = fleet_ok
            for a in abuts:
                if a.startswith("-"):
                    t.abuts = [x for x in t.abuts if x.lower() != a[1:].lower()]
                else:
                    t.abuts = [x for x in t.abuts if x.lower() != a.lower()] + [a]
            return
        d.terrain[key] = Terrain(kind, fleet_ok, list(abuts))

    def in_season(self, line: str) -> None:
        """`IN SPRING: WATER ARC`: a terrain the space has in one season (Loeb9's Arctic Ocean). Only
        a season's name alone and a bare terrain line are read; anything else is a need."""
        when, _, what = line.partition(":")
        season, change = when.split()[1:], what.split()
        if (when.split()[0].upper() == "IN" and len(season) == 1 and season[0].isalpha()
                and len(change) == 2 and change[0].upper() in ("WATER", "COAST", "LAND", "PORT")):
            kind, seasons = self.data.seasonal.get(change[1].lower(), (change[0].upper(), []))
            if kind == change[0].upper():
                self.data.seasonal[change[1].lower()] = (kind, seasons + [season[0].upper()])
                return
        self.data.need(f"map changes during play (IN/FROM): {line}")

    def drop(self, abbr: str) -> None:
        d = self.data
        gone = {k for k in set(d.places) | set(d.terrain) if k == abbr or ("/" not in abbr and base(k) == abbr)}
        for k in gone:
            d.places.pop(k, None)
            d.terrain.pop(k, None)
        for t in d.terrain.values():
            t.abuts = [a for a in t.abuts if _plain(a).lower() not in gone]
        d.unowned = [c for c in d.unowned if c not in gone]
        for p in d.powers.values():
            p.homes = [c for c in p.homes if c not in gone]
            p.units = [u for u in p.units if u[1] not in gone and base(u[1]) not in gone]

    def rename(self, old: str, new: str) -> None:
        d = self.data
        if old in d.places:
            d.places[new] = d.places.pop(old)
        if old in d.terrain:
            d.terrain[new] = d.terrain.pop(old)
        for t in d.terrain.values():
            t.abuts = [_recase(new, a) if _plain(a).lower() == old else a for a in t.abuts]
        d.unowned = [new if c == old else c for c in d.unowned]
        for p in d.powers.values():
            p.homes = [new if c == old else c for c in p.homes]
            p.units = [(k, new if loc == old else loc) for k, loc in p.units]

    # -- politics -------------------------------------------------------------------------------
    def current(self, line: str) -> PowerData:
        if self.power is None:
            raise MapError(f"{line!r} needs a power line before it")
        return self.power

    def power_line(self, line: str) -> None:
        d = self.data
        old = None
        if "->" in line:
            old, _, line = line.partition("->")
            old = _power_id(old.strip())
        m = re.fullmatch(r"(\S+)\s*(?:\(([^)]*)\))?\s*(.*)", line.strip())
        if not m:
            raise MapError(f"not a power line: {line!r}")
        raw, own, centres = m.group(1), m.group(2), m.group(3).split()
        if not re.fullmatch(r"[-_+A-Za-z0-9.]+", raw) or any(
            not re.fullmatch(r"[-&+*@~]*[A-Za-z0-9/]+(\([A-Za-z,]*\))?", c) for c in centres
        ):
            raise MapError(f"not a directive the importer knows, nor a power line: {line!r}")
        pid = _power_id(raw)
        if old and old in d.powers:
            p = d.powers.pop(old)
            p.id, p.name = pid, _display(raw)
            d.powers[pid] = p
        if pid not in d.powers:
            word, _, letter = (own or raw).partition(":")
            adjective = _display(word or raw).replace("+", " ")
            d.powers[pid] = PowerData(pid, _display(raw), adjective, (letter or adjective[:1]).upper())
        elif own:
            word, _, letter = own.partition(":")
            p = d.powers[pid]
            p.adjective = _display(word) if word else p.adjective
            p.letter = letter.upper() if letter else p.letter
        self.power = d.powers[pid]
        self.homes(self.power, centres)

    def homes(self, p: PowerData, centres: list[str]) -> None:
        d = self.data
        for given in centres:
            if given.startswith("-"):
                c = given[1:].lower()
                if c in p.partisan_sites:
                    p.partisan_sites.remove(c)
                if c in p.homes:
                    p.homes.remove(c)
                    if c not in d.unowned:
                        d.unowned.append(c)
                continue
            marks = re.match(r"[&+*@~]*", given).group(0)
            for mark in marks:
                if mark not in READ_MARKS:
                    d.need(HOME_MARKS[mark])
            c = re.sub(r"\(.*\)$", "", given[len(marks):]).lower()
            limits = re.search(r"\(([A-Za-z,]*)\)$", given)
            p.alternatives = [a for a in p.alternatives if a[0] != c]
            p.hidden = [h for h in p.hidden if h != c]
            if "@" in marks:
                p.alternatives.append((c, [x.lower() for x in limits.group(1).split(",") if x] if limits else []))
            if "~" in marks:
                p.hidden.append(c)
            if c == "sc":
                continue  # "&SC": a claim to be made later, not a place
            if "*" in marks and "+" not in marks:
                if c not in p.partisan_sites:
                    p.partisan_sites.append(c)
                continue
            if "+" in marks:
                continue  # a factory: a build site that is not a centre, which the judge has no rule for
            if c not in p.homes:
                p.homes.append(c)

    def _powers_named(self, keyword: str, words: list[str], line: str) -> list[str]:
        """The powers a `UNPLAYED`/`DUMMY` line names: alone in a power's lines, that power; `A B`,
        those; `ALL [EXCEPT A B]`, every power but those."""
        d = self.data
        names = [_power_id(w) for w in words]
        if not names:
            chosen = [self.current(line).id]
        elif names[0] == "ALL":
            keep = set(names[2:]) if names[1:2] == ["EXCEPT"] else set()
            chosen = [p for p in d.powers if p not in keep]
        else:
            chosen = names
        for pid in chosen:
            if pid not in d.powers:
                raise MapError(f"{keyword} {pid}: no such power")
        return chosen

    def unplayed(self, words: list[str], line: str) -> None:
        for pid in self._powers_named("UNPLAYED", words, line):
            if pid not in self.data.unplayed:
                self.data.unplayed.append(pid)
        self.power = None

    def dummy(self, words: list[str], line: str) -> None:
        """`DUMMY` in a power's lines: that power; `DUMMY A B`, `DUMMY ALL [EXCEPT A B]`: those."""
        for pid in self._powers_named("DUMMY", words, line):
            if pid not in self.data.dummies:
                self.data.dummies.append(pid)
        if words and _power_id(words[0]) != "ALL":
            self.power = None     # (a list of powers ends the power's lines; ALL, or DUMMY alone, does not)

    def rules(self, names: list[str]) -> None:
        for given in names:
            r = given.upper()
            if r.startswith("!"):
                if r[1:] in self.data.rules:
                    self.data.rules.remove(r[1:])
            elif r not in self.data.rules:
                self.data.rules.append(r)


def _plain(abut: str) -> str:
    """An adjacency without its power restriction, centre condition and strait marks."""
    abut = abut.split(":")[-1]
    abut = re.sub(r"\(.*\)$", "", abut)
    return abut.strip("~*")


def _recase(new: str, written: str) -> str:
    plain = _plain(written)
    if plain.islower():
        return new.lower()
    if plain[:1].isupper() and plain[1:].islower():
        return new.capitalize()
    return new.upper()


def _power_id(raw: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", raw.upper().lstrip("_"))


def _display(raw: str) -> str:
    """DPjudge's spelling of a power name or adjective for people: `St+Petersburg` -> `St Petersburg`,
    `U+S+A` -> `USA` (a plus before each letter: an abbreviation in capitals)."""
    if re.fullmatch(r"[A-Za-z](\+[A-Za-z])+", raw.lstrip("_")):
        return raw.lstrip("_").replace("+", "").upper()
    words = raw.lstrip("_").replace("+", " ").split()
    # each part of a hyphenated name capitalised (Renaissance's POLAND-LITHUANIA: Poland-Lithuania)
    return " ".join("-".join(part[:1].upper() + part[1:].lower() for part in w.split("-")) for w in words)
