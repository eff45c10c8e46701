/// A GitHub host name as the user gave it, validated and normalised (R47).
///
/// `name` is what credentials are stored under and compared against, byte for
/// byte: an ASCII LDH DNS name, an IPv4 literal or a bracketed IPv6 literal,
/// lowercased, with an optional `:port` (a redundant `:443` is dropped).
/// Subdomains are never collapsed: `tuf-repo.github.com` is its own host (R49).
package struct GitHubHost: Sendable, Hashable, CustomStringConvertible {
  /// The default host.
  package static let gitHubDotCom = GitHubHost(hostname: "github.com", port: nil)

  /// The host without the port, lowercased.
  package let hostname: String
  /// The port, when it is not 443.
  package let port: Int?

  private init(hostname: String, port: Int?) {
    self.hostname = hostname
    self.port = port
  }

  /// Why a host name was refused.
  package struct ValidationError: ReportableError, Equatable {
    /// The input with control characters removed, for the message.
    package var input: String
    package var reason: String
    package var message: String {
      "'\(Sanitize.terminal(input, maxCharacters: 100))' is not a valid GitHub host: \(reason). "
        + "Give a host name such as github.com or ghe.example.com, optionally with :PORT"
    }
    package var exitStatus: ExitStatus { .usage }
    package var errorKind: ErrorKind { .configuration }
  }

  /// Validates `text` and normalises it: ASCII-lowercased, `:443` removed.
  ///
  /// Refused: an empty value, a scheme (`https://`), user info (`@`), a path,
  /// query or fragment, whitespace, control or non-ASCII characters, a trailing
  /// dot, an empty label, a label starting or ending with `-`, and a port
  /// outside 1–65535.
  package init(validating text: String) throws(ValidationError) {
    // The host nearly every lookup names, already valid and normalised: no parsing (done twice
    // on `token`'s path).
    if text == "github.com" {
      self = .gitHubDotCom
      return
    }
    func fail(_ reason: String) -> ValidationError { ValidationError(input: text, reason: reason) }
    if text.isEmpty { throw fail("it is empty") }
    for byte in text.utf8 {
      if byte <= 0x20 || byte == 0x7F { throw fail("it contains a space or a control character") }
      if byte >= 0x80 { throw fail("it contains a non-ASCII character (use the punycode xn-- form)") }
    }
    // Byte searches: String.contains(String) would bring in _StringProcessing, and `Character`
    // searches walk grapheme clusters; every host key of the credentials file comes through
    // here on every read. The text is ASCII here, so byte indices are valid in it.
    let bytes = Array(text.utf8)
    func has(_ character: Unicode.Scalar) -> Bool { bytes.contains(UInt8(ascii: character)) }
    if bytes.count >= 3,
      (0..<bytes.count - 2).contains(where: {
        bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == UInt8(ascii: "/") && bytes[$0 + 2] == UInt8(ascii: "/")
      })
    {
      throw fail("give the host name only, without https://")
    }
    if has("@") { throw fail("it contains user info (@)") }
    if has("/") || has("\\") { throw fail("it contains a path") }
    if has("?") { throw fail("it contains a query (?)") }
    if has("#") { throw fail("it contains a fragment (#)") }

    var hostPart = Substring(text)
    var port: Int?
    if bytes[0] == UInt8(ascii: "[") {
      guard let close = hostPart.utf8.firstIndex(of: UInt8(ascii: "]")) else {
        throw fail("its IPv6 address is not closed with ]")
      }
      let after = hostPart[hostPart.utf8.index(after: close)...]
      if !after.isEmpty {
        guard after.utf8.first == UInt8(ascii: ":") else { throw fail("unexpected text after the IPv6 address") }
        port = try Self.parsePort(after[after.utf8.index(after: after.startIndex)...], fail)
      }
      hostPart = hostPart[...close]
    } else if let colon = hostPart.utf8.firstIndex(of: UInt8(ascii: ":")) {
      port = try Self.parsePort(hostPart[hostPart.utf8.index(after: colon)...], fail)
      hostPart = hostPart[..<colon]
    }
    if hostPart.utf8.last == UInt8(ascii: ".") { throw fail("it ends with a dot") }
    let hostname = hostPart.lowercased()
    guard WebURL.isValidHost(hostname) else {
      throw fail("it must be a DNS name of letters, digits, '-' and '.', or an IP address")
    }
    self.init(hostname: hostname, port: port == 443 ? nil : port)
  }

  /// The host a credentials-file key names (R106): the key must pass
  /// ``init(validating:)`` and already be that host's ``name``, as ghlogin writes it (lowercase,
  /// no `:443`), since every lookup uses the normalised name. The error's `reason` never
  /// contains the key.
  package init(storedName text: String) throws(ValidationError) {
    try self.init(validating: text)
    guard name == text else {
      throw ValidationError(input: text, reason: "it is written as \(name)")
    }
  }

  private static func parsePort(
    _ text: Substring, _ fail: (String) -> ValidationError
  ) throws(ValidationError) -> Int {
    guard !text.isEmpty, text.utf8.count <= 5, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let port = Int(text), (1...65535).contains(port)
    else { throw fail("its port must be a number from 1 to 65535") }
    return port
  }

  /// `hostname` or `hostname:port`: the key credentials are stored under.
  package var name: String { port.map { "\(hostname):\($0)" } ?? hostname }

  package var description: String { name }

  /// Whether this is github.com itself (not a subdomain, not another port).
  package var isGitHubDotCom: Bool { hostname == "github.com" && port == nil }

  /// Whether this is a GitHub Enterprise Cloud with data residency host (`SUBDOMAIN.ghe.com`).
  var isGHEDotCom: Bool { hostname.hasSuffix(".ghe.com") && !hostname.hasPrefix("[") }

  /// The built-in endpoints for this host (R48).
  ///
  /// - github.com: `https://github.com/login/...`, API `https://api.github.com`.
  /// - `SUBDOMAIN.ghe.com`: `https://SUBDOMAIN.ghe.com/login/...`, API `https://api.SUBDOMAIN.ghe.com`.
  /// - any other host (GitHub Enterprise Server): `https://HOST/login/...`, API `https://HOST/api/v3`.
  package var defaultEndpoints: Endpoints { defaultEndpoints(scheme: .https) }

  /// ``defaultEndpoints`` with `scheme` (`http` only for a loopback server whose configured
  /// endpoints use it: ``Endpoints/derivedScheme(host:given:)``).
  package func defaultEndpoints(scheme: WebURL.Scheme) -> Endpoints {
    let web = WebURL(scheme: scheme, host: hostname, port: port, pathAndQuery: "/")
    let api: WebURL
    if isGitHubDotCom {
      api = WebURL(scheme: scheme, host: "api.github.com", pathAndQuery: "/")
    } else if isGHEDotCom {
      api = WebURL(scheme: scheme, host: "api." + hostname, port: port, pathAndQuery: "/")
    } else {
      api = web.appending(path: "api/v3")
    }
    return Endpoints(
      authorize: web.appending(path: "login/oauth/authorize"),
      token: web.appending(path: "login/oauth/access_token"),
      deviceCode: web.appending(path: "login/device/code"),
      api: api
    )
  }
}
