#!/usr/bin/env python3
"""Times whole loopback logins of the release binary against the fake GitHub (for bench/run).

Usage: login.py BIN HOME CA_FILE FAKE_PORT BROWSER_SCRIPT RUNS WORK_DIR

Each round runs `BIN auth --no-browser` three ways, with Tests/FakeGitHub/fake_browser.py as the
browser, and prints one JSON object with the lists below:

- plain: nothing attached. wait4's rusage gives the peak RSS (ru_maxrss) and the CPU time
  (utime + stime, which Linux keeps equal to the precise run time of the process).
- interrupted: SIGINT once the URL is out and the TLS context is made, before any callback:
  the CPU time of everything but the callback's handling (start-up, config, OpenSSL, listener,
  announcing the URL, exit). plain minus interrupted is the CPU time from the callback to the
  end of the process (storing, a `Logged in` line, exit), which errs high.
- traced: under `perf trace` (when it works here; it records system calls without stopping the
  process) or else `strace -f --seccomp-bpf -ttt -T` (only the traced calls stop the process),
  tracing poll, ppoll, connect, rename*, fsync and fdatasync. The window runs from the return of
  the poll that saw the callback connection readable to the return of rename(2) of the
  credentials file; the fake's own time is what ghlogin spent blocked in poll inside it (TCP
  connect, the server's TLS flights and HTTP responses); the storage's is fsync.
  own = window - fake - fsync, in wall-clock time (with strace it also holds the tracer's stops).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

BIN, HOME, CA, PORT, BROWSER, RUNS, WORK = sys.argv[1:8]
RUNS = int(RUNS)
CREDENTIALS = os.path.join(HOME, ".config", "ghlogin", "credentials.json")
ENV = {"HOME": HOME, "PATH": "/usr/bin:/bin", "SSL_CERT_FILE": CA}
CALLS = "poll,ppoll,connect,rename,renameat,renameat2,fsync,fdatasync"
STRACE = ["strace", "-f", "--seccomp-bpf", "-ttt", "-T", "-e", "trace=" + CALLS]
PERF = ["perf", "trace", "-e", CALLS]


def perf_works():
    if not shutil.which("perf"):
        return False
    probe = subprocess.run(PERF + ["-o", "/dev/null", "--", "/bin/true"], capture_output=True)
    return probe.returncode == 0


def fail(message):
    print("login.py: " + message, file=sys.stderr)
    sys.exit(2)


def start(prefix):
    """Starts `prefix + BIN auth --no-browser` with stderr on a pipe; returns (pid, stderr file)."""
    if os.path.exists(CREDENTIALS):
        os.unlink(CREDENTIALS)
    read_end, write_end = os.pipe()
    argv = prefix + [BIN, "auth", "--no-browser"]
    pid = os.posix_spawn(shutil.which(argv[0]) or argv[0], argv, ENV,
                         file_actions=[(os.POSIX_SPAWN_DUP2, write_end, 2),
                                       (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
                                       (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
    os.close(write_end)
    return pid, os.fdopen(read_end, "r")


def wait_for(stream, prefix):
    """The first stderr line that starts with `prefix`."""
    for line in stream:
        if line.startswith(prefix):
            return line.strip()
    fail("auth ended without a line starting with %r" % prefix)


def finish(pid, stream):
    """Waits for the process; returns (exit status, peak RSS in KiB, CPU seconds)."""
    rest = stream.read()
    stream.close()
    _, status, usage = os.wait4(pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss, usage.ru_utime + usage.ru_stime, rest


def login(prefix):
    pid, stream = start(prefix)
    url = wait_for(stream, "https://")
    browser = subprocess.run([sys.executable, BROWSER, url, "--ca", CA], capture_output=True, text=True)
    code, rss, cpu, rest = finish(pid, stream)
    if browser.returncode != 0 or code != 0 or not os.path.exists(CREDENTIALS):
        fail("login failed (auth %d, browser %d): %s %s" % (code, browser.returncode, rest, browser.stdout[:300]))
    return rss, cpu


def interrupted():
    pid, stream = start([])
    wait_for(stream, "Waiting up to")
    time.sleep(0.1)  # the TLS context is made right after that line
    os.kill(pid, signal.SIGINT)
    code, rss, cpu, rest = finish(pid, stream)
    if code != -signal.SIGINT:  # ghlogin ends by SIGINT after its message (a shell shows 130)
        fail("interrupted auth ended with %d, not death by SIGINT: %s" % (code, rest))
    return cpu


def calls_from_strace(path):
    """(start seconds, name, arguments, duration seconds) of each traced call."""
    calls = []
    for text in open(path):
        m = re.match(r"\d+\s+(\d+\.\d+) (\w+)\((.*)\) += (-?\d+).*<(\d+\.\d+)>$", text.strip())
        if m:
            calls.append((float(m.group(1)), m.group(2), m.group(3), float(m.group(5))))
    return calls


def calls_from_perf(path):
    calls = []
    for text in open(path):
        m = re.match(r"\s*(\d+\.\d+) \(\s*(\d+\.\d+) ms\): \S+ (\w+)\((.*)\)\s+= ", text)
        if m:
            calls.append((float(m.group(1)) / 1000, m.group(3), m.group(4), float(m.group(2)) / 1000))
    return calls


def is_fake_connect(call):
    """A connect to the fake: strace shows the port; perf trace only the address length
    (16 for IPv4, where the resolver's nscd probe is a 110-byte AF_UNIX one)."""
    if call[1] != "connect":
        return False
    return "sin_port=htons(%s)" % PORT in call[2] or "addrlen: 16" in call[2]


def window(calls):
    first = next(i for i, c in enumerate(calls) if is_fake_connect(c))
    callback = max(i for i in range(first) if calls[i][1] in ("poll", "ppoll"))
    done = next(i for i, c in enumerate(calls) if c[1].startswith("rename") and i > first)
    start_time = calls[callback][0] + calls[callback][3]
    end_time = calls[done][0] + calls[done][3]
    inside = calls[callback + 1:done]
    fake = sum(c[3] for c in inside if c[1] in ("poll", "ppoll"))
    sync = sum(c[3] for c in inside if c[1] in ("fsync", "fdatasync"))
    span = end_time - start_time
    return {"window": span * 1000, "fake": fake * 1000, "fsync": sync * 1000, "own": (span - fake - sync) * 1000}


use_perf = perf_works()
result = {"tracer": "perf trace" if use_perf else "strace", "rss_kib": [], "cpu_plain_ms": [],
          "cpu_interrupted_ms": [], "traced": []}
for n in range(RUNS):
    rss, cpu = login([])
    result["rss_kib"].append(rss)
    result["cpu_plain_ms"].append(cpu * 1000)
    result["cpu_interrupted_ms"].append(interrupted() * 1000)
    trace = os.path.join(WORK, "trace.%d" % n)
    if use_perf:
        login(PERF + ["-o", trace, "--"])
        result["traced"].append(window(calls_from_perf(trace)))
    else:
        login(STRACE + ["-o", trace])
        result["traced"].append(window(calls_from_strace(trace)))
print(json.dumps(result))
