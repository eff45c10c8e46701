#!/usr/bin/env python3
"""pty_run.py JSON: run a command with stdin, stdout and stderr on a new pseudo-terminal.

JSON: {"argv": [...], "env": {...}, "when": "text", "send": "\\u0003" | "TERM", "timeout": 20}
Once "when" appears in the output, "send" is typed into the terminal ("\\u0003" is Ctrl-C: the
line discipline echoes ^C and sends SIGINT to the foreground group) or, for "TERM", SIGTERM is
sent to the child. Instead of "when"/"send", "steps": [{"when": ..., "send": ...}, ...] answers
several prompts in turn (each "when" is looked for after the previous one). Prints {"status":
exit status (128+N for signal N), "output": everything the terminal showed} as JSON. Used by
Tests/EndToEndTests/TerminalEndToEndTests.swift and GuidedSetupEndToEndTests.swift.
"""
import json, os, pty, select, signal, sys, time

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execve(spec["argv"][0], spec["argv"], spec.get("env", {}))
out = b""
steps = spec.get("steps") or ([{"when": spec["when"], "send": spec["send"]}] if spec.get("when") else [])
searched = 0
deadline = time.time() + spec.get("timeout", 20)
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
    if steps:
        found = out.find(steps[0]["when"].encode(), searched)
        if found >= 0:
            searched = found + len(steps[0]["when"].encode())
            step = steps.pop(0)
            if step["send"] == "TERM":
                os.kill(pid, signal.SIGTERM)
            else:
                os.write(fd, step["send"].encode())
    if time.time() > deadline:
        os.kill(pid, signal.SIGKILL)
        break
_, status = os.waitpid(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
print(json.dumps({"status": code, "output": out.decode("utf-8", "replace")}))
