"""The import system's walk down a dotted name, without executing anything: ``a``, then ``a.b``
in ``a``'s search path, and so on. One place for the host (shim_finder.real: is the real engine
installed, the shim left out) and the language server's probe (cpython/environment_probe.py:
does an import resolve, every finder asked). Standard library only: the probe loads this file by
its path, outside the host package.
"""


def resolves(name, find, loaded=None):
    """Whether ``name`` is found. ``find(full, search)`` gives a spec or None (None for an error);
    ``loaded(full)`` gives an already imported module, whose ``__path__`` is searched as it is."""
    parts = name.split(".")
    search = None
    for i in range(len(parts)):
        full = ".".join(parts[: i + 1])
        module = loaded(full) if loaded else None
        if module is not None:
            search = getattr(module, "__path__", None)
        else:
            spec = find(full, search)
            if spec is None:
                return False
            search = spec.submodule_search_locations
        if search is None and i < len(parts) - 1:
            return False
    return True
