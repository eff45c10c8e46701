import Foundation
import Testing

/// `eval "$(ghlogin env)"` in real shells: the variables then hold exactly the token, even one
/// made of every special character an RFC 6750 token may hold (`~` and `=` mean something to a shell).
@Suite struct EnvEndToEndTests {
  /// A stored token is an RFC 6750 b64token: letters, digits, `-._~+/` and trailing `=` (R30).
  static let token = "~gho_a-b.c_d~e+f/gh9=="

  let sandbox: GitSandbox
  let binary: String

  init() throws {
    sandbox = try GitSandbox()
    binary = try HarnessPaths.ghloginBinary()
    try sandbox.seed([.init(host: "ghe.test", login: "octocat", token: Self.token)])
  }

  /// Runs `shell -c script` in the sandbox, with `$GHLOGIN` the built binary.
  func run(_ shell: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try ChildProcess(
      executable: try GitSandbox.program(shell), arguments: arguments,
      environment: sandbox.environment(["GHLOGIN": binary]), stdin: ""
    ).finish(timeout: 30)
  }

  @Test func bashEvalSetsExactlyTheToken() throws {
    let result = try run(
      "bash", ["-c", #"eval "$("$GHLOGIN" env)" && printf '%s\n%s\n%s' "$GH_TOKEN" "$GITHUB_TOKEN" "$GH_HOST""#])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "\(Self.token)\n\(Self.token)\nghe.test")
  }

  @Test func shEvalSetsExactlyTheToken() throws {
    let result = try run("sh", ["-c", #"eval "$("$GHLOGIN" env --shell sh)" && printf '%s' "$GH_TOKEN""#])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == Self.token)
  }

  @Test(.enabled(if: GitSandbox.optionalProgram("fish") != nil)) func fishSourceSetsExactlyTheToken() throws {
    let result = try run(
      "fish", ["--no-config", "-c", #"$GHLOGIN env --shell fish | source; printf '%s\n%s' $GH_TOKEN $GH_HOST"#])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "\(Self.token)\nghe.test")
  }

  @Test(.enabled(if: GitSandbox.optionalProgram("pwsh") != nil)) func powershellSetsExactlyTheToken() throws {
    let result = try run(
      "pwsh",
      [
        "-NoProfile", "-Command",
        #"& $env:GHLOGIN env --shell powershell | Out-String | Invoke-Expression; [Console]::Out.Write($env:GH_TOKEN)"#,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == Self.token)
  }

  @Test func notLoggedInExits4AndTheEvalSetsNothing() throws {
    let result = try run(
      "bash",
      [
        "-c",
        #"out="$("$GHLOGIN" env --host github.com)"; code=$?; eval "$out"; printf '%s|%s' "$code" "${GH_TOKEN-unset}""#,
      ])
    #expect(result.stdout == "4|unset")
    #expect(result.stderr == "ghlogin: not logged in to github.com; run 'ghlogin auth'\n")
  }

  @Test func tokenHeaderAndStatusJSONFromTheBinary() throws {
    let header = try sandbox.ghlogin(["token", "--header"])
    #expect(header.stdout == "Authorization: Bearer \(Self.token)\n")
    let status = try sandbox.ghlogin(["status", "--json"])
    #expect(status.status == 0)
    #expect(!status.stdout.contains(Self.token))
    let document = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
    #expect(document?["credentials_file"] as? String == sandbox.credentialsFile)
  }
}
