"""Turn read map data (`mapfile.MapData`) into the judge's own variant.json data.

Edges follow DPjudge's letter case: an adjacency written in lower case cannot be crossed by a
fleet, one written `Xxx` cannot be crossed by an army; a space whose abbreviation is written in
lower case cannot hold a fleet (the main space of a split-coast province). An edge is kept when
either side lists it in a form the unit may use and neither side forbids it; the linter reports
edges listed on one side only.
"""
from __future__ import annotations

import re
from typing import Any

from .mapfile import MapData, PowerData, _plain, base

COASTS = {"nc", "sc", "ec", "wc"}
TERRAIN = {"LAND": "land", "COAST": "coast", "PORT": "coast", "WATER": "sea", "SHUT": "impassable"}
# The standard powers keep the standard map's colours; others take the palette in turn.
COLOURS = {"AUSTRIA": "#d22f2f", "ENGLAND": "#1f3a93", "FRANCE": "#6fb7ff", "GERMANY": "#5a5a5a",
           "ITALY": "#2e9e44", "RUSSIA": "#9b59b6", "TURKEY": "#e1b12c"}
PALETTE = ["#d22f2f", "#1f3a93", "#6fb7ff", "#5a5a5a", "#2e9e44", "#9b59b6", "#e1b12c", "#e67e22",
           "#16a085", "#8e44ad", "#c0392b", "#2c3e50", "#f39c12", "#27ae60", "#d35400", "#7f8c8d"]
# RULE flags the judge has a hook for, by the hook's name in variant.json.
RULE_HOOKS = {"BUILD_ANY": "build_any", "MOBILIZE": "mobilize", "REMOTE_BUILDS": "remote_builds",
              "HOME_BUILDS": "home_builds",
              # dummy powers (judge.engine.dummies) and a game without draws (the game's no_draw setting)
              "CD_DUMMIES": "cd_dummies", "IMMOBILE_DUMMIES": "immobile_dummies", "CD_BUILDS": "cd_builds",
              "NO_DRAW": "no_draw",
              # a game setting more than a map rule: the game's ftf_press (judge.games.press)
              "FTF_PRESS": "ftf_press",
              # a unit in a seasonal space that shuts stays, holding (judge.engine.seasonal)
              "HIBERNATE": "hibernate",
              # dummies that become vassals (judge.engine.vassals)
              "VASSAL_DUMMIES": "vassal_dummies"}
# RULE flags that bring others with them, as DPjudge's Rules page has them (VASSAL_DUMMIES: its
# dummies are in civil disorder and build by the judge; TEAM_VICTORY is the vassal hook's own part)
RULES_BROUGHT = {"VASSAL_DUMMIES": ("CD_DUMMIES", "CD_BUILDS")}


def army_forbidden(written: str) -> bool:
    p = _plain(written)
    return p[:1].isupper() and p[1:] == p[1:].lower() and p[1:] != p[1:].upper()


def fleet_forbidden(written: str) -> bool:
    p = _plain(written)
    return p == p.lower() and p != p.upper()


def special(written: str) -> str | None:
    """What a marked adjacency asks for that the judge has no rule for, if anything."""
    if ":" in written:
        return "adjacencies for some powers only, or one-way (P:XXX)"
    if "(" in written and written.strip("~*") != written:
        return "adjacencies open only to owners of some centres (XXX(C,D)) with strait marks"
    return None   # (a weak strait's ~ and the Cape's * are hooks: judge/engine/straits.py, cape.py)


class Geography:
    """The provinces and the raw adjacency pairs of a map, for the converter and the linter."""

    def __init__(self, data: MapData) -> None:
        self.data = data
        t = data.terrain
        self.provinces = sorted({base(k) for k in t if "/" not in k} | {base(k) for k in t})
        self.coasts: dict[str, list[str]] = {}
        for k in t:
            if "/" in k:
                self.coasts.setdefault(base(k), []).append(k.split("/")[1])
        self.kind = {p: (t[p].kind if p in t else t[next(k for k in t if base(k) == p)].kind) for p in self.provinces}
        self.army_ok = {p for p in self.provinces if self.kind[p] in ("LAND", "COAST", "PORT")}
        self.fleet_at: set[str] = set()
        for k, line in t.items():
            if line.kind == "SHUT" or line.kind == "LAND":
                continue
            if "/" in k or (base(k) not in self.coasts and (line.fleet_ok or line.kind == "WATER")):
                self.fleet_at.add(k)
        self.army_pairs: dict[tuple[str, str], bool] = {}    # (from, to) -> allowed as written
        self.fleet_pairs: set[tuple[str, str]] = set()       # (from location, to location)
        self.loose: list[str] = []                           # adjacency entries naming no place
        self.owner_edges: dict[frozenset[str], set[str]] = {}  # XXX(C,D): crossed only by owners of C and D
        self.weak_straits: set[tuple[str, str]] = set()  # ~XXX: (from, to) moves of no strength of their own
        self.half_strength: set[tuple[str, str]] = set()  # *XXX: (from, to) moves of half strength (the Cape)
        for k, line in t.items():
            for written in line.abuts:
                what = special(written)
                if what:
                    data.need(what)
                    if ":" in written:
                        continue  # restricted to some powers (or to none): not an edge for everyone
                target = _plain(written).lower()
                if "(" in written:
                    centres = re.search(r"\((.*)\)", written)[1]   # type: ignore[index]
                    between = frozenset((base(k), base(target)))
                    self.owner_edges.setdefault(between, set()).update(c.strip().lower() for c in centres.split(","))
                if base(target) not in self.kind:
                    self.loose.append(f"{k} abuts {written}, which is not on the map")
                    continue
                if "~" in written:
                    self.weak_straits.add((base(k), base(target)))
                if "*" in written:
                    self.half_strength.add((base(k), base(target)))
                if "/" not in k and k in self.army_ok and base(target) in self.army_ok:
                    pair = (k, base(target))
                    self.army_pairs[pair] = self.army_pairs.get(pair, True) and not army_forbidden(written)
                if k in self.fleet_at and not fleet_forbidden(written):
                    if target in self.fleet_at:
                        self.fleet_pairs.add((k, target))
                    elif base(target) in self.coasts and "/" not in target:
                        self.loose.append(f"{k} abuts {written} without saying which coast")

    def army_edges(self) -> list[tuple[str, str]]:
        edges = set()
        for (a, b), ok in self.army_pairs.items():
            back = self.army_pairs.get((b, a), True)
            if ok and back and a != b:
                edges.add(tuple(sorted((a, b))))
        return sorted(edges)

    def fleet_edges(self) -> list[tuple[str, str]]:
        return sorted({tuple(sorted(pair)) for pair in self.fleet_pairs if pair[0] != pair[1]})


def supply_centres(data: MapData) -> list[str]:
    centres = set(data.unowned)
    for p in data.powers.values():
        centres |= set(p.homes) | set(p.owns or ())
    return sorted(centres)


def calendar(data: MapData) -> dict[str, Any]:
    """DPjudge's FLOW and BEGIN as the judge's calendar (seasons, adjustments, first phase)."""
    flow = data.flow or ["SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS"]
    seasons: list[dict[str, Any]] = []
    adjustment: dict[str, str] = {}
    cal: dict[str, Any] = {}
    every = None
    for item in flow:
        name, _, arg = item.partition(":")
        if name == "NEWYEAR":
            step = int(arg or 1)
            if step == -1:   # B.C. counting down (Classical): years by era, kept as astronomical years
                cal["eras"] = [{"name": "BC", "code": "B"}, {"name": "AD", "code": "A"}]
            elif step < 1:
                data.need(f"years that count down (FLOW NEWYEAR:{arg})")
            else:
                cal["year_step"] = step
            continue
        if name == "IFYEARDIV":
            if "=" in arg:
                data.need(f"phases in odd or even years only (FLOW IFYEARDIV:{arg})")
            every = int(arg.split("=")[0])
            continue
        phases = arg.split(",")
        for ph in phases:
            if ph not in ("MOVEMENT", "RETREATS", "ADJUSTMENTS"):
                data.need(f"phases the judge does not play (FLOW {item})")
        title = name.title() if "." not in name else name
        if "MOVEMENT" in phases:
            seasons.append({"name": title, "code": _code(title, seasons)})
        if "ADJUSTMENTS" in phases:
            if not seasons:
                data.need(f"adjustments before the first movement of a year (FLOW {item})")
                continue
            seasons[-1]["adjustments"] = True
            if "MOVEMENT" not in phases and title != seasons[-1]["name"]:
                adjustment = {"name": title, "code": _code(title, seasons)}
            if every and every > 1:
                cal["adjustment_every"] = every
    if len({s["name"] for s in seasons}) < len(seasons):
        data.need(f"a season played twice in one year (FLOW {' '.join(flow)})")
        seasons = _unique(seasons)
    cal = {"start_year": 1901, "seasons": seasons, **({"adjustment": adjustment} if adjustment else {}), **cal}
    if data.begin:
        cal.update(_begin(data, cal, seasons, adjustment))
    if "eras" in cal:
        if len(seasons) != 1:
            data.need(f"years that count down over several seasons (FLOW {' '.join(flow)})")
            del cal["eras"]
        else:   # DPjudge's year 273 counting down is 273 BC: astronomically -272
            cal["first_phase"] = f"B{cal['start_year']}M"
            cal["start_year"] = 1 - cal["start_year"]
    return cal


def _seasonal(data: MapData, seasons: list[dict]) -> dict[str, list[str]]:
    """The seasonal spaces as variant.json has them; DPjudge's IN SPRING names the season."""
    codes = {s["name"].upper(): s["code"] for s in seasons}
    open_in = {w for _, ws in data.seasonal.values() for w in ws}
    if len({tuple(ws) for _, ws in data.seasonal.values()}) > 1 or not open_in <= set(codes):
        data.need(f"spaces open in different seasons, or in seasons the calendar lacks ({', '.join(sorted(open_in))})")
    return {"provinces": sorted(base(a) for a in data.seasonal),
            "open_in": sorted(codes[w] for w in open_in if w in codes)}


def _code(title: str, seasons: list[dict]) -> str:
    taken = {s["code"] for s in seasons}
    letters = re.sub(r"[^A-Z]", "", title.upper())
    for n in range(1, len(letters) + 1):
        if letters[:n] not in taken:
            return letters[:n]
    return letters + str(len(seasons))


def _unique(seasons: list[dict]) -> list[dict]:
    out, seen = [], set()
    for s in seasons:
        if s["name"] not in seen:
            seen.add(s["name"])
            out.append(s)
    return out


def _begin(data: MapData, cal: dict, seasons: list[dict], adjustment: dict) -> dict:
    m = re.fullmatch(r"(.+?)\s+(-?\d+)\s+(MOVEMENT|RETREATS|ADJUSTMENTS)", data.begin.strip())
    if not m:
        data.need(f"a first phase the judge cannot read (BEGIN {data.begin})")
        return {}
    name, year, kind = m.group(1), int(m.group(2)), m.group(3)[0]
    title = name.title() if "." not in name else name
    if adjustment and title == adjustment["name"] and kind == "A":
        code = adjustment["code"]
    else:
        code = next((s["code"] for s in seasons if s["name"] == title), None)
    if code is None or kind == "R":
        data.need(f"a first phase outside the calendar (BEGIN {data.begin})")
        return {}
    out: dict[str, Any] = {"start_year": year}
    if kind == "M":
        out["start_season"] = code
        if code != seasons[0]["code"]:
            out["first_phase"] = f"{code}{year}M"
    else:
        out["first_phase"] = f"{code}{year}A"
    return out


def _name_starts(data: MapData) -> dict[str, str]:
    """Each power's sign-on letters from its name: the shortest start no other power's name shares
    (Chaos's 34: `A` Ankara, `Ber` Berlin, `Bel` Belgium; DPjudge's one-character letters there,
    Paris `V` and London `P`, follow nothing a player could guess)."""
    spelt = {p.id: re.sub(r"[^a-z0-9]", "", p.name.lower()) for p in data.powers.values()}
    out: dict[str, str] = {}
    for p in data.powers.values():
        own = spelt[p.id]
        n = next((n for n in range(1, len(own) + 1)
                  if not any(o.startswith(own[:n]) for pid, o in spelt.items() if pid != p.id)
                  and own[:n] != "m"), len(own))      # M alone signs on as the master (Void's Mid-Atlantic: Mi)
        out[p.id] = p.name[:1].upper() + own[1:n]
    return out


def _letters(data: MapData) -> dict[str, str]:
    """Each power's one-character initial (SIGNON Fgame): DPjudge's, or where two powers share one,
    the first free letter of the later power's name, then a digit."""
    taken: set[str] = set()
    out: dict[str, str] = {}
    for p in data.powers.values():
        letter = p.letter
        if letter in taken:
            spare = [c for c in re.sub(r"[^A-Z]", "", p.name.upper()) + "0123456789" if c not in taken]
            letter = spare[0]
            data.renamed.append(f"{p.name}'s initial {p.letter} is {letter}: {p.letter} is taken")
        taken.add(letter)
        out[p.id] = letter
    return out


def _own_aliases(data: MapData, province: str, aliases: list[str]) -> list[str]:
    """A place's aliases but any that is another place's abbreviation (Zeus: `ben`, an alias of Libya
    for Benghazi, is the Bay of Bengal): the reader would not know which was meant."""
    others = {base(k) for k in data.places if base(k) != province}
    kept = []
    for a in sorted(dict.fromkeys(aliases)):
        if a.replace(" ", "") in others:
            data.renamed.append(f"{province}'s alias {a!r} is left out: it is {a.replace(' ', '')}'s abbreviation")
        else:
            kept.append(a)
    return kept


def variant_data(data: MapData, *, id: str, name: str, description: str = "",
                 source: str = "", letters_from_names: bool = False) -> dict[str, Any]:
    """The variant.json data for a read map (validate it with `judge.engine.variant_from_data`).
    `letters_from_names`: the powers' sign-on letters are the starts of their names (`_name_starts`)."""
    geo = Geography(data)
    centres = set(supply_centres(data))
    provinces = []
    for p in geo.provinces:
        place = data.places.get(p)
        if place is None:
            coast_name = next((data.places[k].name for k in data.places if base(k) == p), p.upper())
            place_name = re.sub(r"\s*\(.*\)\s*$", "", coast_name)
            aliases: list[str] = []
        else:
            place_name = place.name
            aliases = [a for a in place.aliases if "/" not in a and "(" not in a and a != p]
        provinces.append({
            "id": p, "name": place_name, "aliases": _own_aliases(data, p, aliases),
            "terrain": TERRAIN[geo.kind[p]], "supply_centre": p in centres,
            "coasts": [c for c in geo.coasts.get(p, []) if c in COASTS],
        })
    for p, cs in geo.coasts.items():
        for c in cs:
            if c not in COASTS:
                data.need(f"coasts other than north, south, east and west ({p}/{c})")
    powers = []
    letters = _name_starts(data) if letters_from_names else _letters(data)
    for i, p in enumerate(data.powers.values()):
        entry: dict[str, Any] = {
            "id": p.id, "name": p.name, "adjective": p.adjective, "letter": letters[p.id],
            "colour": COLOURS.get(p.id, PALETTE[i % len(PALETTE)]),
            "home_centres": list(p.homes), "starting_units": [f"{k} {loc}" for k, loc in p.units],
        }
        if p.partisan_sites:   # build sites while some home centres are lost (judge/engine/partisans.py)
            entry["partisan_sites"] = list(p.partisan_sites)
        if p.owns is not None and sorted(p.owns) != sorted(p.homes):
            entry["starting_centres"] = list(p.owns)
        entry |= _marks(p)
        powers.append(entry)
    # DPjudge's rules know a win only by the victory count: no short game's "most centres" at a limit
    hooks = ["win_by_count_only"]
    rules = [*data.rules, *(b for r in data.rules for b in RULES_BROUGHT.get(r, ()) if b not in data.rules)]
    for r in rules:
        if r in RULE_HOOKS:
            hooks.append(RULE_HOOKS[r])
        else:
            data.need(f"RULE {r}")
    victory = data.victory[0] if data.victory else len(centres) // 2 + 1
    if len(set(data.victory)) > 1:
        data.need(f"victory counts that change by year (VICTORY {' '.join(map(str, data.victory))})")
    out: dict[str, Any] = {
        "id": id, "name": name, "description": description,
        "map_source": source or f"Imported from DPjudge {', '.join(data.files)} (MIT, (c) Manus Hand) "
                                f"by judge.variants.importer",
        "calendar": calendar(data), "victory_centres": victory, "unit_kinds": ["army", "fleet"],
    }
    out["hooks"] = hooks
    if data.unplayed:
        out["absent_powers"] = list(data.unplayed)
    if data.new_homes is not None:   # NEWHOMES: homes become the centres owned at that year's adjustments
        out["new_homes_in"] = data.new_homes
    if geo.owner_edges:   # borders only owners of some centres cross (Imperial's Bosphorus)
        out["owner_edges"] = [{"between": sorted(b), "owners_of": sorted(c)}
                              for b, c in sorted(geo.owner_edges.items(), key=lambda e: sorted(e[0]))]
    if geo.weak_straits:  # moves across these of no strength of their own (Loeb9: judge/engine/straits.py)
        out["weak_straits"] = [list(pair) for pair in sorted(geo.weak_straits)]
    if geo.half_strength:  # moves across these of half strength (1900's Cape: judge/engine/cape.py)
        out["half_strength_borders"] = [list(pair) for pair in sorted(geo.half_strength)]
    ports = sorted(p for p in geo.provinces if geo.kind[p] == "PORT")
    if ports:  # coasts whose fleets convoy as if at sea
        out["ports"] = ports
    if data.dummies:
        out["dummy_powers"] = list(data.dummies)
    if data.in_phase:   # IN W1939A: a power's alternative homes and hidden builds in that phase
        out["in_phase"] = [{"phase": phase, "power": p.id, **_marks(p)} for phase, p in data.in_phase]
    if data.seasonal:   # spaces shut but in some seasons (Loeb9's Arctic Ocean, sea in Spring)
        out["seasonal_spaces"] = _seasonal(data, out["calendar"]["seasons"])
    out |= {"powers": powers, "provinces": provinces,
            "army_edges": [list(e) for e in geo.army_edges()],
            "fleet_edges": [list(e) for e in geo.fleet_edges()]}
    return out


def _marks(p: PowerData) -> dict[str, Any]:
    """A power's alternative home centres (`@X(Y)`) and hidden builds (`~X`), where it has them."""
    out: dict[str, Any] = {}
    if p.alternatives:
        out["alternative_homes"] = [{"centre": c, **({"instead_of": sorted(i)} if i else {})}
                                    for c, i in p.alternatives]
    if p.hidden:
        out["hidden_builds"] = sorted(p.hidden)
    return out
