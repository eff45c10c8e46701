#!/usr/bin/env python3
"""pty_shell.py JSON: drive a program (usually an interactive shell) on a new pseudo-terminal.

The program leads a new session whose controlling terminal is the pty, as a terminal emulator
starts a shell: `bash -i` or `zsh -i` there does real job control (^Z stops the foreground job,
`fg` continues it). The driver keeps the pty's slave side open too, to read its settings.

JSON: {"argv": [...], "env": {...}, "timeout": 60, "cwd": dir, "core_limit": "unlimited",
"steps": [...]} ("cwd" and "core_limit", the soft RLIMIT_CORE raised to the hard one, are
optional), each step one of
  {"send": "text"}                     type text ("\\u0003" ^C, "\\u001a" ^Z, "\\u001c" ^\\)
  {"expect": "text", "timeout": 20}    wait until text appears in the output after the last match
  {"echo_is": true|false, "timeout": 20, "as": "label"}
                                       wait until the terminal's ECHO flag is that (recorded
                                       under label as it was when the wait ended)
  {"signal": "HUP", "to": "child"}     send a signal to the program ("child") or to the
                                       terminal's foreground process group ("foreground")
  {"fetch": "http://...", "has": "text", "timeout": 20}
                                       wait until a GET of that URL answers a body containing
                                       text (a readiness signal, e.g. the fake's request log)
  {"stopped": true, "timeout": 20}     wait until a process of the program's session other
                                       than the program itself is stopped (a background job
                                       that got SIGTTOU/SIGTTIN)
  {"wait": true, "timeout": 20}        wait for the program to end
Prints one JSON object: {"ok": every step done, "failed": the step that was not (or null),
"output": everything the terminal showed, "status": exit code, or -N when signal N ended the
program (null if still running: it is then killed), "core": whether that signal dumped core,
"echo": {label: bool}}. Used by Tests/EndToEndTests/SignalEndToEndTests.swift.
"""
import fcntl, json, os, resource, select, signal, sys, termios, time, urllib.request

spec = json.loads(sys.argv[1])
master, slave = os.openpty()
pid = os.fork()
if pid == 0:
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    os.closerange(3, 1024)
    if "cwd" in spec:
        os.chdir(spec["cwd"])
    if spec.get("core_limit"):
        hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
        resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
    for number in range(1, signal.NSIG):
        try:
            signal.signal(number, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
    os.execve(spec["argv"][0], spec["argv"], spec.get("env", {}))

out = b""
position = 0
status = None
raw = None
marks = {}
failed = None
overall = time.time() + spec.get("timeout", 60)


def pump(wait):
    global out
    ready, _, _ = select.select([master], [], [], wait)
    if ready:
        try:
            data = os.read(master, 4096)
        except OSError:
            data = b""
        out += data


def reap():
    global status, raw
    if status is None:
        done, value = os.waitpid(pid, os.WNOHANG)
        if done:
            raw = value
            status = os.WEXITSTATUS(value) if os.WIFEXITED(value) else -os.WTERMSIG(value)


def foreground():
    """The terminal's foreground process group (tpgid in /proc/PID/stat; the driver's copy of
    the slave is not its controlling terminal, so tcgetpgrp cannot ask)."""
    with open("/proc/%d/stat" % pid) as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[5])


def fetched(url, text):
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return text.encode() in answer.read()
    except OSError:
        return False


def stopped_in_session():
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == pid:
            continue
        try:
            with open("/proc/%s/stat" % entry) as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == pid and fields[0] == "T":
            return True
    return False


def echo():
    return bool(termios.tcgetattr(slave)[3] & termios.ECHO)


for step in spec["steps"]:
    deadline = min(overall, time.time() + step.get("timeout", 20))
    if "send" in step:
        os.write(master, step["send"].encode())
    elif "signal" in step:
        number = getattr(signal, "SIG" + step["signal"])
        if step.get("to", "child") == "foreground":
            os.killpg(foreground(), number)
        else:
            os.kill(pid, number)
    elif "fetch" in step:
        while not fetched(step["fetch"], step["has"]) and time.time() < deadline:
            pump(0.05)
        if not fetched(step["fetch"], step["has"]):
            failed = step
            break
    elif "stopped" in step:
        while not stopped_in_session() and time.time() < deadline:
            pump(0.02)
        if not stopped_in_session():
            failed = step
            break
    elif "expect" in step:
        wanted = step["expect"].encode()
        while wanted not in out[position:] and time.time() < deadline:
            pump(0.05)
        found = out.find(wanted, position)
        if found < 0:
            failed = step
            break
        position = found + len(wanted)
    elif "echo_is" in step:
        while echo() != step["echo_is"] and time.time() < deadline:
            pump(0.02)
        marks[step.get("as", str(len(marks)))] = echo()
        if echo() != step["echo_is"]:
            failed = step
            break
    elif "wait" in step:
        while time.time() < deadline:
            reap()
            if status is not None:
                break
            pump(0.05)
        if status is None:
            failed = step
            break
    else:  # an unknown step (there is no "sleep": wait for a state the program shows instead)
        failed = step
        break

end = time.time() + 0.3
while time.time() < end:
    pump(0.05)
reap()
if status is None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
print(json.dumps({"ok": failed is None, "failed": failed, "output": out.decode("utf-8", "replace"),
                  "status": status, "core": bool(raw is not None and os.WCOREDUMP(raw)),
                  "echo": marks}))
