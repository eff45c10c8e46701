#!/usr/bin/env bash
# The end-to-end suites of the issues whose "done when" names the release binary (18, 20, 21;
# 33, 34 and 35: two apps, older keyring items, account rules, narrowed tokens, the agent), run
# against the RELEASE binary the README builds, not the debug build: the release binary has no
# test hooks, so the fake GitHub's names (github.test, api.github.test, ghe.test) are resolved by
# glibc from /etc/hosts, in a private mount namespace where a copy of /etc/hosts with those names
# is bind-mounted (the machine's own file is never changed). Needs root (or CAP_SYS_ADMIN) for
# unshare/mount, as CI is.
#   scripts/release-e2e.sh [BINARY]     (default: $GHLOGIN_RELEASE_BINARY, else .build/release/ghlogin)
# Skipped here, because they drive a debug-only hook (GHLOGIN_TEST_FAULT):
# KeyringEndToEndTests › migrationSurvivesAKillEitherWay and
# NarrowedKeyringEndToEndTests › aMoveThatFailsMidwayLosesNothing.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-${GHLOGIN_RELEASE_BINARY:-.build/release/ghlogin}}
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
[ -x "$binary" ] || { echo "release-e2e: no release binary at $binary (run scripts/build-release.sh)" >&2; exit 1; }

suites=(
  # round-3 attack findings
  KeyringEndToEndTests SignalEndToEndTests ConfigEditEndToEndTests LoopbackLiteralEndToEndTests
  StoredHostEndToEndTests GitCredentialEraseEndToEndTests RevocationEndToEndTests
  OAuthToolkitEndToEndTests WithTokenEndToEndTests InstallEndToEndTests
  # other tools (R104, R105)
  DockerCredentialEndToEndTests GoAuthEndToEndTests ContainerRegistryEndToEndTests
  # first run, gh's habits
  HabitsEndToEndTests GuidedSetupEndToEndTests SystemConfigEndToEndTests HeadlessFlowEndToEndTests
  # issue 33: accounts (two apps, older keyring items, account rules); issue 34: narrowed tokens
  TwoAppsEndToEndTests KeyringOlderItemsEndToEndTests AccountRulesEndToEndTests AccountRulesGitEndToEndTests
  NarrowedTokenEndToEndTests NarrowedGitEndToEndTests
)
# Run apart, after the suites above, so that their many processes (an sshd, 260 idle
# connections, 200 concurrent clients) do not load the machine while SignalEndToEndTests times
# its one-second answers to Ctrl-C.
later=(
  # issue 34: the cache, run, app tokens
  NarrowedCacheEndToEndTests RunEndToEndTests AppTokenEndToEndTests AppTokenGitEndToEndTests
  AppKeyKeyringEndToEndTests
  # issue 35: the agent, its forwards, the container stand-in, ghlogin ssh against a real sshd
  AgentEndToEndTests AgentForwardEndToEndTests ContainerStandInEndToEndTests
  AgentSSHEndToEndTests SSHServerSelfTests AgentStallEndToEndTests AgentForwardLogoutEndToEndTests
)

hosts=$(mktemp)
trap 'rm -f "$hosts"' EXIT
cat /etc/hosts > "$hosts"
echo "127.0.0.1 github.test api.github.test ghe.test" >> "$hosts"

swift build --build-tests
run() {
  local filter
  filter=$(IFS='|'; echo "$*")
  echo "release-e2e: $# suites against $binary"
  # The filter is a pattern: KeyringEndToEndTests also selects NarrowedKeyringEndToEndTests.
  GHLOGIN_BINARY=$binary unshare --mount sh -c \
    'mount --bind "$1" /etc/hosts && shift && exec "$@"' sh "$hosts" \
    swift test --skip-build --filter "$filter" \
    --skip 'migrationSurvivesAKillEitherWay|aMoveThatFailsMidwayLosesNothing'
}
run "${suites[@]}"
run "${later[@]}"
