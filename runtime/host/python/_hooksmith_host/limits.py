"""The limits the host puts on itself before user code runs."""
import os


def limit_memory() -> None:
    """The address-space limit PythonHost asks for (MiB; 0: none), before any user code runs: a hook
    that allocates past it gets MemoryError, reported as its crash, instead of swapping the machine."""
    try:
        import resource
        mb = int(os.environ.pop("HOOKSMITH_MEMORY_LIMIT_MB", "0") or 0)
        if mb <= 0:
            return
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = mb * 1024 * 1024
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        if soft == resource.RLIM_INFINITY or want < soft:
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ImportError, ValueError, OSError):
        pass  # Windows has no resource module; a platform without RLIMIT_AS keeps no limit
