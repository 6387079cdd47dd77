"""CPython's verdict on the syntax of Python sources, for Hooksmith (syntax-checker.ts).

Reads one JSON request per line on stdin, {"id": n, "path": p, "source": text}, and answers
{"id": n, "issue": null} when compile() accepts the text, else the issue with LSP positions
(0-based lines, UTF-16 columns). The text is compiled exactly as given: a U+FEFF left at its
start (a second byte-order mark) fails as it fails an import. The first line written says
whether this interpreter can be used. Standard library only: run with -I -S.
"""
import json
import os
import re
import sys
import time
import warnings

warnings.simplefilter("ignore")
NL = re.compile(r"\r\n|\r|\n")


def u16(s):
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def at(lines, lineno, offset):
    if not lineno or lineno < 1:
        return [0, 0]
    i = min(lineno, len(lines)) - 1
    line = lines[i] if lines else ""
    return [i, u16(line[: max((offset or 1) - 1, 0)])]


def nul_issue(src, e):
    # NUL bytes: ValueError before 3.12, SyntaxError without a position on 3.11.4+.
    nul = src.find("\0")
    lines = NL.split(src[:nul]) if nul >= 0 else [""]
    message = str(e.msg if isinstance(e, SyntaxError) else e)
    return {"message": message, "start": [len(lines) - 1, u16(lines[-1])], "end": None}


def check(path, src):
    try:
        compile(src, path, "exec", dont_inherit=True)
        return None
    except SyntaxError as e:
        if not e.lineno and "\0" in src:
            return nul_issue(src, e)
        lines = NL.split(src)
        start = at(lines, e.lineno, e.offset)
        end = None
        if getattr(e, "end_lineno", None) and getattr(e, "end_offset", None) and e.end_offset > 0:
            end = at(lines, e.end_lineno, e.end_offset)
            if end < start:
                end = None
        return {"message": e.msg, "start": start, "end": end}
    except ValueError as e:
        return nul_issue(src, e)
    except (RecursionError, MemoryError) as e:
        why = str(e) or type(e).__name__
        return {"message": "too complex for CPython to compile: " + why, "start": [0, 0], "end": None}
    except Exception as e:
        return {"message": type(e).__name__ + ": " + str(e), "start": [0, 0], "end": None}


def answer(req):
    issue = check(req.get("path") or "<unknown>", req["source"])
    if issue is None:
        return '{"id":%d,"issue":null}' % req["id"]
    return json.dumps({"id": req["id"], "issue": issue})


def main():
    if sys.version_info < (3, 8):
        reason = "python %d.%d is older than 3.8" % sys.version_info[:2]
        print(json.dumps({"ready": False, "reason": reason}), flush=True)
        return
    version = "%d.%d.%d" % sys.version_info[:3]
    print(json.dumps({"ready": True, "version": version, "executable": sys.executable}), flush=True)
    out = sys.stdout
    fd = sys.stdin.fileno()
    partial = b""
    # Answers are flushed once the input read so far is answered (or every 50 ms during a
    # long batch), not one write per answer.
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        flushed = time.monotonic()
        lines = (partial + chunk).split(b"\n")
        partial = lines.pop()
        for line in lines:
            if line.strip():
                out.write(answer(json.loads(line.decode("utf-8", "surrogatepass"))) + "\n")
            if time.monotonic() - flushed > 0.05:
                out.flush()
                flushed = time.monotonic()
        out.flush()


main()
