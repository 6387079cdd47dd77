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
    for d in MANTLE["decorators"]:
        spelled = points.get(d["point"])
        if spelled:
            d["name"] = ("on_" if d["lane"] == "observe" else "modify_") + spelled
        d["payloadType"] = payloads.get(d["payloadType"], d["payloadType"])
    for p in MANTLE["payloads"]:
        p["name"] = payloads.get(p["name"], p["name"])


_spell(os.environ.get("HOOKSMITH_MANTLE_LINE", ""))
CAYU = CATALOGUE["cayu"]
