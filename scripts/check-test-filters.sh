#!/usr/bin/env bash
# Every test group the docs tell you to run exists: each `swift test ... --filter PATTERN` in
# CONTRIBUTING.md, and the groups it must document (issue 32 §2), selects at least one test of
# the already-built suite, so a renamed suite cannot leave a command that silently runs nothing.
#   scripts/check-test-filters.sh                   check against `swift test list --skip-build`
#   scripts/check-test-filters.sh --list FILE [DOC] check against the test names in FILE (one per
#                                                   line, as `swift test list` prints them), with
#                                                   DOC in place of CONTRIBUTING.md
# Exit 0 when every pattern matches, 1 (naming each pattern) when one matches nothing, 2 when the
# tests are not built or the list cannot be read. Patterns are regular expressions, matched as
# `swift test --filter` does: anywhere in `Target.Suite/test()`.
set -euo pipefail
cd "$(dirname "$0")/.."

list=""
if [ "${1:-}" = "--list" ]; then
  list=${2:?--list needs a file}
  shift 2
fi
doc=${1:-CONTRIBUTING.md}

# The groups CONTRIBUTING.md documents (checked whether or not it exists yet).
required=(EndToEndTests Keyring ContainerRegistry ReleaseEndToEndTests GHLoginCoreTests GHLoginKitTests GHLoginCLITests)

if [ -z "$list" ]; then
  list=$(mktemp)
  trap 'rm -f "$list"' EXIT
  if ! swift test list --skip-build >"$list" 2>/dev/null || [ ! -s "$list" ]; then
    echo "check-test-filters: no built tests to list; run 'swift build --build-tests' first" >&2
    exit 2
  fi
fi
[ -r "$list" ] || {
  echo "check-test-filters: cannot read $list" >&2
  exit 2
}

python3 - "$list" "$doc" "${required[@]}" <<'EOF'
import os, re, shlex, sys

list_file, doc, required = sys.argv[1], sys.argv[2], sys.argv[3:]
tests = [line.strip() for line in open(list_file) if line.strip()]
patterns = [(p, "required group") for p in required]
if os.path.exists(doc):
    found = 0
    for number, line in enumerate(open(doc, encoding="utf-8"), 1):
        # Each `swift test ... --filter X` on the line (in a code span or a code block).
        for command in re.findall(r"swift test\b[^`\n]*", line):
            try:
                words = shlex.split(command)
            except ValueError:
                words = command.split()
            for i, word in enumerate(words):
                value = None
                if word == "--filter" and i + 1 < len(words):
                    value = words[i + 1]
                elif word.startswith("--filter="):
                    value = word[len("--filter="):]
                if value is not None:
                    patterns.append((value, "%s:%d" % (doc, number)))
                    found += 1
    if found == 0:
        print("check-test-filters: %s gives no 'swift test --filter' command" % doc, file=sys.stderr)
        sys.exit(1)
failed = 0
for pattern, where in patterns:
    try:
        regex = re.compile(pattern)
    except re.error as error:
        print("check-test-filters: %s: --filter %s is not a regular expression (%s)" % (where, pattern, error),
              file=sys.stderr)
        failed += 1
        continue
    count = sum(1 for test in tests if regex.search(test))
    if count == 0:
        print("check-test-filters: %s: --filter %s matches no test in 'swift test list'" % (where, pattern),
              file=sys.stderr)
        failed += 1
print("check-test-filters: %d patterns, %d tests, %d matching nothing" % (len(patterns), len(tests), failed))
sys.exit(1 if failed else 0)
EOF
