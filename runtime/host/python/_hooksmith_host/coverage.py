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
    except Exception as e:  # noqa: B902 - a broken coverage install: say so, hook coverage still works
        _cov, _error = None, f"coverage.py could not start in {sys.executable}: {e!r}"


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


def _measured(data, root: str) -> List[str]:
    prefix = root.rstrip(_sep) + _sep
    out = []
    for f in data.measured_files():
        real = _realpath(f)
        if real.startswith(prefix) and not real.startswith(_host_dir + _sep) and "-packages" + _sep not in real:
            out.append(f)
    return out


def take(agent_root: Any) -> Optional[Dict[str, Any]]:
    """What ran since the previous answer, in the agent's files (None when coverage was not asked)."""
    global _context
    if not requested():
        return None
    if _cov is None:
        return {"error": _error or "coverage.py did not start"}
    ctx = f"c{_context}"
    _context += 1
    try:
        _cov.switch_context(f"c{_context}")  # flushes what `ctx` collected
        data = _cov.get_data()
        data.set_query_contexts([f"^{ctx}$"])
        root = _realpath(str(agent_root or ""))
        files: Dict[str, Any] = {}
        described: Dict[str, Any] = {}
        for f in _measured(data, root) if root else ():
            arcs = data.arcs(f)
            if not arcs:
                continue
            real = _realpath(f)
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
