import Foundation
import Testing

/// R89: `expires_in: 2^63` from the server made `auth --device` trap (exit
/// 132), and the stored value made `status` and `refresh` trap afterwards. Now the numbers are
/// clamped when parsed and no command traps on a file an older build wrote.
@Suite struct NumericBoundsEndToEndTests {
  static let hugeNumber = 9_223_372_036_854_775_807

  /// The hostile server: a device code and an expiring token whose lifetimes are all 2^63 - 1.
  @Test func deviceLoginWithHugeLifetimesStoresClampedExpiries() async throws {
    let scenario = try await Scenario.start()
    try scenario.fake.script([
      "device": ["interval": 1, "expires_in": Self.hugeNumber],
      "token": ["expiring": true, "expires_in": Self.hugeNumber, "refresh_token_expires_in": Self.hugeNumber],
    ])
    let before = Date().timeIntervalSince1970
    let run = try await scenario.run(["auth", "--device"])
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.contains("Waiting up to 60 minutes for the approval"), "\(run)")
    let account = try #require(scenario.sandbox.storedAccounts().first)
    let expiresAt = try #require(account["expires_at"] as? Double)
    let refreshExpiresAt = try #require(account["refresh_token_expires_at"] as? Double)
    let tenYears = 316_224_000.0
    #expect(expiresAt >= before + tenYears - 1 && expiresAt <= Date().timeIntervalSince1970 + tenYears + 1)
    #expect(
      refreshExpiresAt >= before + tenYears - 1 && refreshExpiresAt <= Date().timeIntervalSince1970 + tenYears + 1)

    for command in [["status"], ["status", "--json"], ["token"], ["whoami"], ["refresh"]] {
      let after = try await scenario.run(command)
      #expect(after.status == 0, "\(command): \(after)")
    }
  }

  /// A file written by today's builds: `created_at + 2^63` as the expiries (and as big a number
  /// as JSON allows). No command traps; each exits as it would for any far-future expiry.
  @Test(arguments: ["9.223372036854777e18", "1.7976931348623157e308"])
  func storedHugeExpiryCrashesNoCommand(_ expiry: String) async throws {
    let scenario = try await Scenario.start()
    let token = "ghu_hugeExpiry0123456789abcdefghijklmn"
    try scenario.fake.registerExpiringPair(access: token, refresh: "ghr_hugeExpiry0123456789abcdefghijklmn")
    let json = """
      {"version":1,"hosts":{"github.test":{"active":"octocat","accounts":[{"login":"octocat","user_id":1,\
      "token":"\(token)","token_type":"bearer","scopes":[],"created_at":1700000000,"expires_at":\(expiry),\
      "refresh_token":"ghr_hugeExpiry0123456789abcdefghijklmn","refresh_token_expires_at":\(expiry)}]}}}
      """
    #expect(
      FileManager.default.createFile(
        atPath: scenario.sandbox.credentialsFile, contents: Data(json.utf8), attributes: [.posixPermissions: 0o600]))
    let status = try await scenario.run(["status", "--offline"])
    #expect(status.status == 0, "\(status)")
    #expect(status.stdout.contains("expires: in more than 100 years"), "\(status)")
    let statusJSON = try await scenario.run(["status", "--json", "--offline"])
    #expect(statusJSON.status == 0, "\(statusJSON)")
    let token1 = try await scenario.run(["token"])
    #expect(token1.status == 0 && token1.stdout == token + "\n", "\(token1)")
    let whoami = try await scenario.run(["whoami"])
    #expect(whoami.status == 0, "\(whoami)")
    let refresh = try await scenario.run(["refresh"])
    #expect(refresh.status == 0, "\(refresh)")
    #expect(refresh.stderr.contains("Refreshed the token for github.test (octocat)"), "\(refresh)")
    let gitCredential = try await scenario.run(
      ["git-credential", "get"], stdin: "protocol=https\nhost=github.test\n\n")
    #expect(gitCredential.status == 0, "\(gitCredential)")
  }
}
