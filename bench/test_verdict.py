#!/usr/bin/env python3
"""Tests of bench/run's verdicts (bench/verdict.py) on made-up figures: a wrong answer and a
missed target fail with 1, a broken input or a bug with 2, and only right answers within every
target pass. Run by `swift test` (BenchVerdictTests) and by `bench/run --self-test`."""
import base64
import json
import os
import subprocess
import sys
import tempfile
import unittest

VERDICT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "verdict.py")
TOKEN = "gho_16C7e42F292c6912E7710c838347Ae178B4a"
APP_TOKEN = "ghu_16C7e42F292c6912E7710c838347Ae178B4a"


def right(token):
    return {
        "token": token + "\n",
        "gh": token + "\n",
        "git-store": f"username=octocat\npassword={token}\n",
        "git-helper": f"protocol=https\nhost=github.com\nusername=octocat\npassword={token}\n",
        "docker-get": f'{{"ServerURL":"ghcr.io","Username":"octocat","Secret":"{token}"}}\n',
        "goauth": "https://github.com/\n\nAuthorization: Basic "
                  + base64.b64encode(f"octocat:{token}".encode()).decode() + "\n\n",
    }


_APP = right(APP_TOKEN)
RIGHT = {**right(TOKEN), **{"r-" + n: _APP[n] for n in ("token", "git-store", "git-helper", "docker-get", "goauth")},
         "h100-token": _APP["token"], "h1000-token": _APP["token"]}
READELF_OK = """
Dynamic section at offset 0x1 contains 3 entries:
  Tag        Type                         Name/Value
 0x0000000000000001 (NEEDED)             Shared library: [libm.so.6]
 0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]
"""
NM_OK = "0000000000012340 T main\n0000000000012400 t $s7ghlogin4mainyyF\n                 U write\n"
# milliseconds per command in every run: every hot path within 1.10x of the floor program (docker
# after the wrapper's 0.3 ms), git-helper 0.94x git-store (after the wrapper), gh 30x token, 0.3 us
# per host entry
GOOD_MS = {"token": 1.2, "cat": 1.0, "gh": 39.0, "true": 0.6, "true-stdin": 0.9, "git-store": 1.9, "git-helper": 1.8,
           "docker-get": 1.5, "goauth": 1.2, "swift-floor": 1.15,
           "r-token": 1.3, "r-cat": 1.05, "r-git-store": 1.9, "r-git-helper": 1.8, "r-docker-get": 1.6, "r-goauth": 1.3,
           "r-floor": 1.2, "h1-token": 1.3, "h100-token": 1.33, "h1000-token": 1.6}


def run(*args):
    result = subprocess.run([sys.executable, VERDICT, *args], capture_output=True, text=True,
                            env=dict(os.environ, ROUNDS="3", RUNS="4", WARMUP="1"))
    return result.returncode, result.stdout + result.stderr


class Work:
    """A made-up bench/run work directory."""

    made = []  # kept until the process ends (a test reads .dir of a Work it no longer holds)

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory()
        Work.made.append(self.tmp)
        self.dir = self.tmp.name
        os.makedirs(os.path.join(self.dir, "bench"))
        os.makedirs(os.path.join(self.dir, "doc"))
        self.write("doc/performance.md", "# x\n\nbefore\n<!-- bench/run:begin -->\nold\n<!-- bench/run:end -->\nafter\n")

    def answers(self, changes=None, statuses=None):
        for name, out in {**RIGHT, **(changes or {})}.items():
            self.write(f"answer.{name}.out", out)
            self.write(f"answer.{name}.status", f"{(statuses or {}).get(name, 0)}\n")
        return self

    def accounts(self, token=4.3, user=1.2, git=1.5, drop=None):
        """Made-up accounts rounds (bench_accounts): token, token --user, each git config, ms per run."""
        times = {"accounts-token": token, "accounts-user": user, "accounts-urlmatch": git, "accounts-git": git}
        for n in range(1, 4):
            results = [{"command": name, "times": [t / 1000] * 4} for name, t in times.items() if name != drop]
            self.write(f"accounts.{n}.json", json.dumps({"results": results}))
        return self

    def figures(self, ms=None, readelf=READELF_OK, drop=None, nm=NM_OK):
        times = {**GOOD_MS, **(ms or {})}
        for n in range(1, 4):
            results = [{"command": name, "times": [t / 1000] * 4} for name, t in times.items() if name != drop]
            self.write(f"round.{n}.json", json.dumps({"results": results}))
        self.write("logins.json", json.dumps({
            "tracer": "strace", "rss_kib": [14000, 14100], "cpu_plain_ms": [10, 11], "cpu_interrupted_ms": [7, 7],
            "traced": [{"window": 15, "fake": 10, "fsync": 0.6, "own": 4.4}]}))
        self.write("readelf.txt", readelf)
        self.write("nm.txt", nm)
        self.write("commands.tsv", "".join(f"{name}\t/bin/{name}\n" for name in times))
        return self

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def verdict(self, mode="smoke"):
        return run("figures", self.dir, mode, "2", "7400", self.dir, "/bin/ghlogin", "abc1234")


class Answers(unittest.TestCase):
    def test_right_answers_pass(self):
        self.assertEqual(run("answers", Work().answers().dir, TOKEN, APP_TOKEN)[0], 0)

    def test_a_wrong_token_fails(self):
        status, text = run("answers", Work().answers({"token": "gho_other\n"}).dir, TOKEN, APP_TOKEN)
        self.assertEqual(status, 1)
        self.assertIn("answer of token: WRONG", text)

    def test_a_token_with_extra_output_fails(self):
        self.assertEqual(run("answers", Work().answers({"token": TOKEN + "\nmore\n"}).dir, TOKEN, APP_TOKEN)[0], 1)

    def test_a_helper_printing_no_password_fails(self):
        status, text = run("answers", Work().answers({"git-helper": ""}).dir, TOKEN, APP_TOKEN)
        self.assertEqual(status, 1)
        self.assertIn("answer of git-helper: WRONG", text)
        self.assertNotIn(TOKEN, text)

    def test_a_docker_helper_answer_for_another_server_fails(self):
        wrong = RIGHT["docker-get"].replace("ghcr.io", "evil.test")
        self.assertEqual(run("answers", Work().answers({"docker-get": wrong}).dir, TOKEN, APP_TOKEN)[0], 1)

    def test_a_docker_helper_not_found_fails(self):
        not_found = "credentials not found in native keychain\n"
        self.assertEqual(run("answers", Work().answers({"docker-get": not_found}, {"docker-get": 1}).dir, TOKEN, APP_TOKEN)[0], 1)

    def test_a_goauth_answer_for_no_url_fails(self):
        self.assertEqual(run("answers", Work().answers({"goauth": ""}).dir, TOKEN, APP_TOKEN)[0], 1)

    def test_a_slow_docker_helper_fails(self):
        status, text = Work().figures({"r-docker-get": 1.9}).verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"realistic: docker-credential-ghlogin get vs the floor program \(<= 1.10x\) .* 1.33x +FAIL")

    def test_a_wrong_realistic_answer_fails(self):
        status, text = run("answers", Work().answers({"r-token": TOKEN + "\n"}).dir, TOKEN, APP_TOKEN)
        self.assertEqual(status, 1)
        self.assertIn("answer of r-token: WRONG", text)
        self.assertNotIn(APP_TOKEN, text)

    def test_a_wrong_answer_with_many_hosts_fails(self):
        status, text = run("answers", Work().answers({"h1000-token": ""}, {"h1000-token": 4}).dir, TOKEN, APP_TOKEN)
        self.assertEqual(status, 1)
        self.assertIn("answer of h1000-token: WRONG (exit 4", text)

    def test_a_helper_exiting_non_zero_fails(self):
        self.assertEqual(run("answers", Work().answers(statuses={"git-helper": 1}).dir, TOKEN, APP_TOKEN)[0], 1)

    def test_a_wrong_reference_answer_fails(self):
        self.assertEqual(run("answers", Work().answers({"git-store": "password=other\n"}).dir, TOKEN, APP_TOKEN)[0], 1)

    def test_a_missing_answer_is_a_broken_bench(self):
        work = Work().answers()
        os.unlink(os.path.join(work.dir, "answer.gh.out"))
        self.assertEqual(run("answers", work.dir, TOKEN, APP_TOKEN)[0], 2)


class Figures(unittest.TestCase):
    def test_every_target_met_passes(self):
        status, text = Work().figures().verdict()
        self.assertEqual(status, 0, text)
        self.assertNotIn("FAIL", text)
        self.assertIn("commit abc1234", text)

    def test_without_accounts_rounds_the_row_is_skipped(self):
        status, text = Work().figures().verdict()
        self.assertEqual(status, 0, text)
        self.assertRegex(text, r"two accounts in a work tree: .* SKIP")

    def test_two_accounts_within_the_git_lookups_pass(self):
        # 4.3 / (1.2 + 2 x 1.5) = 1.02x
        status, text = Work().figures().accounts().verdict()
        self.assertEqual(status, 0, text)
        self.assertRegex(text, r"two accounts in a work tree: token vs token --user \+ its 2 git config \(<= 1.25x\) "
                               r"+4.30 ms +--user 1.20 ms, git config 1.50 \+ 1.50 ms +1.02x +PASS")

    def test_two_accounts_over_the_git_lookups_fail(self):
        # 5.3 / 4.2 = 1.26x
        status, text = Work().figures().accounts(token=5.3).verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"two accounts in a work tree: .* 1.26x +FAIL")

    def test_the_full_run_writes_its_figures_with_the_accounts_rows(self):
        # Full mode lists every hyperfine command's median in RESULTS.md; the accounts rows'
        # own names must not stand in for that list.
        work = Work().figures().accounts()
        status, text = work.verdict(mode="full")
        self.assertEqual(status, 0, text)
        with open(os.path.join(work.dir, "bench", "RESULTS.md")) as f:
            results = f.read()
        self.assertIn("- r-token: `/bin/r-token`:", results)
        self.assertIn("| two accounts in a work tree: token vs token --user + its 2 git config (<= 1.25x) |", results)

    def test_an_accounts_round_without_a_command_is_a_broken_bench(self):
        self.assertEqual(Work().figures().accounts(drop="accounts-git").verdict()[0], 2)

    def test_realistic_token_over_the_floor_limit_fails(self):
        # 1.33 / 1.2 = 1.11x the floor program: just over
        status, text = Work().figures({"r-token": 1.33}).verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"realistic: token vs the floor program \(<= 1.10x\) +1.33 ms +floor 1.20 ms +1.11x +FAIL")

    def test_realistic_token_at_the_floor_limit_passes(self):
        status, text = Work().figures({"r-token": 1.32}).verdict()
        self.assertEqual(status, 0, text)
        self.assertRegex(text, r"realistic: token vs the floor program .* 1.10x +PASS")

    def test_simple_goauth_over_the_floor_limit_fails(self):
        status, text = Work().figures({"goauth": 1.3}).verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"simple: goauth URL vs the floor program .* 1.13x +FAIL")

    def test_a_git_helper_slower_than_git_fails(self):
        # (1.95 - 0.3) / (1.9 - 0.3) = 1.03x: over 1.0
        status, text = Work().figures({"r-git-helper": 1.95}).verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"realistic: git-credential get vs git credential-store get \(<= 1.00x\) .* 1.03x +FAIL")

    def test_token_under_fifteen_times_faster_than_gh_fails(self):
        status, text = Work().figures({"gh": 19.0}).verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"token vs gh auth token \(>= 15x faster\) .* 14.6x faster +FAIL")

    def test_more_than_half_a_microsecond_per_host_fails(self):
        # (1.81 - 1.3) / 999 ms = 0.51 us per host entry
        status, text = Work().figures({"h1000-token": 1.81}).verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"token per host entry: \(t1000 - t1\) / 999 \(<= 0.5 us\) +0.51 us .* FAIL")

    def test_a_missing_realistic_command_is_a_broken_bench(self):
        self.assertEqual(Work().figures(drop="r-floor").verdict()[0], 2)

    def test_no_needed_lines_fails(self):
        status, text = Work().figures(readelf="readelf: Error: Not an ELF file\n").verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"NEEDED: none found .* FAIL")

    def test_linking_the_concurrency_runtime_fails(self):
        status, text = Work().figures(nm=NM_OK + "0000000000045600 T swift_task_create\n").verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"no Swift Concurrency .* 1 of the runtime's entry points .* FAIL")

    def test_no_symbols_fails(self):
        status, text = Work().figures(nm="nm: /bin/ghlogin: no symbols\n").verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"no Swift Concurrency .* in 0 symbols .* FAIL")

    def test_linking_libssl_fails(self):
        status, _ = Work().figures(readelf=READELF_OK + " 0x1 (NEEDED) Shared library: [libssl.so.3]\n").verdict()
        self.assertEqual(status, 1)

    def test_linking_libgcc_s_fails(self):
        # session 21: the unwinder is linked in; libgcc_s.so.1 at start-up is a regression
        status, text = Work().figures(readelf=READELF_OK + " 0x1 (NEEDED) Shared library: [libgcc_s.so.1]\n").verdict()
        self.assertEqual(status, 1)
        self.assertRegex(text, r"libgcc_s\.so\.1.* FAIL")

    def test_a_missing_command_in_the_rounds_is_a_broken_bench(self):
        self.assertEqual(Work().figures(drop="git-helper").verdict()[0], 2)

    def test_a_malformed_round_is_a_broken_bench(self):
        work = Work().figures()
        work.write("round.2.json", "{not json")
        status, text = work.verdict()
        self.assertEqual(status, 2)
        self.assertIn("Traceback", text)

    def test_full_mode_writes_results_naming_the_commit(self):
        work = Work().figures()
        self.assertEqual(work.verdict(mode="full")[0], 0)
        with open(os.path.join(work.dir, "bench", "RESULTS.md")) as f:
            results = f.read()
        self.assertIn("commit `abc1234`", results)
        self.assertIn("| realistic: token vs the floor program (<= 1.10x) | 1.30 ms | floor 1.20 ms | 1.08x | PASS |",
                      results)
        self.assertIn("## Method", results)
        with open(os.path.join(work.dir, "doc", "performance.md")) as f:
            readme = f.read()
        self.assertIn("before\n<!-- bench/run:begin -->\nLatest figures (written by `bench/run` on commit `abc1234`", readme)
        self.assertIn("| realistic: token vs the floor program (<= 1.10x) | 1.30 ms | floor 1.20 ms | 1.08× | PASS |", readme)
        self.assertIn("| token per host entry: (t1000 - t1) / 999 (<= 0.5 us) | 0.30 us |", readme)
        self.assertIn("<!-- bench/run:end -->\nafter\n", readme)
        self.assertNotIn("old", readme)

    def test_the_floor_against_cat_is_a_reference_that_never_fails(self):
        status, text = Work().figures({"r-cat": 0.5}).verdict()
        self.assertEqual(status, 0, text)
        self.assertRegex(text, r"realistic: reference: the floor program vs cat of the same files .* 2\.40x +INFO")

    def test_bad_usage_is_a_broken_bench(self):
        self.assertEqual(run("figures", "/nonexistent")[0], 2)


if __name__ == "__main__":
    unittest.main()
