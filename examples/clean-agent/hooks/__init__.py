# Package marker: the loader skips __init__.py, so no hooks live here.
