/// One request of git's credential-helper protocol, parsed from the raw bytes git wrote to
/// the helper's standard input (git Documentation/git-credential.adoc, "INPUT/OUTPUT FORMAT").
///
/// Parsing follows git, stricter where that costs nothing (R51–R53): lines end at LF only, never
/// at another byte or scalar (CVE-2024-50338, CVE-2025-23040); the request ends at the first
/// empty line; an attribute's last value wins. The whole request is refused
/// (``CredentialInputError``) for a CR or NUL, invalid UTF-8, a line without `=`, more than
/// ``maximumInputSize``, ``maximumLineLength`` or ``maximumLines``, or an implausible `host`
/// (``isPlausibleHost(_:)``). Only the attributes ghlogin uses are kept; every other line,
/// `capability[]`, `wwwauth[]` and `state[]` included, is checked as strictly and then dropped,
/// as git drops the attributes it does not recognise.
package struct CredentialRequest: Sendable, Equatable {
  /// git's limit on one line, including its LF (git-credential.adoc).
  static let maximumLineLength = 65_535
  /// The most attribute lines read before the terminating empty line.
  static let maximumLines = 1_000
  /// The most bytes read from standard input (1 MiB).
  package static let maximumInputSize = 1 << 20

  /// `protocol`, e.g. `https`.
  package var `protocol`: String?
  /// `host`, possibly with `:port`, exactly as git sent it.
  package var host: String?
  /// `path`, when git sends it (`credential.useHttpPath`): `owner` rules use it.
  package var path: String?
  /// `username`, when git already knows which account it wants.
  package var username: String?
  /// `password`: for `erase`, the credential git found rejected.
  package var password: String?

  package init(
    protocol: String? = nil, host: String? = nil, path: String? = nil, username: String? = nil,
    password: String? = nil
  ) {
    self.protocol = `protocol`
    self.host = host
    self.path = path
    self.username = username
    self.password = password
  }

  /// Parses `bytes` as one request; throws on the first reason to refuse the whole of it.
  package static func parse(_ bytes: [UInt8]) throws(CredentialInputError) -> CredentialRequest {
    guard bytes.count <= maximumInputSize else { throw .tooLarge }
    if let index = bytes.firstIndex(of: 0x0D) { throw .carriageReturn(line: lineNumber(of: index, in: bytes)) }
    if let index = bytes.firstIndex(of: 0x00) { throw .nul(line: lineNumber(of: index, in: bytes)) }
    // Validated as a whole here; the values kept are converted one by one below.
    guard UTF8Text.validated(bytes) != nil else { throw .invalidUTF8 }

    var request = CredentialRequest()
    var start = bytes.startIndex
    var line = 0
    while start < bytes.endIndex {
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
      line += 1
      // A last line without its LF is measured as if it had one.
      guard end - start + 1 <= maximumLineLength else { throw .lineTooLong(line: line) }
      if end == start { break }  // the empty line that ends the request
      guard line <= maximumLines else { throw .tooManyLines }
      try request.add(bytes[start..<end], line: line)
      start = end + 1
    }
    return request
  }

  /// Records one `key=value` line (without its LF), or drops it when ghlogin does not use `key`.
  private mutating func add(_ bytes: ArraySlice<UInt8>, line: Int) throws(CredentialInputError) {
    guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { throw .missingEquals(line: line) }
    // Both halves are valid UTF-8: the whole input is, and `=` is a one-byte scalar.
    let key = String(decoding: bytes[..<equals], as: UTF8.self)
    func value() -> String { String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
    switch key {
    case "protocol": self.protocol = value()
    case "host":
      let host = value()
      guard Self.isPlausibleHost(host) else { throw .invalidHost(line: line) }
      self.host = host
    case "path": path = value()
    case "username": username = value()
    case "password": password = value()
    default: break
    }
  }

  /// Whether `value` can be a `host` attribute: empty (git sends that for some URLs; `get`
  /// then answers nothing), or printable ASCII without whitespace, `/`, `\`, `@`, `?` or `#`,
  /// so that no path, query or user info can be smuggled in with it, and no Unicode
  /// separator such as U+0085 or U+2028 can pass for a line break.
  static func isPlausibleHost(_ value: String) -> Bool {
    value.utf8.allSatisfy { byte in
      byte > 0x20 && byte < 0x7F && !"/\\@?#".utf8.contains(byte)
    }
  }

  /// The 1-based line holding byte `index`, for messages.
  private static func lineNumber(of index: Int, in bytes: [UInt8]) -> Int {
    bytes[..<index].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
  }
}

/// Why a credential-helper request was refused as a whole: exit 2, a message on stderr,
/// nothing on stdout. Messages name lines, never values (a value may be a password).
package enum CredentialInputError: ReportableError, Equatable {
  case tooLarge
  case carriageReturn(line: Int)
  case nul(line: Int)
  case invalidUTF8
  case missingEquals(line: Int)
  case lineTooLong(line: Int)
  case tooManyLines
  case invalidHost(line: Int)

  package var message: String {
    let reason: String
    switch self {
    case .tooLarge: reason = "the input is larger than \(CredentialRequest.maximumInputSize) bytes"
    case .carriageReturn(let line): reason = "line \(line) contains a carriage return (CR)"
    case .nul(let line): reason = "line \(line) contains a NUL byte"
    case .invalidUTF8: reason = "the input is not valid UTF-8"
    case .missingEquals(let line): reason = "line \(line) is not of the form key=value"
    case .lineTooLong(let line):
      reason = "line \(line) is longer than \(CredentialRequest.maximumLineLength) bytes"
    case .tooManyLines: reason = "the input has more than \(CredentialRequest.maximumLines) lines"
    case .invalidHost(let line):
      reason =
        "the host on line \(line) is not a plain host name (it has a path, user info, "
        + "whitespace, a control or a non-ASCII character)"
    }
    return "git-credential: refusing the request: \(reason); no credential was given"
  }

  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }
}
