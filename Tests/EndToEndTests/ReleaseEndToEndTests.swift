import Foundation
import Testing

/// The binary the README builds (see ``ReleaseBinary``), end to end against the fake over TLS:
/// a browser login, `token`, `git-credential get`, a refresh and `logout` with revocation. It
/// has no test hook (`GHLOGIN_TEST_RESOLVE` and the store faults are compiled into debug builds
/// only), so every endpoint is `https://127.0.0.1:PORT`, which the fake's test certificate
/// carries as an IP SAN, and the test CA is trusted through `SSL_CERT_FILE`.
@Suite(
  .enabled(
    if: ReleaseBinary.shouldRun,
    "no current release build: run `scripts/build-release.sh`"))
struct ReleaseEndToEndTests {
  /// The release binary's own link: the Swift runtime and libstdc++ are in it, OpenSSL and
  /// libm are not (both are `dlopen`ed on first use; Sources/CStartup/libm.c), and neither is
  /// libgcc_s (the unwinder is LLVM's libunwind, linked in), so `token` starts with libc alone.
  @Test func theReleaseBinaryLinksNeitherOpenSSLNorTheSwiftRuntime() throws {
    let binary = try ReleaseBinary.path()
    let readelf = try ChildProcess(executable: "/usr/bin/readelf", arguments: ["-d", binary], stdin: "")
      .finish(timeout: 30)
    #expect(readelf.status == 0, "\(readelf.stderr)")
    let needed = readelf.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
      line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
    }
    #expect(needed.contains("libc.so.6"), "\(readelf.stdout)")
    let allowed: Set = ["libc.so.6", "ld-linux-x86-64.so.2"]
    #expect(needed.allSatisfy { allowed.contains($0) }, "a library beyond libc is linked: \(needed)")
    #expect(!readelf.stdout.contains("(RUNPATH)") && !readelf.stdout.contains("(RPATH)"), "\(readelf.stdout)")
  }

  /// Issue 30: the default release binary starts on glibc 2.34 (RHEL/Alma/Rocky 9, Ubuntu 22.04,
  /// Debian 12): `readelf -V` lists no symbol version newer than GLIBC_2.34, no
  /// GLIBC_ABI_DT_RELR (packed relocations, glibc 2.36: `--pack-relative-relocs` is opt-in) and
  /// `readelf -d` no DT_RELR entry.
  @Test func theReleaseBinaryNeedsGlibc234AtMost() throws {
    let binary = try ReleaseBinary.path()
    let versions = try ChildProcess(executable: "/usr/bin/readelf", arguments: ["-V", "-W", binary], stdin: "")
      .finish(timeout: 30)
    #expect(versions.status == 0, "\(versions.stderr)")
    let needs = GlibcVersionNeeds(readelfV: versions.stdout)
    #expect(needs.names.contains("GLIBC_2.2.5"), "no version needs read: \(versions.stdout.prefix(2000))")
    #expect(needs.tooNew(than: (2, 34)).isEmpty, "needs a newer glibc: \(needs.tooNew(than: (2, 34)))")
    let dynamic = try ChildProcess(executable: "/usr/bin/readelf", arguments: ["-d", binary], stdin: "")
      .finish(timeout: 30)
    #expect(dynamic.stdout.contains("(NEEDED)") && !dynamic.stdout.contains("(RELR"), "\(dynamic.stdout)")
  }

  /// The check above fails on what a binary built with `--pack-relative-relocs` and the former
  /// static libgcc_eh needed (`readelf -V` lines as binutils 2.40 prints them).
  @Test func theVersionCheckFailsOnNewerNeeds() {
    let sample = """
      Version needs section '.gnu.version_r' contains 2 entries:
       Addr: 0x0000000000001234  Offset: 0x001234  Link: 7 (.dynstr)
        000000: Version: 1  File: libc.so.6  Cnt: 4
        0x0010:   Name: GLIBC_ABI_DT_RELR  Flags: none  Version: 6
        0x0020:   Name: GLIBC_2.35  Flags: none  Version: 5
        0x0030:   Name: GLIBC_2.34  Flags: none  Version: 4
        0x0040:   Name: GLIBC_2.2.5  Flags: none  Version: 2
        0x0050: Version: 1  File: libgcc_s.so.1  Cnt: 1
        0x0060:   Name: GCC_3.0  Flags: none  Version: 3
      """
    let needs = GlibcVersionNeeds(readelfV: sample)
    #expect(needs.names == ["GLIBC_ABI_DT_RELR", "GLIBC_2.35", "GLIBC_2.34", "GLIBC_2.2.5", "GCC_3.0"])
    #expect(needs.tooNew(than: (2, 34)) == ["GLIBC_ABI_DT_RELR", "GLIBC_2.35"])
    #expect(needs.tooNew(than: (2, 36)) == ["GLIBC_ABI_DT_RELR"])
  }

  /// The release profile's symbol-ordering file (`Linker/startup.order`, written by
  /// scripts/startup-order.sh) still names the binary's symbols. Code changes rename functions
  /// and globals; a name the link cannot find orders nothing (slower, never wrong, and lld is told
  /// not to warn), so this fails once more than a tenth of the names are gone and says what to run.
  @Test func theStartupOrderNamesTheBinarysSymbols() throws {
    let binary = try ReleaseBinary.path()
    let list = try String(contentsOfFile: HarnessPaths.packageRoot + "/Linker/startup.order", encoding: .utf8)
    let names = list.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    #expect(names.count > 500, "Linker/startup.order lists only \(names.count) names")
    let nm = try ChildProcess(executable: "/usr/bin/nm", arguments: ["--defined-only", binary], stdin: "")
      .finish(timeout: 60)
    #expect(nm.status == 0, "\(nm.stderr)")
    // "ADDRESS TYPE NAME"; a few names ("symbolic _____ s…") hold spaces
    let defined = Set(
      nm.stdout.split(separator: "\n").compactMap { line in
        line.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init)
      })
    let missing = names.filter { !defined.contains($0) }
    #expect(
      missing.count * 10 <= names.count,
      """
      \(missing.count) of the \(names.count) names in Linker/startup.order are not in the release binary \
      (first: \(missing.prefix(3))): run scripts/startup-order.sh
      """)
  }

  /// The link follows the ordering file for ghlogin's own functions: they sit in the binary in
  /// the file's order. That needs each function in its own section (`-function-sections` in the
  /// release profile); without it, the functions of one source file move together, and about
  /// four in ten of them come before the one listed ahead of them.
  @Test func ghloginsOwnFunctionsSitInTheStartupOrder() throws {
    let binary = try ReleaseBinary.path()
    let list = try String(contentsOfFile: HarnessPaths.packageRoot + "/Linker/startup.order", encoding: .utf8)
    let nm = try ChildProcess(executable: "/usr/bin/nm", arguments: ["--defined-only", binary], stdin: "")
      .finish(timeout: 60)
    #expect(nm.status == 0, "\(nm.stderr)")
    var address: [String: UInt64] = [:]
    for line in nm.stdout.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 2)
      guard fields.count == 3, fields[1] == "t" || fields[1] == "T", let value = UInt64(fields[0], radix: 16) else {
        continue
      }
      address[String(fields[2]), default: value] = value
    }
    let own = list.split(separator: "\n").map(String.init).filter {
      $0.hasPrefix("$s11GHLoginCore") || $0.hasPrefix("$s10GHLoginCLI") || $0.hasPrefix("$s7ghlogin")
    }
    let addresses = own.compactMap { address[$0] }
    #expect(addresses.count > 200, "only \(addresses.count) of ghlogin's functions in Linker/startup.order")
    let inOrder = zip(addresses, addresses.dropFirst()).filter { $0 < $1 }.count
    #expect(
      inOrder * 100 >= (addresses.count - 1) * 95,
      "\(inOrder) of \(addresses.count - 1) of ghlogin's ordered functions follow the one before: is -function-sections gone?"
    )
  }

  /// Login, `token`, `git-credential get`, a refresh when the token is due, and logout with
  /// revocation, each checked at the fake and in the credentials file.
  @Test func loginTokenGitCredentialRefreshAndLogout() async throws {
    let binary = try ReleaseBinary.path()
    let scenario = try await Scenario.start()
    let (fake, sandbox) = (scenario.fake, scenario.sandbox)
    let base = "https://127.0.0.1:\(fake.port)"
    try sandbox.writeConfig([
      "host": NSNull(),
      "container_registries": ["registry.test"],
      "authorize_url": base + "/login/oauth/authorize",
      "token_url": base + "/login/oauth/access_token",
      "device_code_url": base + "/login/device/code",
      "api_url": base + "/api/v3",
    ])
    try fake.script(["token": ["expiring": true]])
    var environment = sandbox.environment()
    environment.removeValue(forKey: "GHLOGIN_TEST_RESOLVE")
    let env = environment
    let run = { (args: [String], stdin: String) in
      try await offload {
        try ChildProcess(executable: binary, arguments: args, environment: env, stdin: stdin).finish(timeout: 30)
      }
    }

    // login: the browser flow, over TLS to 127.0.0.1
    let login = try await offload { () throws -> (status: Int32, stdout: String, stderr: String) in
      let child = try ChildProcess(
        executable: binary, arguments: ["auth", "--no-browser"], environment: env, stdin: "")
      let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix("https://") }
      let browser = try runBrowser(url: url, fake: fake)
      guard browser.exitStatus == 0 else { throw HarnessError("fake_browser.py failed: \(browser.report)") }
      return try child.finish(timeout: 30)
    }
    #expect(login.status == 0, "\(login.stderr)")
    #expect(login.stderr.contains("Logged in"), "\(login.stderr)")
    let document = try #require(sandbox.credentialsJSON(), "no credentials after the login")
    let hosts = try #require(document["hosts"] as? [String: Any])
    #expect(hosts.count == 1)
    let host = try #require(hosts.keys.first)
    let stored = try #require(sandbox.storedAccounts(host: host).first)
    let token = try #require(stored["token"] as? String)
    let refresh = try #require(stored["refresh_token"] as? String)
    #expect(token.hasPrefix("ghu_") && refresh.hasPrefix("ghr_"))
    #expect(stored["login"] as? String == "octocat")
    #expect(Scenario.mode(of: sandbox.credentialsFile) == 0o600)
    let exchanges = try fake.requests(path: "/login/oauth/access_token")
    #expect(exchanges.count == 1)
    #expect(try fake.requests(path: "/api/v3/user").count == 1)

    // token: what was stored, nothing else, no network
    try fake.clearLog()
    let printed = try await run(["token"], "")
    #expect(printed.status == 0, "\(printed.stderr)")
    #expect(printed.stdout == token + "\n")
    #expect(printed.stderr.isEmpty)

    // token, git-credential get, docker-credential get and goauth load no libm and no
    // libgcc_s, for a token that expires (the loader lists every file it opens)
    let tracing = env.merging(["LD_DEBUG": "files"]) { _, new in new }
    let basic = "Authorization: Basic " + Data("octocat:\(token)".utf8).base64EncodedString()
    for (args, stdin, answer) in [
      (["token"], "", token), (["git-credential", "get"], "protocol=https\nhost=\(host)\n\n", "password=" + token),
      (["docker-credential", "get"], "registry.test\n", "\"Secret\":\"\(token)\""),
      (["goauth", "https://\(host)/mod"], "", basic),
    ] {
      let traced = try await offload {
        try ChildProcess(executable: binary, arguments: args, environment: tracing, stdin: stdin).finish(timeout: 30)
      }
      #expect(traced.status == 0 && traced.stdout.contains(answer), "\(args)")
      #expect(traced.stderr.contains("file=libc.so.6"), "\(args): LD_DEBUG=files listed nothing")
      #expect(!traced.stderr.contains("file=libm.so"), "\(args) loaded libm")
      #expect(!traced.stderr.contains("file=libgcc_s"), "\(args) loaded libgcc_s")
    }

    // gh's habits: `-h HOST` is the host, never help; `auth token` is `token`
    for args in [["token", "-h", host], ["auth", "token"], ["auth", "token", "-h", host]] {
      let same = try await run(args, "")
      #expect(same.status == 0, "\(args): \(same.stderr)")
      #expect(same.stdout == token + "\n", "\(args)")
      #expect(same.stderr.isEmpty, "\(args): \(same.stderr)")
    }

    // git-credential get: the same token for git, for the host the login was stored under, with
    // the capability lines git 2.46 and later send first (dropped, as git drops what it does not know)
    let request = "capability[]=authtype\ncapability[]=state\nprotocol=https\nhost=\(host)\n\n"
    let git = try await run(["git-credential", "get"], request)
    #expect(git.status == 0, "\(git.stderr)")
    let lines = git.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("password=\(token)"), "\(git.stdout.replacingOccurrences(of: token, with: "<token>"))")
    #expect(lines.contains("username=octocat"))
    #expect(try fake.log().isEmpty, "token and git-credential get went to the network")

    // refresh: the stored token is due, `token` rotates the pair at token_url and prints the new one
    try sandbox.setExpiry(host: host, expiresAt: Date().timeIntervalSince1970 - 10)
    let refreshed = try await run(["token"], "")
    #expect(refreshed.status == 0, "\(refreshed.stderr)")
    let newToken = refreshed.stdout.trimmingCharacters(in: .newlines)
    #expect(newToken.hasPrefix("ghu_") && newToken != token)
    #expect(try fake.counter("refresh_successes") == 1)
    let refreshRequest = try #require(try fake.requests(path: "/login/oauth/access_token").first)
    #expect(refreshRequest.formValue("grant_type") == "refresh_token")
    #expect(refreshRequest.formValue("refresh_token") == refresh)
    let afterRefresh = try #require(sandbox.storedAccounts(host: host).first)
    #expect(afterRefresh["token"] as? String == newToken)
    #expect(afterRefresh["refresh_token"] as? String != refresh)

    // logout: revoked at the fake, gone from the file
    let logout = try await run(["logout"], "")
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stderr.contains("the token was revoked"), "\(logout.stderr)")
    #expect(try fake.tokenRecord(newToken)?["revoked"] as? Bool == true)
    #expect(sandbox.storedAccounts(host: host).isEmpty)
    let after = try await run(["token"], "")
    #expect(after.status == 4, "\(after)")
    #expect(after.stdout.isEmpty)
    for output in [
      login.stdout, login.stderr, git.stderr, refreshed.stderr, logout.stdout, logout.stderr, after.stderr,
    ] {
      #expect(!output.contains(token) && !output.contains(newToken) && !output.contains(refresh))
    }
  }
}

/// The symbol versions a binary needs (`readelf -V`'s `Name:` lines of `.gnu.version_r`).
struct GlibcVersionNeeds {
  let names: [String]

  init(readelfV text: String) {
    names = text.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ")
      guard let name = words.firstIndex(of: "Name:"), name + 1 < words.count else { return nil }
      return String(words[name + 1])
    }
  }

  /// The glibc versions newer than `limit`, and any other GLIBC_ name (GLIBC_ABI_DT_RELR,
  /// GLIBC_PRIVATE), which no glibc-version range can promise.
  func tooNew(than limit: (Int, Int)) -> [String] {
    names.filter { name in
      guard name.hasPrefix("GLIBC_") else { return false }
      let parts = name.dropFirst("GLIBC_".count).split(separator: ".").map { Int($0) }
      guard parts.count >= 2, let major = parts[0], let minor = parts[1] else { return true }
      return (major, minor) > limit
    }
  }
}

extension Sandbox {
  /// Sets `expires_at` of every account of `host` in `credentials.json` (kept 0600).
  func setExpiry(host: String, expiresAt: Double) throws {
    guard var document = credentialsJSON(), var hosts = document["hosts"] as? [String: Any],
      var entry = hosts[host] as? [String: Any], let accounts = entry["accounts"] as? [[String: Any]]
    else { throw HarnessError("no accounts for \(host) in \(credentialsFile)") }
    entry["accounts"] = accounts.map { account in account.merging(["expires_at": expiresAt]) { _, new in new } }
    hosts[host] = entry
    document["hosts"] = hosts
    let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    try? FileManager.default.removeItem(atPath: credentialsFile)
    guard
      FileManager.default.createFile(atPath: credentialsFile, contents: data, attributes: [.posixPermissions: 0o600])
    else { throw HarnessError("cannot write \(credentialsFile)") }
  }
}
