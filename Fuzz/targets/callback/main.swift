// Fuzz target: the loopback callback check (OAuth/Callback.swift, CallbackValidator.decide).
//
// Input: LF-separated lines: the method, the request target, then header lines `name:value`.
// The pending login listens on port 4711 with state `st4te-0123456789abcdefABCDEF_xyz`.
// Invariants, checked against an independent byte-level reading of the request:
// - `accept(code)` only for `GET`, exactly one Host header whose bytes are `127.0.0.1:4711`,
//   path bytes `/callback`, exactly one `state` whose decoded bytes equal the pending state,
//   exactly one `code` equal to the returned code (1–512 visible ASCII), and no `error`;
// - `authorizationError` only under the same Host/method/path/state rules, with one `error`
//   equal to the returned one and no `code`;
// - `reject` has status 400, 404 or 405 and one of the validator's fixed reasons (collected by
//   probing every branch once), so no request data is ever echoed.

let port = 4711
let state = "st4te-0123456789abcdefABCDEF_xyz"
let validator = CallbackValidator(port: port, state: state)
let goodHost = HTTPHeaders([("Host", "127.0.0.1:\(port)")])

/// The reasons the validator can give, found by sending one request down each rejecting branch.
let fixedReasons: Set<String> = {
  let probes: [(String, String, HTTPHeaders)] = [
    ("GET", "/callback?code=c&state=\(state)", HTTPHeaders([("Host", "evil.test")])),
    ("POST", "/callback?code=c&state=\(state)", goodHost),
    ("GET", "/other", goodHost),
    ("GET", "/callback?code=%zz&state=\(state)", goodHost),
    ("GET", "/callback?code=a&code=b&state=\(state)", goodHost),
    ("GET", "/callback?code=c", goodHost),
    ("GET", "/callback?code=c&state=wrong", goodHost),
    ("GET", "/callback?code=c&error=e&state=\(state)", goodHost),
    ("GET", "/callback?state=\(state)", goodHost),
    ("GET", "/callback?code=%01&state=\(state)", goodHost),
  ]
  var reasons: Set<String> = []
  for (method, target, headers) in probes {
    if case .reject(_, let reason) = validator.decide(method: method, target: target, headers: headers) {
      reasons.insert(reason)
    }
  }
  invariant(reasons.count == probes.count, "the probes no longer reach \(probes.count) distinct reasons")
  return reasons
}()

/// Percent-decodes a query component byte by byte (`+` is a space); nil when invalid.
func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
  var out: [UInt8] = []
  var index = bytes.startIndex
  func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x37
    case 0x61...0x66: byte - 0x57
    default: nil
    }
  }
  while index < bytes.endIndex {
    let byte = bytes[index]
    if byte == UInt8(ascii: "%") {
      guard index + 2 < bytes.endIndex, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
      else { return nil }
      out.append(high << 4 | low)
      index += 3
    } else {
      out.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
      index += 1
    }
  }
  return out
}

/// The decoded values of parameter `name` in `query` (bytes), or nil when the query is not valid.
func values(of name: String, in query: ArraySlice<UInt8>) -> [[UInt8]]? {
  var found: [[UInt8]] = []
  for part in query.split(separator: UInt8(ascii: "&")) {
    let pieces = part.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
    guard let key = unescape(pieces[0]) else { return nil }
    let value = pieces.count > 1 ? unescape(pieces[1]) : []
    guard let value else { return nil }
    if key == Array(name.utf8) { found.append(value) }
  }
  return found
}

/// Checks the conditions every non-reject decision needs, byte for byte; returns the query.
func checkAddressedToUs(method: String, target: String, headers: HTTPHeaders) -> ArraySlice<UInt8> {
  invariant(Array(method.utf8) == Array("GET".utf8), "not a GET: \(method.debugDescription)")
  let hosts = headers.fields.filter { Array($0.name.utf8.map { $0 | 0x20 }) == Array("host".utf8) }
  invariant(hosts.count == 1, "\(hosts.count) Host headers")
  invariant(Array(hosts[0].value.utf8) == Array("127.0.0.1:\(port)".utf8), "Host \(hosts[0].value.debugDescription)")
  let bytes = Array(target.utf8)
  let mark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
  invariant(Array(bytes[..<mark]) == Array("/callback".utf8), "path of \(target.debugDescription)")
  let query = mark < bytes.endIndex ? bytes[(mark + 1)...] : []
  invariant(values(of: "state", in: query) == [Array(state.utf8)], "state of \(target.debugDescription)")
  return query
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let lines = fields(bytes(data, size)[...], separator: 0x0A)
  let method = String(decoding: lines[0], as: UTF8.self)
  let target = lines.count > 1 ? String(decoding: lines[1], as: UTF8.self) : ""
  var headers = HTTPHeaders()
  for line in lines.dropFirst(2) {
    let parts = line.split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false)
    headers.add(
      String(decoding: parts[0], as: UTF8.self), parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : "")
  }

  switch validator.decide(method: method, target: target, headers: headers) {
  case .accept(let code):
    let query = checkAddressedToUs(method: method, target: target, headers: headers)
    invariant(values(of: "code", in: query) == [Array(code.utf8)], "code differs from the query's")
    invariant(values(of: "error", in: query) == [], "accepted a callback with an error")
    invariant(
      (1...512).contains(code.utf8.count) && code.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F },
      "unusable code accepted")
  case .authorizationError(let response):
    let query = checkAddressedToUs(method: method, target: target, headers: headers)
    invariant(values(of: "error", in: query) == [Array(response.error.utf8)], "error differs from the query's")
    invariant(values(of: "code", in: query) == [], "an error callback with a code")
  case .reject(let status, let reason):
    invariant([400, 404, 405].contains(status), "status \(status)")
    invariant(fixedReasons.contains(reason), "reason not one of the fixed texts: \(reason.debugDescription)")
  }
  return 0
}
