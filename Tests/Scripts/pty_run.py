#!/usr/bin/env python3
"""pty_run.py JSON: run a command with stdin, stdout and stderr on a new pseudo-terminal.

JSON: {"argv": [...], "env": {...}, "when": "text", "send": "\\u0003" | "TERM", "timeout": 20}
or, for several answers in turn, "steps": [{"when": "text", "send": "..."}, ...] (each "when" is
looked for in the output after the previous step's).
Once "when" appears in the output, "send" is typed into the terminal ("\\u0003" is Ctrl-C: the
line discipline echoes ^C and sends SIGINT to the foreground group) or, for "TERM", SIGTERM is
sent to the child. Prints {"status": exit status (-N when signal N
ended it: the raw wait status, not the shell's 128+N), "output": everything the
terminal showed} as JSON. Used by Tests/EndToEndTests/TerminalEndToEndTests.swift and GuidedSetupEndToEndTests.swift.
"""
import json, os, pty, select, signal, sys, time

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execve(spec["argv"][0], spec["argv"], spec.get("env", {}))
out = b""
deadline = time.time() + spec.get("timeout", 20)
steps = spec.get("steps") or ([{"when": spec["when"], "send": spec.get("send")}] if spec.get("when") else [])
seen = 0  # output before this offset belongs to earlier steps
while True:
    ready, _, _ = select.select([fd], [], [], 0.05)
    if ready:
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:
            break
        out += data
    if steps and steps[0]["when"].encode() in out[seen:]:
        step = steps.pop(0)
        seen = out.index(step["when"].encode(), seen) + len(step["when"].encode())
        if step["send"] == "TERM":
            os.kill(pid, signal.SIGTERM)
        else:
            os.write(fd, step["send"].encode())
    if time.time() > deadline:
        os.kill(pid, signal.SIGKILL)
        break
_, status = os.waitpid(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
print(json.dumps({"status": code, "output": out.decode("utf-8", "replace")}))
