import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// The docker credential helper's `get` answer, written directly (not through a JSON tree): the
/// same bytes `JSON.serialize` gives for that object, for any text, and the refusals.
@Suite struct DockerCredentialAnswerTests {
  @Test(arguments: [
    ("ghcr.io", "octocat", "gho_16C7e42F292c6912E7710c838347Ae178B4a"),
    ("https://ghcr.io/", "a\"b\\c", "tok"), ("ghcr.io\u{7F}\u{1B}[31m", "line\nbreak\ttab\r", "x"),
    ("\u{202E}evil\u{2066}", "é🙂", "\u{85}\u{9F}"), ("", "u", "s"),
  ])
  func theAnswerIsTheSerializedObject(_ server: String, _ username: String, _ secret: String) throws {
    let object = JSONObject([
      ("ServerURL", .string(server)), ("Username", .string(username)), ("Secret", .string(secret)),
    ])
    let answer = try #require(DockerCredentialAnswer.credentials(serverURL: server, username: username, secret: secret))
    #expect(answer == JSON.serialize(.object(object)) + "\n")
    #expect(try JSON.parse(String(answer.dropLast())) == .object(object))
  }

  @Test func ghcrAnswerIsExactlyWhatDockerReads() {
    #expect(
      DockerCredentialAnswer.credentials(serverURL: "ghcr.io", username: "octocat", secret: "gho_x")
        == #"{"ServerURL":"ghcr.io","Username":"octocat","Secret":"gho_x"}"# + "\n")
  }

  /// No answer that docker would read as an identity token, or without a username or secret.
  @Test func refusesAnIdentityTokenUsernameAndEmptyParts() {
    #expect(DockerCredentialAnswer.credentials(serverURL: "ghcr.io", username: "<token>", secret: "s") == nil)
    #expect(DockerCredentialAnswer.credentials(serverURL: "ghcr.io", username: "", secret: "s") == nil)
    #expect(DockerCredentialAnswer.credentials(serverURL: "ghcr.io", username: "u", secret: "") == nil)
  }

  /// The writer's in-place UTF-8 gives what a `String` per character gave: every escape class.
  @Test func quotedStringsKeepTheirEscapes() {
    #expect(
      JSON.serialize(.string("a\"b\\c\n\r\t\u{01}\u{7F}\u{85}\u{202E}é🙂"))
        == #""a\"b\\c\n\r\t\u0001\u007f\u0085\u202eé🙂""#)
  }

  /// Printable ASCII goes in as it is; one byte that needs an escape among it is escaped all the
  /// same (the writer's fast path stops at the edges of printable ASCII, `"` and `\`).
  @Test(arguments: [
    ("\u{1F}", #"\u001f"#), ("\u{7F}", #"\u007f"#), ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#),
    (" ", " "), ("~", "~"), ("é", "é"), ("\u{202E}", #"\u202e"#),
  ])
  func onlyPlainASCIIIsWrittenAsItIs(_ character: String, _ written: String) {
    #expect(JSON.serialize(.string("gho_ab" + character + "cd")) == "\"gho_ab" + written + "cd\"")
  }
}
