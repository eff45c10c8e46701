// Fuzz target: the config loader (Store/Config.swift, Config.parse(bytes:file:variables:), the
// part of Config.load after reading the file).
//
// Input: one control byte (bits 0–2 pick the environment overrides), then the file's bytes.
// Invariants:
// - success: every endpoint URL is https, or http on a loopback host; client IDs, secrets and
//   scopes have no whitespace or control characters; `host` and the `hosts` keys are
//   lowercase and valid host names; `settings(for:)` works for every host named;
// - failure: exit status 2, the message is terminal-safe (no control characters, ESC, C1
//   controls or bidi overrides) and never shows a client secret from the file.

let file = "/home/user/.config/ghlogin/config.json"
let environments: [EnvironmentVariables] = [
  [:], ["GHLOGIN_CLIENT_ID": "Iv1.fromenv"], ["GHLOGIN_CLIENT_SECRET": "envsecret-123456"],
  ["GHLOGIN_CLIENT_ID": "Iv1.fromenv", "GHLOGIN_CLIENT_SECRET": "envsecret-123456"], ["GHLOGIN_CLIENT_ID": ""],
  [:], [:], [:],
]

func checkURL(_ url: WebURL?) {
  guard let url else { return }
  invariant(url.scheme == .https || url.isLoopback, "insecure endpoint accepted: \(url)")
}

func checkText(_ text: String?) {
  guard let text else { return }
  invariant(
    !text.isEmpty
      && !text.unicodeScalars.contains {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.properties.isWhitespace
      },
    "unusable credential text \(text.debugDescription)")
}

func check(_ settings: HostSettings) {
  for url in [settings.authorizeURL, settings.tokenURL, settings.deviceCodeURL, settings.apiURL] { checkURL(url) }
  checkText(settings.clientID)
  checkText(settings.clientSecret)
  for scope in settings.scopes ?? [] { checkText(scope) }
}

func checkHostName(_ host: String) {
  invariant(host == host.lowercased(), "host not lowercased: \(host.debugDescription)")
  invariant(ConfigDecoder.normalizedHost(host) == host, "host not normalized: \(host.debugDescription)")
}

/// Every key and string value in `value` except the values of `client_secret` members (a
/// message may show a key or a host name, which is not a leak even if it spells a secret).
func otherStrings(_ value: JSONValue) -> [String] {
  switch value {
  case .string(let text): return [text]
  case .array(let elements): return elements.flatMap(otherStrings)
  case .object(let object):
    return object.entries.flatMap { [$0.key] + ($0.key == "client_secret" ? [] : otherStrings($0.value)) }
  default: return []
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let variables = environments[Int(data[0] & 7)]
  let input = bytes(data + 1, size - 1)
  do {
    let config = try Config.parse(bytes: input, file: file, variables: variables)
    invariant(config.fileExisted, "fileExisted is false")
    check(config.topLevel)
    if let host = config.host { checkHostName(host) }
    for (host, settings) in config.hosts {
      checkHostName(host)
      check(settings)
    }
    for host in [config.defaultHost] + Array(config.hosts.keys) { check(config.settings(for: host)) }
  } catch {
    invariant(error.exitStatus == .usage, "exit status \(error.exitStatus)")
    invariant(isTerminalSafe(error.message, lines: true), "unsafe message: \(error.message.debugDescription)")
    // A client secret from the file never shows (12+ bytes with a digit: no fixed text has one).
    if let object = (try? JSON.parse(input))?.objectValue {
      var secrets = [object["client_secret"]?.stringValue]
      for block in object["hosts"]?.objectValue?.values ?? [] {
        secrets.append(block.objectValue?["client_secret"]?.stringValue)
      }
      let others = otherStrings(.object(object))
      for case let secret? in secrets
      where secret.utf8.count >= 12 && secret.utf8.contains(where: { (0x30...0x39).contains($0) })
        && !others.contains(where: { $0.contains(secret) })
      {
        invariant(!error.message.contains(secret), "the message shows a client secret")
      }
    }
  }
  return 0
}
