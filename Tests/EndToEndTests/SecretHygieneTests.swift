import Foundation
import Testing

/// "Secrets never leak" (R80): with a known token stored and a known client secret
/// configured, every command's stdout and stderr is free of both (and of any authorization
/// code), except `token`'s stdout, which is the token.
@Suite struct SecretHygieneTests {
  static let token = "gho_hygieneToken0123456789abcdefghijklm"

  @Test func noCommandPrintsTheTokenOrTheSecret() async throws {
    let scenario = try await Scenario.start()
    try scenario.seedLogin(token: Self.token)
    var outputs: [(command: String, stdout: String, stderr: String)] = []
    var codes: [String] = []
    func record(_ args: [String], _ run: RunResult) {
      outputs.append((args.joined(separator: " "), run.stdout, run.stderr))
    }

    let commands: [[String]] = [
      [], ["--help"], ["-h"], ["help"], ["help", "auth"], ["auth", "--help"], ["token", "--help"], ["--version"],
      ["version"], ["status"], ["status", "--host", "github.test"], ["whoami"], ["whoami", "--json"],
      ["frobnicate"], ["tokne"], ["token", "--token", Self.token], ["token", "--host"], ["auth", "--port", "99999"],
      ["auth", "--bogus"], ["whoami", "--host", "ghe.test"], ["logout", "--user", "nobody"],
    ]
    for args in commands {
      record(args, try await scenario.run(args))
    }

    // `token` is the one place the token may appear: alone on stdout.
    let token = try await scenario.run(["token"])
    #expect(token.stdout == Self.token + "\n")
    outputs.append(("token", "", token.stderr))

    // auth's failing paths: timeout, denied in the browser, client secret refused, bad code.
    record(["auth", "--timeout 1"], try await scenario.run(["auth", "--no-browser", "--timeout", "1"]))
    for answer in [
      ["authorize": ["access_denied"]], ["token": ["incorrect_client_credentials"]],
      ["token": ["bad_verification_code"]], ["token": [500]],
    ] as [[String: [any Sendable]]] {
      try scenario.fake.script(["responses": answer])
      let (run, browser, _) = try await scenario.login()
      #expect(run.status != 0, "\(answer): \(run)")
      record(["auth (\(answer))"], run)
      outputs.append(("auth page (\(answer))", browser.callbackBody ?? "", ""))
      if let code = browser.issuedCode { codes.append(code) }
    }
    #expect(codes.count == 3)

    // The GitHub-side token still works after all that, and logout prints nothing secret.
    record(["whoami"], try await scenario.run(["whoami"]))
    record(["logout"], try await scenario.run(["logout"]))
    record(["token after logout"], try await scenario.run(["token"]))

    for output in outputs {
      expectNoSecrets(
        [Self.token, testClientSecret] + codes, in: [output.stdout, output.stderr], "in `ghlogin \(output.command)`")
    }
    // Sanity: the runs did happen and said something.
    #expect(outputs.count == commands.count + 13)
    #expect(outputs.allSatisfy { !($0.stdout + $0.stderr).isEmpty || $0.command == "token" })
  }
}
