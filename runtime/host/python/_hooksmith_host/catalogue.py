"""The catalogue facts the shims need, read from catalogue.json (generated from runtime/catalogue)."""
import json
import os

CATALOGUE_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "catalogue.json")

with open(CATALOGUE_PATH, encoding="utf-8") as _f:
    CATALOGUE = json.load(_f)

MANTLE = CATALOGUE["mantle"]


def _spell(line):
    """The decorator and payload names as the selected engine line spells them (points keep their ids)."""
    renames = MANTLE.get("lines", {}).get(line)
    if not renames:
        return
    points, payloads = renames["points"], renames["payloads"]
    aliases = MANTLE["aliases"]
    for d in MANTLE["decorators"]:
        spelled = points.get(d["point"])
        if spelled:
            new = ("on_" if d["lane"] == "observe" else "modify_") + spelled
            aliases[d["name"]] = new  # the line's docs still spell the old name in places
            d["name"] = new
        d["payloadType"] = payloads.get(d["payloadType"], d["payloadType"])
    for p in MANTLE["payloads"]:
        if p["name"] in payloads:
            aliases[p["name"]] = payloads[p["name"]]
            p["name"] = payloads[p["name"]]


# Old spelling -> the name the selected line exports: the shim serves both.
MANTLE["aliases"] = {}


_spell(os.environ.get("HOOKSMITH_MANTLE_LINE", ""))
CAYU = CATALOGUE["cayu"]
