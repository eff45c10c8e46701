import Foundation
import Testing

/// Configuration errors through the built binary: exit 2 with a message naming the file and
/// the key, nothing stored, no network, and never a value from the file.
@Suite struct ConfigEndToEndTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    /// The config file's text; `{web}` is the fake's web base URL.
    let text: String
    /// The expected stderr after `ghlogin: `; `{file}` is the config file's path.
    let message: String

    var testDescription: String { name }
  }

  static let secret = "testsecret-s3cr3t"

  static let cases: [Case] = [
    Case(
      name: "invalid JSON", text: "{\"client_secret\": \"\(secret)\",\n  \"host\": }\n",
      message: "{file}: invalid JSON at line 2, column 11: unexpected character '}', expected a value\n"),
    Case(
      name: "unknown key with a suggestion", text: #"{"client_id": "Iv1.testclient", "clinet_secret": "\#(secret)"}"#,
      message: "{file}: unknown key \"clinet_secret\"; did you mean \"client_secret\"?\n"),
    Case(
      name: "key of the wrong type",
      text: #"{"client_id": "Iv1.testclient", "client_secret": "\#(secret)", "scopes": "repo"}"#,
      message: "{file}: \"scopes\" must be an array of strings\n"),
    Case(
      name: "http:// endpoint that is not loopback",
      text:
        #"{"client_id": "Iv1.testclient", "client_secret": "\#(secret)", "token_url": "http://github.test/login/oauth/access_token"}"#,
      message: "{file}: \"token_url\" uses http://; https is required except for literal loopback addresses "
        + "(127.0.0.0/8 as four plain decimal numbers such as 127.0.0.1, or [::1]), not the name localhost, which may resolve elsewhere\n"
    ),
    Case(
      name: "http:// endpoint on the name localhost (RFC 8252 §8.3)",
      text: #"{"client_id": "Iv1.testclient", "authorize_url": "http://localhost:8080/login/oauth/authorize"}"#,
      message: "{file}: \"authorize_url\" uses http://; https is required except for literal loopback addresses "
        + "(127.0.0.0/8 as four plain decimal numbers such as 127.0.0.1, or [::1]), not the name localhost, which may resolve elsewhere\n"
    ),
    Case(
      name: "URL that does not parse", text: #"{"client_id": "Iv1.testclient", "api_url": "https://"}"#,
      message: "{file}: \"api_url\" is not a valid URL: it has no host\n"),
    Case(
      name: "T20 javascript: authorize_url",
      text: #"{"client_id": "Iv1.testclient", "authorize_url": "javascript:alert(1)"}"#,
      message: "{file}: \"authorize_url\" is not a valid URL: it is not an absolute URL (expected https://HOST/...)\n"),
    Case(
      name: "T20 file: authorize_url", text: #"{"client_id": "Iv1.testclient", "authorize_url": "file:///etc/passwd"}"#,
      message: "{file}: \"authorize_url\" is not a valid URL: only https:// URLs are supported\n"),
    Case(
      name: "no client_id",
      text: #"{"host": "github.test", "client_secret": "\#(secret)", "authorize_url": "{web}/login/oauth/authorize"}"#,
      message: """
        no OAuth client_id is configured for github.test.
        Register an OAuth app at https://github.test/settings/applications/new with the callback URL
        http://127.0.0.1/callback. The browser flow also needs the app's client secret; the device flow
        needs "Enable Device Flow" ticked in the app's settings. Then run:
          ghlogin config set client_id YOUR_CLIENT_ID
          ghlogin config set client_secret -
        (the second reads the secret from stdin). They are written to {file}.
        GHLOGIN_CLIENT_ID and GHLOGIN_CLIENT_SECRET work too. More: ghlogin help config

        """),
  ]

  /// Also R14: no browser is started for such a URL (a browser stub and a display are there).
  @Test(arguments: cases)
  func authRefusesTheConfig(_ testCase: Case) async throws {
    let scenario = try await Scenario.start()
    try scenario.sandbox.installBrowserStub()
    let text = testCase.text.replacingOccurrences(of: "{web}", with: scenario.fake.webBase)
    try Data(text.utf8).write(to: URL(fileURLWithPath: scenario.sandbox.configFile))

    let run = try await scenario.run(["auth", "--timeout", "5"], env: ["DISPLAY": ":0"])
    #expect(run.status == 2, "\(run)")
    #expect(run.stdout == "")
    #expect(
      run.stderr == "ghlogin: " + testCase.message.replacingOccurrences(of: "{file}", with: scenario.sandbox.configFile)
    )
    expectNothingStored(scenario)
    #expect(try scenario.fake.log().isEmpty, "nothing reached the network")
    #expect(scenario.sandbox.browserCalls().isEmpty, "no browser started")
    expectNoSecrets([Self.secret], in: [run.stdout, run.stderr])
  }
}
