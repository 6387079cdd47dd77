"""The catalogue facts the shims need, read from catalogue.json (generated from runtime/catalogue)."""
import json
import os

CATALOGUE_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "catalogue.json")

with open(CATALOGUE_PATH, encoding="utf-8") as _f:
    CATALOGUE = json.load(_f)

MANTLE = CATALOGUE["mantle"]
CAYU = CATALOGUE["cayu"]
