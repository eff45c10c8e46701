import Foundation
import GHLoginTestSupport
import Testing

/// scripts/build-release.sh, the release profile, run on a copy of itself with a stand-in `swift`
/// first on PATH (which answers `--version` as told and records what a build would get), so
/// nothing is compiled: the toolchain check (issue 30), the static unwinder it links (session 21),
/// `--print-flags`, and the packager's default app built under umask 077 (issue 29 §5).
@Suite struct BuildReleaseScriptTests {
  /// A copy of the script in `root/scripts`, the folders it writes to, and `bin/swift`.
  struct Tree {
    let directory: TemporaryDirectory
    var root: String { directory.path + "/tree" }
    var log: String { directory.path + "/swift.log" }
    /// The unwinder archive the script is given (GHLOGIN_LIBUNWIND), unless a test names another.
    var unwinder: String { directory.path + "/libunwind.a" }

    init(swiftVersion: String) throws {
      directory = try TemporaryDirectory(prefix: "build-release")
      let fm = FileManager.default
      for folder in ["tree/scripts", "tree/Sources/GHLoginCore/Generated", "tree/Linker", "bin"] {
        try fm.createDirectory(atPath: directory.path + "/" + folder, withIntermediateDirectories: true)
      }
      let script = root + "/scripts/build-release.sh"
      try fm.copyItem(atPath: HarnessPaths.packageRoot + "/scripts/build-release.sh", toPath: script)
      // The stand-in compiler: `--version` as told; a build records the umask, the generated
      // file's mode and content and its own arguments, and writes an "object file" as a compiler
      // would (under the umask it was given).
      let swift = """
        #!/bin/sh
        if [ "$1" = --version ]; then
          printf 'Swift version \(swiftVersion) (swift-\(swiftVersion)-RELEASE)\\nTarget: x86_64-unknown-linux-gnu\\n'
          exit 0
        fi
        generated=Sources/GHLoginCore/Generated/BuiltInApp+Generated.swift
        {
          echo "umask $(umask)"
          if [ -f "$generated" ]; then echo "generated $(stat -c %a "$generated")"; cat "$generated"; fi
          echo "arguments:"
          printf '%s\\n' "$@"
        } >"\(log)"
        mkdir -p .build/default-app/release && echo object >.build/default-app/release/BuiltInApp.o
        """
      try swift.write(toFile: directory.path + "/bin/swift", atomically: true, encoding: .utf8)
      chmod(directory.path + "/bin/swift", 0o755)
      try "!<arch>\n".write(toFile: unwinder, atomically: true, encoding: .utf8)
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (
      status: Int32, stdout: String, stderr: String
    ) {
      var environment = [
        "PATH": directory.path + "/bin:/usr/bin:/bin", "HOME": directory.path, "GHLOGIN_LIBUNWIND": unwinder,
      ]
      // The harness drops GHLOGIN_DEFAULT_* from a child's environment (no test binary gets a
      // packager's app by accident): they are exported from a file the shell reads first.
      let exports = extra.map { "export \($0.key)='\($0.value)'\n" }.joined()
      try exports.write(toFile: directory.path + "/exports.sh", atomically: true, encoding: .utf8)
      environment.merge(extra.filter { !$0.key.hasPrefix("GHLOGIN_DEFAULT_") }) { _, new in new }
      return try ChildProcess(
        executable: "/bin/bash",
        arguments: ["-c", ". \"$1\"; shift; exec /bin/bash \"$@\"", "-", directory.path + "/exports.sh"]
          + [root + "/scripts/build-release.sh"] + arguments,
        environment: environment, stdin: ""
      ).finish(timeout: 60)
    }

    var built: String? { try? String(contentsOfFile: log, encoding: .utf8) }
  }

  /// The versions the script lists as tested (its `TESTED_TOOLCHAINS=(...)` line).
  static func testedToolchains() throws -> [String] {
    let script = try String(contentsOfFile: HarnessPaths.packageRoot + "/scripts/build-release.sh", encoding: .utf8)
    let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("TESTED_TOOLCHAINS=(") })
    return line.dropFirst("TESTED_TOOLCHAINS=(".count).dropLast().split(separator: " ").map(String.init)
  }

  @Test func anUntestedToolchainStopsTheBuildNamingBothVersions() throws {
    let tree = try Tree(swiftVersion: "9.8.7")
    let tested = try Self.testedToolchains().joined(separator: " ")
    for arguments in [[], ["--print-flags"]] {
      let result = try tree.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result)")
      #expect(
        result.stderr.hasPrefix(
          "build-release.sh: Swift 9.8.7 (swift --version: Swift version 9.8.7 (swift-9.8.7-RELEASE)) is not a "
            + "toolchain the release profile was tested with (tested: \(tested)).\n"), "\(result.stderr)")
      #expect(result.stderr.contains("set GHLOGIN_UNTESTED_TOOLCHAIN=1 to build anyway"), "\(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(tree.built == nil, "an untested toolchain built")
    }
  }

  @Test func anUntestedToolchainBuildsWithAWarningWhenAllowed() throws {
    let tree = try Tree(swiftVersion: "9.8.7")
    let result = try tree.run(["--product", "ghlogin"], environment: ["GHLOGIN_UNTESTED_TOOLCHAIN": "1"])
    #expect(result.status == 0, "\(result)")
    #expect(
      result.stderr.hasPrefix("build-release.sh: warning: building with Swift 9.8.7 (swift --version: "),
      "\(result.stderr)")
    let built = try #require(tree.built, "nothing was built")
    #expect(built.contains("arguments:\nbuild\n-c\nrelease\n--static-swift-stdlib\n"), "\(built)")
    #expect(built.hasSuffix("--product\nghlogin\n"), "\(built)")
    // anything else than exactly "1" is no permission
    let refused = try tree.run([], environment: ["GHLOGIN_UNTESTED_TOOLCHAIN": "yes"])
    #expect(refused.status == 2, "\(refused)")
  }

  @Test func aTestedToolchainBuildsTheProfileWithoutAWarning() throws {
    let version = try #require(try Self.testedToolchains().first)
    let tree = try Tree(swiftVersion: version)
    let result = try tree.run([])
    #expect(result.status == 0, "\(result)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let built = try #require(tree.built, "nothing was built")
    let arguments = built.components(separatedBy: "arguments:\n")[1].split(separator: "\n").map(String.init)
    // the start-up define for CStartup, the linker scripts, lld and the symbol-ordering file; no
    // packed relocations by default
    for flag in [
      "-DGHLOGIN_STATIC_STARTUP", "-use-ld=lld", tree.root + "/Linker", "--no-export-dynamic",
      "--symbol-ordering-file=" + tree.root + "/Linker/startup.order", tree.unwinder,
      "-function-sections", "-disable-llvm-merge-functions-pass",
    ] {
      #expect(arguments.contains(flag), "\(flag) missing: \(arguments)")
    }
    #expect(!arguments.contains("pack-relative-relocs"), "\(arguments)")
    #expect(!built.contains("\ngenerated "), "a plain build generated a default app")
    // the ghlogin product alone: the test support library imports Testing, which a release build
    // of a plain target cannot find
    #expect(built.hasSuffix("--product\nghlogin\n"), "\(built)")
    #expect(arguments.filter { $0 == "--product" }.count == 1, "\(arguments)")
  }

  /// Session 21: the release link takes its unwinder from LLVM's static libunwind.a (so start-up
  /// does not load libgcc_s.so.1). Without one, the script stops before building, names the
  /// path it looked at and the package to install; `--print-flags` too (bench/run's floor program
  /// is built with the same profile).
  @Test func aMissingUnwinderStopsTheBuildNamingThePackage() throws {
    let version = try #require(try Self.testedToolchains().first)
    let tree = try Tree(swiftVersion: version)
    let missing = tree.directory.path + "/no-such/libunwind.a"
    for arguments in [[], ["--print-flags"]] {
      let result = try tree.run(arguments, environment: ["GHLOGIN_LIBUNWIND": missing])
      #expect(result.status == 2, "\(arguments): \(result)")
      #expect(
        result.stderr == "build-release.sh: no static unwinder at \(missing): the release profile links LLVM's "
          + "libunwind.a, so that start-up does not load libgcc_s.so.1.\n"
          + "build-release.sh: install it (Debian 12, Ubuntu 22.04: apt-get install libunwind-14-dev), or set "
          + "GHLOGIN_LIBUNWIND to LLVM's static libunwind.a.\n", "\(result.stderr)")
      #expect(result.stdout.isEmpty, "\(result.stdout)")
      #expect(tree.built == nil, "built without an unwinder")
    }
  }

  /// Without GHLOGIN_LIBUNWIND (or with it empty) the script links Debian's libunwind-14-dev
  /// archive, `/usr/lib/llvm-14/lib/libunwind.a`; `.ci/run` installs it.
  @Test func theDefaultUnwinderIsLLVM14s() throws {
    let version = try #require(try Self.testedToolchains().first)
    let tree = try Tree(swiftVersion: version)
    let path = "/usr/lib/llvm-14/lib/libunwind.a"
    let result = try tree.run(["--print-flags"], environment: ["GHLOGIN_LIBUNWIND": ""])
    if FileManager.default.fileExists(atPath: path) {
      #expect(result.status == 0, "\(result)")
      #expect(result.stdout.split(separator: "\n").contains(Substring(path)), "\(result.stdout)")
    } else {
      #expect(result.status == 2, "\(result)")
      #expect(result.stderr.hasPrefix("build-release.sh: no static unwinder at \(path): "), "\(result.stderr)")
    }
  }

  @Test func printFlagsPrintsTheProfileAndBuildsNothing() throws {
    let version = try #require(try Self.testedToolchains().first)
    let tree = try Tree(swiftVersion: version)
    let plain = try tree.run(["--print-flags"])
    #expect(plain.status == 0, "\(plain)")
    let flags = plain.stdout.split(separator: "\n").map(String.init)
    #expect(Array(flags.prefix(4)) == ["-c", "release", "--static-swift-stdlib", "--disable-local-rpath"], "\(flags)")
    #expect(flags.contains("-DGHLOGIN_STATIC_STARTUP") && !flags.contains("pack-relative-relocs"), "\(flags)")
    #expect(tree.built == nil, "--print-flags built")
    let packed = try tree.run(["--pack-relative-relocs", "--print-flags"])
    #expect(packed.status == 0, "\(packed)")
    #expect(packed.stdout.hasSuffix("-Xlinker\n-z\n-Xlinker\npack-relative-relocs\n"), "\(packed.stdout)")
  }

  /// Issue 29 §5: the generated source holding the secret, the object files and the binary of a
  /// packager build are readable by their owner only, and so is what an earlier build left in
  /// that build directory; the secret reaches no command line; the source is removed afterwards.
  @Test func aPackagerBuildKeepsTheSecretOwnerOnly() throws {
    let version = try #require(try Self.testedToolchains().first)
    let tree = try Tree(swiftVersion: version)
    let scratch = tree.root + "/.build/default-app"
    try FileManager.default.createDirectory(atPath: scratch + "/release", withIntermediateDirectories: true)
    let earlier = scratch + "/release/Earlier.o"
    #expect(
      FileManager.default.createFile(
        atPath: earlier, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
    chmod(scratch, 0o755)
    let secret = "packager-s3cret-0123456789"
    let result = try tree.run(
      ["--scratch-path", ".build/default-app"],
      environment: [
        "GHLOGIN_DEFAULT_CLIENT_ID": "Ov23liPACKAGER", "GHLOGIN_DEFAULT_CLIENT_SECRET": secret,
        "GHLOGIN_DEFAULT_APP_NAME": "Acme Linux",
      ])
    #expect(result.status == 0, "\(result)")
    let built = try #require(tree.built, "nothing was built")
    #expect(built.hasPrefix("umask 0077\ngenerated 600\n"), "\(built)")
    #expect(built.contains("clientID: \"Ov23liPACKAGER\", clientSecret: \"\(secret)\""), "the secret was not generated")
    let arguments = built.components(separatedBy: "arguments:\n")[1]
    #expect(!arguments.contains(secret), "the secret is on the build's command line")
    #expect(arguments.contains("-DGHLOGIN_BUILT_IN_APP\n"), "\(arguments)")
    #expect(Scenario.mode(of: scratch + "/release/BuiltInApp.o") == 0o600)
    #expect(Scenario.mode(of: earlier) == 0o600)
    #expect(Scenario.mode(of: scratch) == 0o700)
    #expect(
      !FileManager.default.fileExists(atPath: tree.root + "/Sources/GHLoginCore/Generated/BuiltInApp+Generated.swift"),
      "the generated source was left behind")
    #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
  }
}
