// Fuzz target: the git credential-helper input parser (Git/CredentialRequest.swift) and the
// answer writer and host match it feeds (Git/CredentialResponse.swift).
//
// Input: the bytes git writes to the helper's stdin. Invariants:
// - `CredentialRequest.parse` agrees with an independent byte-level reading of git's format
//   (R51–R53): LF is the only line separator, the request ends at the first empty line or
//   EOF, any CR or NUL anywhere or invalid UTF-8 refuses the whole input, every line needs a
//   `=`, a line is at most 65,535 bytes with its LF, at most 1,000 lines, an attribute's last
//   value wins, and `host` must be printable ASCII without whitespace, `/`, `\`, `@`, `?` or
//   `#`. Both accept the same inputs, and the parser keeps the same values of the attributes
//   ghlogin uses (`protocol`, `host`, `path`, `username`, `password`; it drops the others);
// - no kept value holds LF, CR or NUL;
// - an answer built from parsed values either is refused or reads back, through the parser,
//   as the same username and password;
// - the stored host chosen for a request equals it byte for byte after ASCII lowercasing only.

/// The reference reading, every attribute's last value (a `key[]` line's under `key[]`): nil when
/// the input must be refused.
func reference(_ bytes: [UInt8]) -> [String: String]? {
  guard bytes.count <= 1 << 20, !bytes.contains(0x0D), !bytes.contains(0x00),
    String(validating: bytes, as: UTF8.self) != nil
  else { return nil }
  var values: [String: [UInt8]] = [:]
  var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
  if bytes.last == 0x0A { lines.removeLast() }  // the LF ends the last line; no line follows
  var count = 0
  for line in lines {
    guard line.count + 1 <= 65_535 else { return nil }
    if line.isEmpty { break }
    count += 1
    guard count <= 1_000, let equals = line.firstIndex(of: UInt8(ascii: "=")) else { return nil }
    let key = Array(line[..<equals])
    let value = Array(line[(equals + 1)...])
    if key == Array("host".utf8) {
      guard value.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !"/\\@?#".utf8.contains($0) }) else { return nil }
    }
    values[String(decoding: key, as: UTF8.self)] = value
  }
  return values.mapValues { String(decoding: $0, as: UTF8.self) }
}

let storedHosts = ["github.test", "ghe.test:8443", "GitHub.com", "xn--ghe-b.test"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  let expected = reference(input)
  let request: CredentialRequest
  do {
    request = try CredentialRequest.parse(input)
  } catch {
    invariant(expected == nil, "refused what git's format allows: \(error.message)")
    invariant(isTerminalSafe(error.message), "unsafe message")
    return 0
  }
  guard let expected else {
    invariant(false, "accepted what git's format refuses")
    return 0
  }
  let kept = [
    ("protocol", request.protocol), ("host", request.host), ("path", request.path), ("username", request.username),
    ("password", request.password),
  ]
  let bad: (UInt8) -> Bool = { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }
  for (key, value) in kept {
    invariant(value == expected[key], "\(key) differs from the reference reading")
    invariant(!(value ?? "").utf8.contains(where: bad), "bad value for \(key)")
  }

  let response = CredentialResponse(
    username: request.username ?? "x-access-token", password: request.password ?? "gho_token", passwordExpiryUTC: 1)
  if let encoded = try? response.encoded() {
    do {
      let back = try CredentialRequest.parse(encoded)
      invariant(back.username == response.username && back.password == response.password, "answer does not read back")
    } catch {
      invariant(false, "the answer does not parse: \(error.message)")
    }
  }

  if let host = request.host, let stored = CredentialHostMatch.storedHost(for: host, among: storedHosts) {
    let lower = { (text: String) in text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 } }
    invariant(lower(stored) == lower(host), "host \(host.debugDescription) matched \(stored)")
  }
  return 0
}
