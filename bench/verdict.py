#!/usr/bin/env python3
"""bench/run's verdicts, apart from its measuring so that they can be tested (bench/test_verdict.py).

  verdict.py answers WORK TOKEN
      Before anything is timed: every compared command must have given the right answer. Reads
      WORK/answer.NAME.{status,out} for NAME in token, gh, git-store, git-helper. Prints one line
      per command; exits 1 when one answered wrongly (a wrong answer is a failed comparison).

  verdict.py figures WORK MODE LOGINS RSS_KIB ROOT BINARY COMMIT
      Reads the hyperfine rounds (WORK/round.N.json, N = 1..$ROUNDS), WORK/logins.json and
      WORK/readelf.txt (`readelf -d BINARY`); prints one line per target; in full mode writes
      ROOT/bench/RESULTS.md naming COMMIT. Exits 1 when a target is missed.

Any other failure (a missing or malformed file, a bug here: a Python traceback) exits 2, which
bench/run passes on: 2 means the bench itself is broken, 1 that ghlogin missed a target.
"""
import base64
import json
import os
import platform
import re
import statistics
import sys
import time
import traceback

METHOD = """
## Method

- Build: `scripts/build-release.sh` (what the README gives: release, `--static-swift-stdlib`,
  `--disable-local-rpath`, one compiler flag); the binary is copied into the temp directory and measured there, as installed.
- The floor: `bench/swift-floor.swift`, a Swift program that only prints the file, built with
  the release build's link flags (static standard library, lld, packed relocations, no exported
  symbols) and timed in the same rounds. Its ratio to `cat` is what any Swift binary costs on the
  machine, shown beside the `token` target as a reference (INFO: it never fails a run).
- Throwaway HOME: ghlogin's `credentials.json` (0600, one account), gh's `hosts.yml` with the same
  `oauth_token` (`GH_CONFIG_DIR`), and `~/.git-credentials` with the same token for
  `git credential-store`. Commands run with `env -i`, HOME, PATH, GH_CONFIG_DIR, LANG and the 45
  variables of a user's shell (`SESSION` in `bench/run`: 2.2 KB, a desktop terminal's without a
  display, session bus, runtime directory or locale that would change what a compared command
  does), the same for every command: what ghlogin pays to find its variables grows with the
  environment, and an empty one hid it (from `0ca945d` on; earlier runs had only the first four).
- Times: rounds of `hyperfine -N`, each running every command (after warm-ups); the machine is
  warmed first with a few hundred runs, and everything runs under SCHED_FIFO (`chrt -f 10`) when
  allowed, else at `nice -n -10`, the same for all commands: on this shared machine a short
  process otherwise often waits a whole scheduler slice (about 4 ms) before it runs. A ratio is taken per round, from the medians of commands run moments
  apart, and the figure is the median of those ratios (paired runs); the times shown are medians
  of all runs. hyperfine 1.15 (Debian 12) cannot feed
  standard input, so both credential helpers run through `bench/stdin-from.c`, a static helper
  that opens the request as stdin and execs the command. Its cost (median of
  `stdin-from REQUEST /usr/bin/true` minus median of `/usr/bin/true`) is taken off both medians
  before their ratio.
- Peak RSS: GNU time's `%M` (maximum resident set size) for `token`, the highest of 3 runs;
  wait4's `ru_maxrss` for the logins, the highest of all plain runs.
- Login: the fake GitHub (`Tests/FakeGitHub`, TLS on 127.0.0.1 with its test CA as
  `SSL_CERT_FILE`; the endpoints are `https://127.0.0.1:PORT/...`, since the release binary has no
  test resolver and the test certificate has the IP SAN 127.0.0.1), `ghlogin auth --no-browser`,
  and `Tests/FakeGitHub/fake_browser.py` as the browser, driven by `bench/login.py`. Each round
  runs three logins:
  - plain: its CPU time (wait4: utime + stime, which Linux keeps equal to the precise run time);
  - interrupted by SIGINT while waiting for the browser (after the TLS context is made): the CPU
    time of everything before the callback, and of exiting;
  - traced by `perf trace` (it records system calls without stopping the process), or by
    `strace -f --seccomp-bpf -ttt -T` where perf cannot run (only the traced calls stop the
    process), tracing poll, ppoll, connect, rename*, fsync, fdatasync: the wall-clock window from
    the return of the `poll` that saw the callback connection readable to the return of `rename(2)`
    of the credentials file. The fake's own time in it is the time ghlogin sat blocked in `poll`
    (TCP connect, the server's TLS flights, the HTTP responses of the token exchange and
    `GET /user`); the storage's is the `fsync` of the new file.

  The figure is ghlogin's wall-clock time in the window: median of window - fake - fsync (with
  strace it also holds the tracer's stops, so it errs high). Beside it, ghlogin's CPU time from the
  callback on, median(plain) - median(interrupted), which errs high too (it also holds what follows
  the rename: the directory's fsync, the `Logged in` line, exit). The two TLS handshakes with
  OpenSSL 3 are most of it (certificate decoding and signature checks, about 5.6 M instructions
  each by callgrind).
"""

HISTORY = """
## What each change bought (measured while making it, issue 8)

`ghlogin token` on one account: instructions (callgrind), page faults (perf stat), and CPU time
of one run (median of 300 interleaved runs under SCHED_FIFO, binaries copied as installed;
`cat` took 1.08 ms and `true` 0.75 ms in the same session).

| step | instructions | page faults | CPU |
|---|---|---|---|
| before (libssl, libcrypto, libstdc++ linked) | 6.44 M | 420 | 4.56 ms |
| OpenSSL loaded with `dlopen` on first use | 3.04 M | 274 | 2.87 ms |
| libstdc++ linked statically | 1.39 M | 239 | 2.20 ms |
| no refresher unless due; read buffer sized from `fstat` | 1.19 M | 224 | 2.07 ms |
| (main merged: setup-git's executable path resolved at start, store read twice by git-credential) | 1.39 M | 228 | 2.17 ms |
| executable path resolved lazily; command found by name; one read | 1.22 M | 229 | 2.10 ms |
| unwinder linked statically, no `$ORIGIN` run path | 1.18 M | 221 | 1.84 ms |
| host validation without `String.contains` | 1.16 M | 205 | - |

`git-credential get`: 1.62 M instructions after main was merged, 1.37 M with one read of the
store, 1.36 M with the lookup by name, 1.32 M with the static unwinder, 1.28 M now.

A login, from the callback to the rename (perf trace, under SCHED_FIFO, 7 logins each): 4.19 ms
before, 4.22 ms with the start-up changes, 3.66 ms once the TLS context is shared by the two
connections and made while waiting for the browser (the window's instructions went from 20.1 M
to 12.7 M, of which 11.3 M are the two handshakes in OpenSSL). With Debian's CA bundle (139
certificates; the fake's test CA is a single one), making a context costs about 19 ms of CPU,
which a login paid twice after the callback before; now once, before it.

Tried and left out: a version script hiding the executable's symbols (fewer instructions, no
faster), lld with packed relative relocations (-0.04 ms), static libm (glibc's libm.a does not
link against a shared libc), and a non-PIE executable (-0.2 ms, about 11 %, but it would give up
ASLR for the executable image).

### Issue 13: from about 1.7x `cat` to 1.5x

`ghlogin token` (and `git-credential get`) on one account, instructions by callgrind (on a copy
without DWARF, which valgrind 3.19 cannot read), as each step was added on top of the previous:

| step | `token` | `git-credential get` |
|---|---|---|
| before (commit 6f24baf) | 1.09 M | 1.21 M |
| `-disable-concrete-type-metadata-mangled-name-accessors`: no demangling, no conformance scans for `[String: String]`, `_ContiguousArrayStorage<T>` and the like (about 30 % of the run was `swift_getTypeByMangledName`) | 0.89 M | 1.01 M |
| `CStartup`: argv from glibc's `.init_array` call, not the runtime's `/proc/self/maps` scan (45 `sscanf`s and a /proc read before `main`) | 0.79 M | 0.91 M |
| lld with `-z pack-relative-relocs` (20,677 relative relocations: RELR instead of RELA) | 0.69 M | 0.80 M |
| `--symbol-ordering-file=Linker/startup.order` (the 621 functions both commands run, side by side) | 0.69 M | 0.80 M |

Page faults per `token` (perf stat, 300 runs): about 200 before, 182 after the ordering (text
faults from 34 to about 20); `cat` takes 57. `bench/run` (full) on the commit before (6f24baf, built in a
scratch worktree) and right after on 1c2ff54, minutes apart on the same loaded machine (load
average 22-27): `token` 1.70x `cat` before, 1.40x after; `git-credential get` 1.26x
`git credential-store get` before, 1.09x after; peak RSS of `token` 6.9 MiB before, 4.8 MiB after.
What is left: the loader (relocating the 20,677 pointers of the Swift metadata, 0.18 M
instructions and about 56 copy-on-write faults; a non-PIE executable would avoid both but gives up
ASLR for the executable image, so it stays PIE), loading libm, and about 0.35 M instructions in
Swift (the first generic metadata of each kind, the credentials file's JSON).

### Issue 19: the layers as targets, and the helpers' paths

Instructions by callgrind (a copy without DWARF), one account, each step on top of the previous.
`token` was counted with only `HOME` and `PATH` set; the helpers (and `token` in the last row)
with the 35 variables of a shell here, which matter since every variable is parsed at start-up:

| step | `token` (2 variables) | `git-credential get` | `docker-credential get` | `goauth URL` |
|---|---|---|---|---|
| the split into GHLoginCore / GHLoginKit / GHLoginCLI: `ghlogin` links no Swift Concurrency (nm finds 0 of the 4 entry points, 10 lines before; the one-module binary was not counted, callgrind refused its DWARF) | 0.84 M | | | |
| `token` prints the credential itself (the `AccessToken`'s API URL built every endpoint: 47 k) and builds no ignored-keys warning when nothing was ignored (29 k) | 0.77 M | 0.95 M | 1.03 M | 0.92 M |
| the environment split on bytes with `strchr` (String's `firstIndex(of:)` walks grapheme clusters: about 4 k a variable) into a dictionary sized once; `github.com` taken as valid without parsing | 0.70 M | | | |
| the helpers' matchers take arrays, not `some Sequence` (a generic parameter across a module boundary resolved its associated types by mangled name: 135 k for `docker-credential get`); key paths on these paths as closures | 0.70 M (0.76 M with 35 variables) | 0.83 M | 0.86 M | 0.79 M |
| `Linker/startup.order` regenerated (the new module names had made it stale) and extended to the docker and Go helpers | | | | |

Before and after in `bench/run` (full): `token` 1.55x `cat` on `7e09482`, about 1.35-1.40x now;
`git-credential get` 1.16x to 1.05-1.08x; `docker-credential get` 1.51x to 1.46x; `goauth`
1.52x to 1.36-1.39x; keyring `token` 1.11x to 1.06-1.10x (two full runs minutes apart on the
merged code). What is left is the loader relocating the static standard library's metadata
(about 0.2 M instructions, the same in a minimal static Swift program that prints the file), the
first generic metadata of each kind, and the credentials file's JSON (about 0.14 M).

### Issue 19, later: what Swift does before `token` answers

Instructions by callgrind (copies without DWARF), one account, only `HOME` and `PATH` set, each
step on top of the previous:

| step | `token` | `git-credential get` | `docker-credential get` | `goauth URL` |
|---|---|---|---|---|
| before (8cdda0f) | 686 k | 759 k | 804 k | 725 k |
| the credentials file's key paths spelled out only for a message (escaping the host and joining strings for every field); key lists as arrays, not sets built on each read; paths split on UTF-8 bytes, not `Character`s | 602 k | | | |
| the release build without `_StringProcessing` (`-disable-implicit-string-processing-module-import`; three `firstRange(of:)`/`contains("…")` calls had linked the whole regex engine: 9,098 symbols, 2.1 MB of the binary) | 569 k | 640 k | 693 k | 606 k |

Page faults per `token` (`/usr/bin/time`): 229, 230, then 210; a minimal static Swift program
that prints the file takes 156 and 425 k instructions (80 k of them its runtime's
`/proc/self/maps` scan, which `CStartup` avoids). Wall time on this noisy 2-core machine moved
less than the instructions: interleaved hyperfine rounds gave `token` 1.58x `cat` before, 1.52x
after, with the minimal Swift program at 1.35x in the same run (1.18x in the issue's
measurement); `bench/run`'s figures are in RESULTS.md. What is left is mostly the first use of
each generic type's metadata (`swift_getCanonicalPrespecializedGenericMetadata`, about 115 k:
`Optional`, `Array` and `Dictionary` register every prespecialization the static standard
library has on their first use), the loader's relative relocations, and the credentials JSON.

### Issue 19, later still: the environment a user has

The figures above were taken with four variables set; a user's shell has 40 to 80. ghlogin copied
every variable of `environ` into a `[String: String]` at start-up (about 1 k instructions each:
a `String` for the name and the value, hashing, insertion) to read about a dozen of them.
`EnvironmentVariables` (`0ca945d`) looks each name up in `environ` when it is asked for, and
copies the whole environment only where it is handed on (a child process, the `config` topic).
Instructions by callgrind, as above, with only `HOME` and `PATH` ("bare") and with `bench/run`'s
45-variable `SESSION` added:

| | `token` | `git-credential get` | `docker-credential get` | `goauth URL` |
|---|---|---|---|---|
| before (`ee9d64d`), bare | 570 k | 644 k | 664 k | 608 k |
| before, 45 variables | 645 k | 715 k | 733 k | 677 k |
| after (`0ca945d`), bare | 556 k | 635 k | 650 k | 595 k |
| after, 45 variables | 582 k | 661 k | 677 k | 621 k |

Then, each on top of the one before (bare / with the 45 variables):

| step | `token` | `git-credential get` | `docker-credential get` | `goauth URL` |
|---|---|---|---|---|
| host names checked on UTF-8 bytes, not labels split on `Character`s (`95ab7a3`) | 554 k / 580 k | 634 k / 660 k | 637 k / 663 k | 594 k / 620 k |
| the command found by a `switch`, not a table of `(String, Command.Type)` pairs whose metadata the runtime made on first use (`393922c`) | 540 k / 566 k | 619 k / 645 k | 633 k / 659 k | 579 k / 605 k |
| standard input read into an uninitialised buffer (a zeroed 16 KiB array: 16 k), git's request checked as UTF-8 without the generic `String(validating:as:)` (14 k) (`613c37b`) | 543 k / 569 k | 592 k / 618 k | 619 k / 645 k | 565 k / 591 k |

What still grows with the environment (26 k for 45 variables) is mostly outside ghlogin's code:
the loader and the Swift runtime each scan `environ` at start-up (`cat` grows by 29 k the same
way). `bench/run` now runs every compared command with `SESSION`; in its first full run
(`0ca945d`) `token` was 1.34x `cat` and the minimal Swift program 1.38x: `token` costs what any
Swift binary costs here. Across today's full and smoke runs that reference row moved between
1.16x and 1.38x, so one run's ratio says little about a change of a few percent; the instruction
counts do.

### Issue 20: libm loaded on first use

Where a minimal Swift program's time goes beyond `cat`'s (perf, page faults by where they land):
the loader's copy-on-write of the pages it relocates (about 40 of the program's 144 faults), the
runtime's first use of its tables, and loading libm.so.6, which the static standard library
needs for about 110 math functions (Float and Double rounding, `fmod`, the Glibc overlay's `sin`,
`pow`, `lgamma`...). A C `cat` linked with and without `-lm` costs 0.88x and 0.80x `cat`; the
minimal Swift program with the math functions stubbed out went from 1.22x to 1.15x in paired
rounds. `ghlogin` calls none of them except the five that round a `Double`: Dictionary growth
calls `ceil` on every run, and a token's expiry goes through `rounded(.down)`. So the release link
gets nothing for `-lm` (`Linker/libm.so`), `CStartup/libm.c` defines 102 of the functions as stubs
that `dlopen` libm.so.6 on their first call and computes the five exactly (`LibmStubTests` checks
every one against libm; `ReleaseEndToEndTests` that `token`, `git-credential get` and `goauth`
load no libm). The floor program is linked the same way, as the release build links ghlogin.

| | `token` | `git-credential get` | `docker-credential get` | `goauth URL` |
|---|---|---|---|---|
| instructions (callgrind, 45 variables), before (`5dddca8`) | 569 k | 618 k | 645 k | 591 k |
| after (`dc88e87`) | 541 k | 590 k | 617 k | 562 k |

Page faults per `token` (perf stat, 200-300 runs): 184 before, 169-175 after, 168 with
`Linker/startup.order` regenerated (`5397980`); the minimal Swift program takes 144. `bench/run`
(full), three runs in a row on each commit, as ratios to `cat`:

| commit | `token` | `docker-credential get` | `goauth URL` | minimal Swift program |
|---|---|---|---|---|
| `bc7d8bd` (before; one run) | 1.27x | 1.42x | 1.28x | 1.27x |
| `dc88e87` (libm on first use) | 1.24x, 1.19x, 1.23x | 1.23x, 1.15x, 1.31x | 1.24x, 1.14x, 1.28x | 1.17x, 1.14x, 1.19x |
| `5397980` (startup order) | 1.21x, 1.22x, 1.21x | 1.24x, 1.16x, 1.15x | 1.21x, 1.20x, 1.16x | 1.19x, 1.18x, 1.10x |

Tried and measured, not taken: a fully static Swift executable runs at 0.91x `cat`, and a static
PIE at 1.05x (it keeps ASLR); glibc cannot `dlopen` libssl.so.3 or libsecret into a static
executable safely (a second libc in the process), and loading them on first use is the design.

A measuring trap: the binary the linker has just written runs about 20 % slower than the same
bytes copied with `cp`/`install` (page-cache state, until the cache is dropped), so the
benchmark copies it first, and so should any before/after comparison.
"""


class Broken(Exception):
    """The bench's own inputs are not what it produced on a good run (exit 2)."""


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as error:
        raise Broken(f"cannot read {path}: {error}") from error


# --- answers ---------------------------------------------------------------------------------------

def expected_answers(token):
    """name -> (what is expected, a check of stdout). Stderr is not looked at (gh may warn)."""
    def exactly_the_token(out):
        return out == token + "\n"

    def git_answer(username):
        def check(out):
            lines = out.split("\n")
            return f"password={token}" in lines and (username is None or f"username={username}" in lines)
        return check

    def docker_answer(out):
        return out == json.dumps({"ServerURL": "ghcr.io", "Username": "octocat", "Secret": token},
                                 separators=(",", ":")) + "\n"

    basic = base64.b64encode(f"octocat:{token}".encode()).decode()

    def goauth_answer(out):
        return out == f"https://github.com/\n\nAuthorization: Basic {basic}\n\n"

    return {
        "token": ("exactly the token and a newline", exactly_the_token),
        "gh": ("exactly the token and a newline", exactly_the_token),
        "git-store": ("a password=TOKEN line", git_answer(None)),
        "git-helper": ("password=TOKEN and username=octocat lines", git_answer("octocat")),
        "docker-get": ('exactly {"ServerURL":"ghcr.io","Username":"octocat","Secret":TOKEN}', docker_answer),
        "goauth": ("exactly https://github.com/, an empty line, the Basic header, an empty line", goauth_answer),
    }


def answers(work, token):
    wrong = False
    for name, (expected, check) in expected_answers(token).items():
        status = read(os.path.join(work, f"answer.{name}.status")).strip()
        out = read(os.path.join(work, f"answer.{name}.out"))
        if status == "0" and check(out):
            print(f"answer of {name}: right")
            continue
        wrong = True
        shown = out.replace(token, "<the token>")[:200] or "(nothing)"
        print(f"answer of {name}: WRONG (exit {status}; expected {expected}; stdout: {shown!r}); FAIL",
              file=sys.stderr)
    return 1 if wrong else 0


# --- figures ---------------------------------------------------------------------------------------

# The Swift concurrency runtime's entry points (issue 19 §4): a binary that links the runtime has
# them; ghlogin's, whose command line uses no Swift Concurrency, must have none.
CONCURRENCY_ENTRY_POINTS = ("swift_task_create", "swift_task_alloc", "swift_continuation_init", "swift_job_run")


def concurrency_symbols(nm_text):
    """The symbols in `nm` output that are the concurrency runtime's entry points, and how many
    symbols the output lists at all (none: nm read no symbol table, which proves nothing)."""
    # nm's lines: an address (absent for undefined symbols), a one-letter type, the name
    names = [w[-1] for w in (line.split() for line in nm_text.splitlines())
             if 2 <= len(w) <= 3 and len(w[-2]) == 1 and w[-2].isalpha()]
    return [n for n in names if n in CONCURRENCY_ENTRY_POINTS], len(names)


def needed_libraries(readelf_text):
    return re.findall(r"\(NEEDED\).*\[(.*)\]", readelf_text)


FLOOR_ROW = "reference: a minimal static Swift program printing the file vs cat"


def figures(work, mode, logins, rss_token, root, binary, commit):
    logins, rss_token = int(logins), int(rss_token)
    runs = json.loads(read(os.path.join(work, "logins.json")))
    rss_login = max(runs["rss_kib"])
    rounds = []
    for n in range(1, int(os.environ["ROUNDS"]) + 1):
        data = json.loads(read(os.path.join(work, f"round.{n}.json")))["results"]
        rounds.append({r["command"]: [t * 1000 for t in r["times"]] for r in data})
    if not rounds:
        raise Broken("no hyperfine rounds")
    names = list(rounds[0])
    for name in ("token", "cat", "gh", "true", "true-stdin", "git-store", "git-helper", "docker-get", "goauth"):
        if any(name not in r for r in rounds):
            raise Broken(f"a round has no figures for {name}")
    pooled = {name: [t for r in rounds for t in r[name]] for name in names}
    med = {name: statistics.median(times) for name, times in pooled.items()}  # over all runs, for display
    per_round = [{name: statistics.median(r[name]) for name in names} for r in rounds]

    def paired(ratio):
        """The median over the rounds of ratio(medians of one round)."""
        return statistics.median(ratio(m) for m in per_round)

    lines = []

    def line(target, figure, reference, ratio, ok):
        lines.append((target, figure, reference, ratio, "PASS" if ok else "FAIL"))

    # 1-2: token against cat and gh
    r = paired(lambda m: m["token"] / m["cat"])
    line("token vs cat credentials.json (<= 1.25x)", f"{med['token']:.2f} ms", f"cat {med['cat']:.2f} ms", f"{r:.2f}x", r <= 1.25)
    # the reference beside it: a minimal static Swift program printing the file (bench/swift-floor.swift),
    # the least any Swift binary costs here; no target of its own (INFO), so it never fails a run
    if "swift-floor" in names:
        r = paired(lambda m: m["swift-floor"] / m["cat"])
        lines.append((FLOOR_ROW, f"{med['swift-floor']:.2f} ms", f"cat {med['cat']:.2f} ms", f"{r:.2f}x", "INFO"))
    r = paired(lambda m: m["gh"] / m["token"])
    line("token vs gh auth token (>= 15x faster)", f"{med['token']:.2f} ms", f"gh {med['gh']:.2f} ms", f"{r:.1f}x faster", r >= 15)

    # 3: git-credential get against git credential-store get, both through stdin-from, whose own
    # cost (stdin-from + true against true alone) is taken off both medians of each round
    def wrapper(m):
        return max(0.0, m["true-stdin"] - m["true"])

    cost = paired(wrapper)
    store = med["git-store"] - cost
    helper = med["git-helper"] - cost
    r = paired(lambda m: (m["git-helper"] - wrapper(m)) / (m["git-store"] - wrapper(m)))
    line("git-credential get vs git credential-store get (<= 1.1x)", f"{helper:.2f} ms", f"git {store:.2f} ms", f"{r:.2f}x", r <= 1.1)
    # 3b: the container and Go helpers against cat of the credentials file (issue 20); the docker
    # helper reads its registry through stdin-from, whose cost is taken off as above
    docker = med["docker-get"] - cost
    r = paired(lambda m: (m["docker-get"] - wrapper(m)) / m["cat"])
    line("docker-credential-ghlogin get vs cat credentials.json (<= 1.25x)", f"{docker:.2f} ms", f"cat {med['cat']:.2f} ms", f"{r:.2f}x", r <= 1.25)
    r = paired(lambda m: m["goauth"] / m["cat"])
    line("goauth URL vs cat credentials.json (<= 1.25x)", f"{med['goauth']:.2f} ms", f"cat {med['cat']:.2f} ms", f"{r:.2f}x", r <= 1.25)
    # 4-5: peak RSS
    line("peak RSS of token (<= 15 MiB)", f"{rss_token / 1024:.1f} MiB", "15 MiB", f"{rss_token / 1024 / 15:.2f}", 0 < rss_token <= 15 * 1024)
    line("peak RSS of a loopback login (<= 40 MiB)", f"{rss_login / 1024:.1f} MiB", "40 MiB", f"{rss_login / 1024 / 40:.2f}", 0 < rss_login <= 40 * 1024)

    # 6: login, from the callback to the credentials file renamed into place (see bench/login.py)
    cpu_own = statistics.median(runs["cpu_plain_ms"]) - statistics.median(runs["cpu_interrupted_ms"])
    traced = runs["traced"]
    o, f, s, w = (statistics.median(t[k] for t in traced) for k in ("own", "fake", "fsync", "window"))
    line("login: callback -> credentials renamed (<= 5 ms + fake)", f"{o:.2f} ms",
         f"window {w:.2f} - fake {f:.2f} - fsync {s:.2f}; CPU {cpu_own:.2f}", f"{o / 5:.2f} of 5 ms", o <= 5)

    # the binary itself: OpenSSL and libstdc++ are not loaded at start-up; no NEEDED line at all
    # means readelf did not read a dynamic executable, which proves nothing
    needed = needed_libraries(read(os.path.join(work, "readelf.txt")))
    # 7: keyring token against secret-tool lookup (bench_keyring in bench/run), paired rounds
    kfiles = [os.path.join(work, f"keyring.{n}.json") for n in range(1, int(os.environ["ROUNDS"]) + 1)]
    if all(os.path.exists(f) for f in kfiles):
        kdata = [{r["command"]: [t * 1000 for t in r["times"]] for r in json.load(open(f))["results"]} for f in kfiles]
        kt = statistics.median(t for k in kdata for t in k["keyring-token"])
        ks = statistics.median(t for k in kdata for t in k["secret-tool"])
        r = statistics.median(statistics.median(k["keyring-token"]) / statistics.median(k["secret-tool"]) for k in kdata)
        line("keyring token vs secret-tool lookup (<= 1.1x)", f"{kt:.2f} ms", f"secret-tool {ks:.2f} ms", f"{r:.2f}x", r <= 1.1)
    else:
        lines.append(("keyring token vs secret-tool lookup (<= 1.1x)", "not available", "-", "-",
                      "SKIP (no working gnome-keyring-daemon here)"))

    heavy = [lib for lib in needed if lib.startswith(("libssl", "libcrypto", "libstdc++", "libsecret", "libglib", "libgio"))]
    line("binary links no libssl/libcrypto/libstdc++/libsecret/GLib", "NEEDED: " + (" ".join(needed) or "none found"), "-", "-",
         bool(needed) and not heavy)

    found, listed = concurrency_symbols(read(os.path.join(work, "nm.txt")))
    line("binary links no Swift Concurrency (nm: swift_task_create, ...)",
         f"{len(found)} of the runtime's entry points in {listed} symbols", "-", "-", listed > 0 and not found)

    width = max(len(l[0]) for l in lines)
    for target, figure, reference, ratio, verdict in lines:
        print(f"{target:<{width}}  {figure:>12}  {reference:<40}  {ratio:>18}  {verdict}")
    print(f"({mode} mode, commit {commit}, priority: {os.environ.get('PRIORITY') or 'normal'}: {len(rounds)} rounds, "
          f"{len(pooled['token'])} runs per command, {logins} rounds of logins; times are medians of all runs, "
          f"ratios medians of the rounds' ratios; stdin-from cost taken off: {cost:.3f} ms)")

    if mode == "full":
        cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
        load = open("/proc/loadavg").read().split()[:3]
        commands = dict(l.rstrip("\n").split("\t", 1) for l in read(os.path.join(work, "commands.tsv")).splitlines())
        with open(os.path.join(root, "bench", "RESULTS.md"), "w") as out:
            out.write("# Benchmark results\n\n")
            out.write("Written by `bench/run` (do not edit by hand). ")
            out.write(f"Latest run: commit `{commit}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, on "
                      f"{os.cpu_count()} CPUs, {cpu}, Linux {platform.release()}, load average {' '.join(load)} at "
                      f"the end of the run (the machine is shared; hence ratios of medians, not absolute times).\n\n")
            out.write("| target | figure | reference | ratio | result |\n|---|---|---|---|---|\n")
            for target, figure, reference, ratio, verdict in lines:
                out.write(f"| {target} | {figure} | {reference} | {ratio} | {verdict} |\n")
            out.write(f"\nMedians of all runs ({len(rounds)} rounds of hyperfine -N, {os.environ['WARMUP']} warm-ups and "
                      f"{os.environ['RUNS']} runs per command each), in milliseconds:\n\n")
            for name in names:
                command = commands[name].replace(binary, "ghlogin").replace(work, "$WORK")
                out.write(f"- {name}: `{command}`: {med[name]:.3f} ms\n")
            out.write(f"\nLogins ({logins} rounds, traced with {runs['tracer']}): CPU time of a whole login "
                      f"{statistics.median(runs['cpu_plain_ms']):.2f} ms, of one interrupted before the callback "
                      f"{statistics.median(runs['cpu_interrupted_ms']):.2f} ms (medians); traced wall-clock windows "
                      f"(window - fake - fsync = ghlogin, ms): "
                      + "; ".join(f"{t['window']:.2f} - {t['fake']:.2f} - {t['fsync']:.2f} = {t['own']:.2f}" for t in traced)
                      + ".\n")
            out.write(METHOD)
            out.write(HISTORY)
        readme_table(root, commit, med, cost, lines, rss_token, rss_login, o, f)
    return 1 if any(l[4] == "FAIL" for l in lines) else 0


README_BEGIN, README_END = "<!-- bench/run:begin -->", "<!-- bench/run:end -->"


def readme_table(root, commit, med, cost, lines, rss_token, rss_login, own, fake):
    """Rewrites the README's figures (between its bench/run markers) from this run."""
    path = os.path.join(root, "README.md")
    text = read(path)
    if README_BEGIN not in text or README_END not in text:
        raise Broken(f"{path} has no {README_BEGIN} ... {README_END} section for the figures")
    ratio = {l[0].split(" (")[0]: l[3] for l in lines}
    # The keyring row (issue 15), when this machine could run gnome-keyring-daemon.
    keyring = next((l for l in lines if l[0].startswith("keyring token") and not l[4].startswith("SKIP")), None)
    keyring_rows = [] if keyring is None else [
        f"| `ghlogin token` with `\"store\": \"keyring\"` | {keyring[1]} | `secret-tool lookup` "
        f"{keyring[2].split(' ', 1)[1]} | {keyring[3].replace('x', '×')} | ≤ 1.1× |"]
    # The floor for a Swift binary on this machine (bench/swift-floor.swift), beside the token rows.
    floor = next((l for l in lines if l[0] == FLOOR_ROW), None)
    floor_rows = [] if floor is None else [
        f"| a minimal static Swift program printing the file (the floor for any Swift binary here) | {floor[1]} | "
        f"`cat credentials.json` {med['cat']:.2f} ms | {floor[3].replace('x', '×')} | reference |"]
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    table = "\n".join([
        README_BEGIN,
        f"Latest figures (written by `bench/run` on commit `{commit}`, {time.strftime('%Y-%m-%d', time.gmtime())}; "
        f"{os.cpu_count()} CPUs, {cpu}, Linux {platform.release()}, shared with other builds): median times, and "
        "ratios as the median of rounds run moments apart:",
        "",
        "| what | ghlogin | compared with | ratio | target |",
        "|---|---|---|---|---|",
        f"| `ghlogin token` | {med['token']:.2f} ms | `cat credentials.json` {med['cat']:.2f} ms | "
        f"{ratio['token vs cat credentials.json'].replace('x', '×')} | ≤ 1.25× |",
        f"| `ghlogin token` | {med['token']:.2f} ms | `gh auth token` {med['gh']:.0f} ms | "
        f"{ratio['token vs gh auth token'].replace('x', '×')} | ≥ 15× faster |",
        f"| `ghlogin git-credential get` | {med['git-helper'] - cost:.2f} ms | `git credential-store get` "
        f"{med['git-store'] - cost:.2f} ms | {ratio['git-credential get vs git credential-store get'].replace('x', '×')} | ≤ 1.1× |",
        f"| `docker-credential-ghlogin get` | {med['docker-get'] - cost:.2f} ms | `cat credentials.json` {med['cat']:.2f} ms | "
        f"{ratio['docker-credential-ghlogin get vs cat credentials.json'].replace('x', '×')} | ≤ 1.25× |",
        f"| `ghlogin goauth URL` | {med['goauth']:.2f} ms | `cat credentials.json` {med['cat']:.2f} ms | "
        f"{ratio['goauth URL vs cat credentials.json'].replace('x', '×')} | ≤ 1.25× |",
        *floor_rows,
        *keyring_rows,
        f"| peak RSS of `token` | {rss_token / 1024:.1f} MiB | | | ≤ 15 MiB |",
        f"| peak RSS of a whole loopback login | {rss_login / 1024:.1f} MiB | | | ≤ 40 MiB |",
        f"| login, from the callback to the credentials file renamed into place | {own:.1f} ms, plus the fake "
        f"GitHub's {fake:.1f} ms | | | ≤ 5 ms plus the server's time |",
        README_END,
    ])
    text = text[:text.index(README_BEGIN)] + table + text[text.index(README_END) + len(README_END):]
    with open(path, "w") as out:
        out.write(text)


def main(argv):
    if len(argv) == 4 and argv[1] == "answers":
        return answers(argv[2], argv[3])
    if len(argv) == 9 and argv[1] == "figures":
        return figures(*argv[2:])
    print("usage: verdict.py answers WORK TOKEN | figures WORK MODE LOGINS RSS_KIB ROOT BINARY COMMIT", file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        status = main(sys.argv)
    except Broken as error:
        print(f"bench/verdict.py: {error}", file=sys.stderr)
        status = 2
    except BaseException:  # a bug here is the bench failing, never a missed target
        traceback.print_exc()
        status = 2
    sys.exit(status)
