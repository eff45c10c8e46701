import Foundation
import Testing

/// R88: `status` and `status --json` of the built binary show a known GitHub
/// prefix, `****` and the last four characters; nothing else of any token.
@Suite struct RedactionEndToEndTests {
  static let cases: [(token: String, shown: String)] = [
    ("gho_Q7vE2E0123456789abcdefghjkWXYZ", "gho_****WXYZ"),
    ("Zx9Kq2LmN8pR4sT6vW1yB3dF5hJ7kM0nQ_Xz", "****Q_Xz"),
    (
      "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJvY3RvY2F0In0.c2lnbmF0dXJlX3BhcnQ_Ab9z", "****Ab9z"
    ),
    ("short_tok3n", "****"),
  ]

  @Test(arguments: 0..<4)
  func statusShowsNothingButPrefixAndLastFour(_ index: Int) async throws {
    let (token, shown) = Self.cases[index]
    let scenario = try await Scenario.start()
    try scenario.sandbox.writeCredentials(["github.test": (login: "octocat", userID: 1, token: token)])

    let text = try await scenario.run(["status", "--offline"])
    #expect(text.status == 0, "\(text)")
    #expect(text.stdout.contains("    token: \(shown)\n"), "\(text)")
    let json = try await scenario.run(["status", "--json", "--offline"])
    #expect(json.status == 0, "\(json)")
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let hosts = document?["hosts"] as? [String: Any]
    let accounts = (hosts?["github.test"] as? [String: Any])?["accounts"] as? [[String: Any]]
    #expect(accounts?.first?["token_redacted"] as? String == shown, "\(json)")

    // No run of 5 or more characters of the token appears, apart from a known prefix.
    let secretPart = token.hasPrefix("gho_") ? String(token.dropFirst(4)) : token
    for output in [text.stdout, text.stderr, json.stdout, json.stderr] {
      for start in 0...(max(0, secretPart.count - 5)) where secretPart.count >= 5 {
        let piece = String(secretPart.dropFirst(start).prefix(5))
        #expect(!output.contains(piece), "'\(piece)' of the token shown: \(output)")
      }
    }
  }
}
