// Fuzz target: token endpoint answers (OAuth/TokenResponse.swift, TokenResponse.parse), and what
// is done with their durations (R89): the login and refresh expiries, the file format, the
// refresh decision, `status`'s text, and the device flow's code answer and pacing.
//
// Input: one control byte, then the body. The control byte picks the Content-Type (bits 0–2:
// JSON, JSON with charset, form, form with charset, XML, none, upper-case JSON, or the body's
// first line) and the status (bits 3–5: 200, 201, 204, 299, 302, 400, 401, 500). Invariants:
// - success only for a 2xx; the access token passes `Credential.isAcceptableToken` and
//   `BearerToken.isUsable` (so it can go into a header and the git protocol), as does
//   a refresh token; expiry seconds are ≥ 0; scopes are non-empty and hold no separators;
//   `description` never shows either token;
// - failure: the message is terminal-safe (no control characters or ESC), the exit status is
//   1, 2 or 4, and it shows a token from the body only if the server also put it in a field
//   that is meant to be shown (`error`, `error_description`, `token_type`, the content type).
//   (Checked for secrets of 12+ bytes with a digit, which no fixed text of a message contains.)
// - durations: at most ServerDuration's bounds; no trap formatting, scheduling or storing them
//   at any clock; the stored login reads back equal.

let contentTypes: [String?] = [
  "application/json", "application/json; charset=utf-8", "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=utf-8", "application/xml", nil, "APPLICATION/JSON", "",
]
let statuses = [200, 201, 204, 299, 302, 400, 401, 500]
let endpoint = WebURL(scheme: .https, host: "github.com", pathAndQuery: "/login/oauth/access_token")

/// The string members of the body (JSON object or form), read with the kit's own decoders.
func members(_ body: [UInt8]) -> [String: String] {
  var result: [String: String] = [:]
  if let object = (try? JSON.parse(body))?.objectValue {
    for (key, value) in object.entries { if let text = value.stringValue { result[key] = text } }
  } else if let text = String(validating: body, as: UTF8.self), let pairs = try? FormEncoding.decode(Substring(text)) {
    for pair in pairs { result[pair.name] = pair.value }
  }
  return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let control = Int(data[0])
  let body = bytes(data + 1, size - 1)
  let status = statuses[(control >> 3) & 7]
  var contentType = contentTypes[control & 7]
  if contentType == "" {
    contentType = String(decoding: body.prefix { $0 != 0x0A }, as: UTF8.self)
  }
  var headers = HTTPHeaders()
  if let contentType { headers.add("Content-Type", contentType) }
  let response = HTTPResponse(status: status, headers: headers, body: body)
  driveDevicePacing(response)

  do {
    let token = try TokenResponse.parse(response, host: .gitHubDotCom, endpoint: endpoint)
    invariant((200...299).contains(status), "success with HTTP \(status)")
    invariant(Credential.isAcceptableToken(token.accessToken), "unacceptable access token")
    invariant(BearerToken.isUsable(token.accessToken), "unusable access token")
    if let refresh = token.refreshToken {
      invariant(Credential.isAcceptableToken(refresh) && BearerToken.isUsable(refresh), "bad refresh token")
    }
    invariant((token.expiresIn ?? 0) >= 0 && (token.refreshTokenExpiresIn ?? 0) >= 0, "negative expiry")
    invariant(token.tokenType == "bearer", "token type \(token.tokenType.debugDescription)")
    for scope in token.scopes {
      invariant(
        !scope.isEmpty && !scope.contains(",") && !scope.contains(" ") && !scope.contains("\t"), "scope \(scope)")
    }
    var blank = token
    blank.accessToken = "x"
    blank.refreshToken = token.refreshToken.map { _ in "x" }
    for secret in [token.accessToken, token.refreshToken].compactMap({ $0 }) where !blank.description.contains(secret) {
      invariant(!token.description.contains(secret), "description shows a token")
    }
    let limit = ServerDuration.maxTokenLifetime
    invariant((token.expiresIn ?? 0) <= limit && (token.refreshTokenExpiresIn ?? 0) <= limit, "unbounded expiry")
    driveDurations(token, seed: body)
  } catch {
    invariant(isTerminalSafe(error.message), "unsafe message: \(error.message.debugDescription)")
    invariant([1, 2, 4].contains(error.exitStatus.rawValue), "exit status \(error.exitStatus)")
    let fields = members(body)
    let shown =
      ["error", "error_description", "token_type"].compactMap { fields[$0] } + [
        contentType ?? "", endpoint.description,
      ]
    for name in ["access_token", "refresh_token"] {
      // Only secrets that cannot be a word of the fixed text: 12+ bytes, a digit, no space.
      guard let secret = fields[name], secret.utf8.count >= 12,
        secret.utf8.contains(where: { (0x30...0x39).contains($0) }),
        !secret.contains(" ")
      else { continue }
      let echoed = shown.contains { Sanitize.terminal($0).contains(secret) || $0.contains(secret) }
      invariant(echoed || !error.message.contains(secret), "the message shows the \(name)")
    }
  }
  return 0
}

/// What is done with the durations of an accepted answer (R89): stored as a login and as a
/// refresh, written to the file format and read back, decided on, formatted by `status` and the
/// refresh messages, and handed to git, at several clocks, including the far past and future.
/// Nothing here may trap; every number shown must be finite and the JSON must read back.
func driveDurations(_ token: TokenResponse, seed: [UInt8]) {
  var random = SplitMix64(seed: SplitMix64.seed(seed))
  let times: [Double] = [
    0, 1_700_000_000, 4_102_444_800, -1e15, 1e15, Double(Int64.max), Double(random.next() >> 11),
  ]
  for receivedAt in times {
    let user = GitHubUser(login: "octocat", id: 1)
    let login = LoginResult(token: token, user: user, receivedAt: receivedAt)
    var credential = Credential(
      login: "octocat", userID: 1, token: "gho_x", createdAt: receivedAt, expiresAt: login.accessTokenExpiresAt,
      refreshToken: token.refreshToken, refreshTokenExpiresAt: login.refreshTokenExpiresAt)
    credential = credential.refreshed(with: token, receivedAt: receivedAt)
    for expiry in [credential.expiresAt, credential.refreshTokenExpiresAt].compactMap({ $0 }) {
      invariant(expiry.isFinite, "an expiry is not finite: \(expiry)")
    }
    let credentials = Credentials(hosts: ["github.com": HostEntry(activeLogin: "octocat", accounts: [credential])])
    let decoded = try? CredentialCoding.decode(CredentialCoding.encode(credentials))
    invariant(decoded == credentials, "the stored login does not read back")
    for now in times {
      let clock = ManualClock(now: now)
      _ = RefreshPolicy.decide(credential, now: now)
      _ = RefreshPolicy.decide(credential, now: now, force: true)
      let lines = StatusCommand.describe(credential, on: "github.com", active: true, clock: clock)
      // Only the time-derived lines: the scopes line repeats the server's scope names and the
      // token line the token's last four characters, either of which may well contain "inf" (a
      // fuzzed scope "expires_inf..." did, and a token ending in "infa").
      let timed = lines.split(separator: "\n")
        .filter { !$0.hasPrefix("    scopes:") && !$0.hasPrefix("    token:") }.joined(separator: "\n")
      invariant(!timed.contains("nan") && !timed.contains("inf"), "status shows \(lines.debugDescription)")
      for expiry in [credential.expiresAt, credential.refreshTokenExpiresAt].compactMap({ $0 }) {
        let text = DurationText.describe(expiry - now)
        invariant(!text.isEmpty && (expiry <= now || !text.contains("-")), "duration \(text.debugDescription)")
        _ = DurationText.wholeSeconds(expiry - now, rounding: .up)
      }
    }
    _ = credential.expiresAt.flatMap { Int64(exactly: $0.rounded(.down)) }
  }
}

/// The same body read as a device-code answer and as a `slow_down`, and the device flow's pacing
/// and messages driven with what they give (R89).
func driveDevicePacing(_ response: HTTPResponse) {
  let deviceEndpoint = WebURL(scheme: .https, host: "github.com", pathAndQuery: "/login/device/code")
  if let authorization = try? DeviceAuthorization.parse(response, host: .gitHubDotCom, endpoint: deviceEndpoint) {
    invariant(authorization.expiresIn > 0 && authorization.expiresIn <= ServerDuration.maxDeviceCodeLifetime, "life")
    invariant(authorization.interval > 0 && authorization.interval <= ServerDuration.maxPollInterval, "interval")
    _ = DeviceFlowLogin.duration(Double(authorization.expiresIn))
    var pacing = DeviceFlowPacing(interval: authorization.interval)
    for _ in 0..<8 {
      pacing.networkError()
      pacing.slowDown(serverInterval: authorization.interval)
    }
    invariant(pacing.wait.isFinite && pacing.wait > 0, "wait \(pacing.wait)")
    _ = DurationText.wholeSeconds(pacing.wait, rounding: .up)
  }
  do {
    _ = try TokenResponse.parse(response, host: .gitHubDotCom, endpoint: endpoint)
  } catch {
    guard case .oauth(let body) = error.kind, let interval = body.interval else { return }
    invariant(interval >= 0 && interval <= ServerDuration.maxPollInterval, "slow_down interval \(interval)")
    var pacing = DeviceFlowPacing(interval: 5)
    pacing.slowDown(serverInterval: interval)
    invariant(pacing.wait.isFinite, "wait \(pacing.wait)")
  }
}
