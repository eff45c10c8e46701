#!/usr/bin/env python3
"""The prose documents' own checks (scripts/docs.sh runs them; issue 32 §1).

    python3 scripts/doc_checks.py ROOT [GHLOGIN]

Fails (exit 1, one line per finding) when:
  - README.md is longer than 350 lines: it is for users; reference text goes to doc/*.md;
  - a prose line of ARCHITECTURE.md (not a table row, not in a code block) is over 100 columns;
  - a page doc/*.md is not linked from README.md;
  - a relative link in README.md, CONTRIBUTING.md, ARCHITECTURE.md, SECURITY.md or doc/*.md names
    a file that does not exist, or a heading (#anchor) that the Markdown file it names lacks;
  - README.md does not show, in a ```sh block, the test command `.ci/run` ends with, or the build
    command the end-to-end tests' release binary comes from (`scripts/build-release.sh`), or does
    not name each toolchain version that script lists as tested (TESTED_TOOLCHAINS);
  - doc/performance.md lacks the markers bench/run writes its figures between;
  - with GHLOGIN (the built binary), the README's typo transcript (`$ ghlogin atuh`) is not what
    that binary prints.
"""
import os
import re
import subprocess
import sys
import tempfile

README_LIMIT = 350
ARCHITECTURE_COLUMNS = 100
LINKED_PAGES = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "SECURITY.md"]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def prose_lines(text):
    """(line number, line) of every line outside ``` blocks."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def code_blocks(text, language):
    """The lines of every ```LANGUAGE block."""
    blocks, block = [], None
    for line in text.split("\n"):
        stripped = line.strip()
        if block is None:
            if stripped == "```" + language:
                block = []
        elif stripped == "```":
            blocks.append(block)
            block = None
        else:
            block.append(line)
    return blocks


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]|\[|\]\([^)]*\)", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text):
    seen, result = {}, set()
    for _, line in prose_lines(text):
        match = re.match(r"#{1,6}\s+(.*)", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def check(root, binary=None):
    findings = []
    readme_path = os.path.join(root, "README.md")
    readme = read(readme_path)
    lines = readme.count("\n") + (0 if readme.endswith("\n") else 1)
    if lines > README_LIMIT:
        findings.append(f"README.md: {lines} lines, more than {README_LIMIT}: move reference text to doc/*.md")

    architecture = read(os.path.join(root, "ARCHITECTURE.md"))
    for number, line in prose_lines(architecture):
        if line.startswith("|"):
            continue
        if len(line) > ARCHITECTURE_COLUMNS:
            findings.append(f"ARCHITECTURE.md:{number}: {len(line)} columns, more than {ARCHITECTURE_COLUMNS}")

    doc_dir = os.path.join(root, "doc")
    pages = sorted(f for f in os.listdir(doc_dir) if f.endswith(".md"))
    for page in pages:
        if f"](doc/{page})" not in readme and f"](doc/{page}#" not in readme:
            findings.append(f"README.md: no link to doc/{page}")

    for name in LINKED_PAGES + [os.path.join("doc", page) for page in pages]:
        path = os.path.join(root, name)
        if not os.path.exists(path):
            continue
        text = read(path)
        for number, line in prose_lines(text):
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"[a-z]+:", target):
                    continue
                file_part, _, anchor = target.partition("#")
                linked = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.exists(linked):
                    findings.append(f"{name}:{number}: link to {target}: no such file")
                elif anchor and linked.endswith(".md") and anchor not in anchors(read(linked)):
                    findings.append(f"{name}:{number}: link to {target}: no such heading")

    shell = [line.strip() for block in code_blocks(readme, "sh") for line in block]
    ci = [l.strip() for l in read(os.path.join(root, ".ci", "run")).split("\n")]
    ci = [l for l in ci if l and not l.startswith("#")]
    if ci[-1] not in shell:
        findings.append(f"README.md: no ```sh line `{ci[-1]}`, the test command .ci/run ends with")
    if not any(l.split("#")[0].strip().endswith("scripts/build-release.sh")
               or "&& scripts/build-release.sh &&" in l for l in shell):
        findings.append("README.md: no ```sh line that runs scripts/build-release.sh (the README's build)")

    release = read(os.path.join(root, "scripts", "build-release.sh"))
    tested = re.search(r"^TESTED_TOOLCHAINS=\(([^)]*)\)", release, re.M)
    for version in (tested.group(1).split() if tested else []):
        if version not in readme:
            findings.append(f"README.md: does not name {version}, a toolchain scripts/build-release.sh lists as tested")

    performance = read(os.path.join(root, "doc", "performance.md"))
    for marker in ("<!-- bench/run:begin -->", "<!-- bench/run:end -->"):
        if marker not in performance:
            findings.append(f"doc/performance.md: no {marker} (bench/run writes its figures there)")

    if binary:
        findings += check_transcript(readme, binary)
    return findings


def check_transcript(readme, binary):
    """The README's `$ ghlogin atuh` transcript against what the binary prints (stderr, exit 2)."""
    for block in code_blocks(readme, "console"):
        if block and block[0].startswith("$ ghlogin atuh"):
            expected = "\n".join(block[1:]) + "\n"
            break
    else:
        return ["README.md: no ```console block starting `$ ghlogin atuh` (the typo transcript)"]
    with tempfile.TemporaryDirectory() as home:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "NO_COLOR": "1",
               "XDG_CONFIG_HOME": home, "XDG_CONFIG_DIRS": home}
        run = subprocess.run([binary] + block[0].split()[2:], env=env, capture_output=True,
                             stdin=subprocess.DEVNULL, timeout=30)
    said = run.stdout.decode() + run.stderr.decode()
    if run.returncode != 2 or said != expected:
        return [f"README.md: the typo transcript is not what {binary} prints (exit {run.returncode}):\n{said}"]
    return []


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    findings = check(argv[1], argv[2] if len(argv) == 3 else None)
    for finding in findings:
        print(f"doc-checks: {finding}", file=sys.stderr)
    if findings:
        return 1
    print("doc-checks: README.md, CONTRIBUTING.md, ARCHITECTURE.md and doc/*.md pass")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
