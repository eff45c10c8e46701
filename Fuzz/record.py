#!/usr/bin/env python3
"""Writes the figures of the last `Fuzz/run.sh` into Fuzz/RESULTS.md (run.sh calls it when
FUZZ_RECORD=1), between the lines `<!-- fuzz-run:begin -->` and `<!-- fuzz-run:end -->`.

  Fuzz/record.py SECONDS TARGET...

Per target, from Fuzz/out/logs/NAME.log (libFuzzer's output with -print_final_stats=1) and
Fuzz/out/logs/NAME.status (the exit status run.sh saw): executions, seconds, exec/s, coverage
(edges), features, corpus files, peak RSS and the outcome; the heading names the commit
(`git rev-parse --short HEAD`, "dirty" when the tree differs from it), the date and the load.
Exits 2 when a log lacks the figures (the run did not happen or was cut short)."""
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.environ.get("FUZZ_OUT", os.path.join(ROOT, "Fuzz", "out"))
RESULTS = os.environ.get("FUZZ_RESULTS", os.path.join(ROOT, "Fuzz", "RESULTS.md"))
BEGIN, END = "<!-- fuzz-run:begin -->", "<!-- fuzz-run:end -->"


def last(pattern, text, default=None):
    found = re.findall(pattern, text, re.M)
    return found[-1] if found else default


def commit():
    def git(*args):
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "Sources", "Fuzz/targets", "Fuzz/Support")
    return head + (" (dirty: uncommitted changes to the fuzzed code)" if dirty else "")


def figures(name):
    log = open(os.path.join(OUT, "logs", name + ".log"), errors="replace").read()
    status = open(os.path.join(OUT, "logs", name + ".status")).read().strip()
    runs = last(r"^stat::number_of_executed_units:\s*(\d+)", log)
    if runs is None and status == "0":
        raise OSError(f"no final stats in the log of {name}: was it run?")
    corpus_dir = os.path.join(OUT, "corpus", name)
    crashes_dir = os.path.join(OUT, "crashes", name)
    return {
        "executions": int(runs or 0),
        "seconds": int(last(r"^Done \d+ runs in (\d+) second", log, "0")),
        "rate": int(last(r"^stat::average_exec_per_sec:\s*(\d+)", log, "0")),
        "cov": last(r"cov: (\d+)", log, "?"),
        "ft": last(r"ft: (\d+)", log, "?"),
        "corpus": len(os.listdir(corpus_dir)) if os.path.isdir(corpus_dir) else 0,
        "rss": last(r"^stat::peak_rss_mb:\s*(\d+)", log, "?"),
        "outcome": "clean" if status == "0" else f"FAILED (status {status}; "
                   f"{len(os.listdir(crashes_dir)) if os.path.isdir(crashes_dir) else 0} saved inputs)",
    }


def main(argv):
    if len(argv) < 3 or not argv[1].isdigit():
        print("usage: Fuzz/record.py SECONDS TARGET...", file=sys.stderr)
        return 2
    seconds, targets = int(argv[1]), argv[2:]
    rows = {name: figures(name) for name in targets}
    total = sum(r["executions"] for r in rows.values())
    spent = sum(r["seconds"] for r in rows.values())
    clean = all(r["outcome"] == "clean" for r in rows.values())
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    lines = [
        BEGIN,
        f"Latest run, written by `FUZZ_RECORD=1 Fuzz/run.sh {seconds}`: commit `{commit()}`, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, load average {load} at the end.",
        "",
        "| target | executions | seconds | exec/s | cov (edges) | features | corpus | peak RSS (MiB) | outcome |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, r in rows.items():
        lines.append(f"| `{name}` | {r['executions']:,} | {r['seconds']} | {r['rate']} | {r['cov']} | {r['ft']} | "
                     f"{r['corpus']} | {r['rss']} | {r['outcome']} |")
    lines += ["", f"**Total: {total:,} executions in {spent:,} s ({len(rows)} targets × {seconds} s), "
              f"{'all clean' if clean else 'NOT clean'}.**", END]
    text = open(RESULTS).read()
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + "\n".join(lines) + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
    open(RESULTS, "w").write(text)
    print(f"record.py: wrote the figures of {len(rows)} targets into {RESULTS}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except OSError as error:
        print(f"record.py: {error}", file=sys.stderr)
        sys.exit(2)
