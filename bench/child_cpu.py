"""Runs a command and prints the CPU time (user + sys, seconds) it and its waited-for
descendants used, from getrusage(RUSAGE_CHILDREN): microseconds, where /proc's ticks are 10 ms.
Usage: python3 child_cpu.py COMMAND [ARG...]; the command's output is discarded."""
import resource
import subprocess
import sys

code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%d %.6f" % (code, r.ru_utime + r.ru_stime))
