#!/usr/bin/env bash
# Compiles every ```swift block of the DocC articles (Sources/GHLoginKit/GHLoginKit.docc/*.md)
# and of doc/library.md (the library page the README links) in Swift 6 mode, against this
# checkout's GHLoginKit: fails on any compiler error. (The DocC snippet plugin would need a
# package fetched from the network; this needs none.)
#
# Each block goes into a scratch package, .build/doc-snippets, that depends on this package by
# path (swift-tools-version 6.0: Swift 6 language mode), by this convention:
#   - a block whose first line is `// Package.swift` is a manifest excerpt: not compiled (the
#     dependency it shows is what scripts/examples.sh builds the example against);
#   - a block with a top-level `import` line is a whole file: the main.swift of an executable
#     target of its own, so top-level code and `await` work as in a tool's main.swift (one that
#     imports GHLoginKitTesting, a test's file, also depends on that product);
#   - any other block is a fragment: it is compiled as the body of
#     `func snippet() async throws` in a file that imports GHLoginKit, so it must declare what
#     it uses (a fragment may still end in `exit(...)` or `throw`).
# A failure names the article and the line the block starts on.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=.build/doc-snippets
rm -rf "$out/Sources" "$out/Package.swift"
mkdir -p "$out/Sources"
python3 - "$root" "$out" Sources/GHLoginKit/GHLoginKit.docc/*.md doc/library.md <<'EOF'
import os, re, sys

root, out, articles = sys.argv[1], sys.argv[2], sys.argv[3:]
targets = []
for article in articles:
    name = re.sub(r"[^A-Za-z0-9]", "", os.path.splitext(os.path.basename(article))[0])
    lines = open(article, encoding="utf-8").read().split("\n")
    block, start = None, 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if block is None:
            if stripped == "```swift":
                block, start = [], number
            elif stripped.startswith("```swift"):
                sys.exit(f"doc-snippets: {article}:{number}: unknown fence {stripped!r}")
            continue
        if stripped != "```":
            block.append(line)
            continue
        code, block = block, None
        if code and code[0].strip() == "// Package.swift":
            continue
        target = f"{name}Line{start}"
        source = f"// {article}:{start}\n"
        if any(re.match(r"import\s+\w", l) for l in code):
            source += "\n".join(code) + "\n"
        else:
            body = "\n".join(("  " + l) if l else l for l in code)
            source += f"import GHLoginKit\n\nfunc snippet() async throws {{\n{body}\n}}\n"
        os.makedirs(f"{out}/Sources/{target}")
        with open(f"{out}/Sources/{target}/main.swift", "w", encoding="utf-8") as f:
            f.write(source)
        products = ["GHLoginKit"]
        if any(re.match(r"import\s+GHLoginKitTesting\b", l) for l in code):
            products.append("GHLoginKitTesting")
        targets.append((target, products))
    if block is not None:
        sys.exit(f"doc-snippets: {article}:{start}: a ```swift block is not closed")
if not targets:
    sys.exit("doc-snippets: no ```swift blocks found")
entries = ",\n".join(
    f'    .executableTarget(name: "{t}", dependencies: ['
    + ", ".join(f'.product(name: "{p}", package: "ghlogin")' for p in products) + "])"
    for t, products in targets)
with open(f"{out}/Package.swift", "w", encoding="utf-8") as f:
    f.write(f"""// swift-tools-version:6.0
// Written by scripts/doc-snippets.sh: one target per ```swift block of the DocC articles.
import PackageDescription

let package = Package(
  name: "DocSnippets",
  dependencies: [.package(name: "ghlogin", path: "{root}")],
  targets: [
{entries}
  ]
)
""")
print(f"doc-snippets: {len(targets)} blocks: " + ", ".join(t for t, _ in targets))
EOF
swift build --package-path "$out"
echo "doc-snippets: every block compiles"
