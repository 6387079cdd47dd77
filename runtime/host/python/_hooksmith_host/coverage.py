"""Line and branch coverage of the agent's own files (``HOOKSMITH_COVERAGE=1``), with coverage.py
where the user's interpreter imports it. The tracer starts before any user code, so an import's
module-level lines count. Every answer carries what ran since the previous answer (a dynamic
context per answer: a host killed mid-case loses only the call it was killed for), restricted to
files under the call's agent root and never the host's own files or its shims, and the first time
a file is seen (or after it changed) its statements and branches, as coverage.py's reports count
them. Only this module imports coverage."""
import os
import sys
from typing import Any, Dict, List, Optional, Set, Tuple

INSTALL_HINT = ("coverage.py is not installed for {exe}: install it (Debian/Ubuntu: apt-get install "
                "python3-coverage; elsewhere: {exe} -m pip install coverage), or choose an interpreter "
                "that has it (--python, hooksmith.pythonPath); hook coverage is reported without it")

_cov: Any = None
_error: Optional[str] = None
_context = 0
_host_dir = ""
# path -> (stamp, its file reporter, statements, {branch line: [destinations]}), as last described
_described: Dict[str, Tuple[Tuple[int, int], Any, List[int], Dict[int, List[int]]]] = {}
PythonFileReporter: Any = None
# Files the tracer flushed data for since the previous answer (None: not known, read them all), so
# that an answer costs what the call ran, not every file measured so far: reading all of them per
# answer was O(files) each, and that time held the loop while other calls' budgets ran (#44 item 5).
_touched: Optional[Set[str]] = None
# path -> its real path when it is one of the agent's candidates (None: never measured for an agent)
_real_of: Dict[str, Optional[str]] = {}
_realpath = os.path.realpath
_sep = os.sep


def requested() -> bool:
    return os.environ.get("HOOKSMITH_COVERAGE") == "1"


def start(host_dir: str) -> None:
    """Starts the tracer when asked (before any user code runs); remembers why it could not."""
    global _cov, _error, _host_dir, PythonFileReporter
    if not requested():
        return
    _host_dir = _realpath(host_dir)
    try:
        import coverage
    except ImportError:
        _error = INSTALL_HINT.format(exe=sys.executable)
        return
    try:
        from coverage.python import PythonFileReporter
        _cov = coverage.Coverage(data_file=None, branch=True, config_file=False, cover_pylib=False,
                                 omit=[os.path.join(_host_dir, "*")])
        _cov.start()
        _cov.switch_context("c0")
        _watch_flushes(_cov.get_data())
    except Exception as e:  # noqa: B902 - a broken coverage install: say so, hook coverage still works
        _cov, _error = None, f"coverage.py could not start in {sys.executable}: {e!r}"


def _watch_flushes(data) -> None:
    """Records the files each flush of the tracer adds lines or arcs for (add_lines/add_arcs are
    CoverageData's public methods the collector calls); without them, every file is read."""
    global _touched
    try:
        add_lines, add_arcs = data.add_lines, data.add_arcs
    except AttributeError:
        return
    touched: Set[str] = set()

    def lines(line_data, *a, **k):
        touched.update(line_data)
        return add_lines(line_data, *a, **k)

    def arcs(arc_data, *a, **k):
        touched.update(arc_data)
        return add_arcs(arc_data, *a, **k)

    data.add_lines, data.add_arcs = lines, arcs
    _touched = touched


def _describe(fr) -> Tuple[List[int], Dict[int, List[int]]]:
    """Statements and branch destinations of a file, as coverage.py's own analysis counts them."""
    excluded = fr.excluded_lines()
    statements = sorted(fr.lines() - excluded)
    no_branch = fr.no_branch_lines()
    exits = fr.exit_counts()
    branches: Dict[int, List[int]] = {}
    for a, b in fr.arcs():
        if a > 0 and exits.get(a, 0) > 1 and a not in no_branch and a not in excluded and b not in excluded:
            branches.setdefault(a, []).append(b)
    return statements, {k: sorted(v) for k, v in branches.items()}


def _stamp(path: str) -> Tuple[int, int]:
    st = os.stat(path)
    return st.st_mtime_ns, st.st_size


def _candidate(f: str) -> Optional[str]:
    """The real path of a measured file that may be an agent's (not the host's, not a package's)."""
    if f not in _real_of:
        real = _realpath(f)
        _real_of[f] = None if real.startswith(_host_dir + _sep) or "-packages" + _sep in real else real
    return _real_of[f]


def _flushed() -> Optional[List[str]]:
    """The files flushed since the last call (None: not known); call it right after the flush."""
    if _touched is None:
        return None
    files = list(_touched)
    _touched.clear()
    return files


def _measured(data, files: Optional[List[str]], root: str) -> List[str]:
    """The files under `root` among `files` (None: all measured)."""
    prefix = root.rstrip(_sep) + _sep
    out = []
    for f in data.measured_files() if files is None else files:
        real = _candidate(f)
        if real is not None and real.startswith(prefix):
            out.append(f)
    return out


# Calls in flight per agent root (the host runs many at once: 1,000 observers of one point).
_in_flight: Dict[str, int] = {}


def begin(agent_root: Any) -> None:
    """A call for `agent_root` starts: until it answers, other answers for that root may defer."""
    if requested():
        key = str(agent_root or "")
        _in_flight[key] = _in_flight.get(key, 0) + 1


def _defer(agent_root: Any) -> bool:
    """Another call for the same root (and none for another) is in flight: its answer will carry
    what this one ran, read in one pass; reading per answer made each answer O(files) while the
    other calls' budgets ran (#44 item 5). Settles this call's count either way."""
    key = str(agent_root or "")
    left = _in_flight.get(key, 0) - 1
    if left > 0:
        _in_flight[key] = left
    else:
        _in_flight.pop(key, None)
    return left > 0 and len(_in_flight) == 1


def abandon(agent_root: Any) -> None:
    """A call that began ends without an answer."""
    if requested():
        _defer(agent_root)


def take(agent_root: Any) -> Optional[Dict[str, Any]]:
    """What ran since the previous answer, in the agent's files (None when coverage was not asked)."""
    global _context
    if not requested():
        return None
    if _cov is None:
        return {"error": _error or "coverage.py did not start"}
    if _defer(agent_root):
        return {"files": {}}
    ctx = f"c{_context}"
    _context += 1
    try:
        _cov.switch_context(f"c{_context}")  # flushes what `ctx` collected
        flushed = _flushed()  # before get_data, whose own flush belongs to the next context
        data = _cov.get_data()
        data.set_query_contexts([f"^{ctx}$"])
        root = _realpath(str(agent_root or ""))
        files: Dict[str, Any] = {}
        described: Dict[str, Any] = {}
        for f in _measured(data, flushed, root) if root else ():
            arcs = data.arcs(f)
            if not arcs:
                continue
            real = _candidate(f) or _realpath(f)
            stamp = _stamp(real)
            known = _described.get(real)
            if known is None or known[0] != stamp:
                fr = PythonFileReporter(real, coverage=_cov)
                statements, branches = _describe(fr)
                known = (stamp, fr, statements, branches)
                _described[real] = known
                described[real] = {"statements": statements, "branches": [[k, v] for k, v in branches.items()]}
            _, fr, statements, branches = known
            lines: Set[int] = set(fr.translate_lines({n for arc in arcs for n in arc if n > 0}))
            taken = sorted({(a, b) for a, b in fr.translate_arcs(arcs) if b in branches.get(a, ())})
            files[real] = {"lines": sorted(lines.intersection(statements)), "arcs": [list(t) for t in taken]}
        data.set_query_contexts(None)
        return {"files": files, **({"described": described} if described else {})}
    except Exception as e:  # noqa: B902 - never costs the hook's answer
        return {"error": f"coverage.py failed while reading what ran: {e!r}"}


def answer_field(agent_root: Any) -> Dict[str, Any]:
    """The answer's `coverage` key, or none when coverage was not asked."""
    covered = take(agent_root)
    return {} if covered is None else {"coverage": covered}
