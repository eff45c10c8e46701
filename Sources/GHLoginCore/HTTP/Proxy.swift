/// An HTTP proxy for `https://` requests, from `https_proxy` or `HTTPS_PROXY` (R78, R79).
///
/// Precedence is curl's: lowercase `https_proxy` wins over `HTTPS_PROXY` (Go
/// prefers uppercase). `http_proxy`/`HTTP_PROXY` are never used for https.
/// The URL is `[http://][user[:password]@]host[:port][/]`, port 1080 by
/// default as in curl; user and password are percent-decoded and go only into
/// `Proxy-Authorization` on the CONNECT request. `description` never shows them.
struct ProxyURL: Sendable, Equatable, CustomStringConvertible {
  /// The proxy host, lowercased; an IPv6 literal keeps its brackets.
  package var host: String
  package var port: Int
  package var username: String?
  package var password: String?

  package init(host: String, port: Int, username: String? = nil, password: String? = nil) {
    self.host = host
    self.port = port
    self.username = username
    self.password = password
  }

  /// Parses a proxy URL; errors never quote the text (it may hold a password).
  package init(parsing text: String) throws(HTTPError) {
    let trimmed = text.trimmingASCIIWhitespace()
    for byte in trimmed.utf8 where byte <= 0x20 || byte >= 0x7F {
      throw .invalidProxy(reason: "the URL has a space, control or non-ASCII character")
    }
    var rest = Substring(trimmed)
    if let schemeEnd = rest.byteRange(of: "://") {
      let scheme = rest[..<schemeEnd.lowerBound].lowercased()
      guard scheme == "http" else {
        throw .invalidProxy(reason: "only http:// proxies are supported (the tunnel to the server is TLS)")
      }
      rest = rest[schemeEnd.upperBound...]
    }
    if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
      guard rest[slash...] == "/" else { throw .invalidProxy(reason: "the URL must not have a path") }
      rest = rest[..<slash]
    }
    var username: String?
    var password: String?
    if let at = rest.lastIndex(of: "@") {
      let userinfo = rest[..<at]
      rest = rest[rest.index(after: at)...]
      let pieces = userinfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      username = try Self.percentDecode(pieces[0])
      password = pieces.count > 1 ? try Self.percentDecode(pieces[1]) : nil
    }
    let authority: (host: String, port: Int?)
    do {
      authority = try WebURL.parseAuthority(rest)
    } catch {
      throw .invalidProxy(reason: error.reason)
    }
    let (host, port) = (authority.host, authority.port ?? 1080)
    self.init(host: host, port: port, username: username, password: password)
  }

  /// `host:port`, with no credentials.
  package var description: String { "\(host):\(port)" }

  /// `Basic base64(user:password)` when the URL had user info (RFC 7617).
  package var authorization: String? {
    guard let username else { return nil }
    return "Basic " + Crypto.base64(Array((username + ":" + (password ?? "")).utf8))
  }

  /// Percent-decodes user info exactly once (`+` stays `+`: this is not form data).
  private static func percentDecode(_ text: Substring) throws(HTTPError) -> String {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(FormEncoding.hexValue),
        let low = iterator.next().flatMap(FormEncoding.hexValue)
      else {
        throw .invalidProxy(reason: "its user info has invalid percent-encoding")
      }
      bytes.append(high << 4 | low)
    }
    guard let decoded = String(validating: bytes, as: UTF8.self) else {
      throw .invalidProxy(reason: "its user info is not UTF-8")
    }
    return decoded
  }
}

/// Which proxy, if any, a request goes through: `https_proxy`/`HTTPS_PROXY` and `no_proxy`/`NO_PROXY`.
struct ProxySettings: Sendable, Equatable {
  package var proxy: ProxyURL?
  var noProxy: NoProxy

  package init(proxy: ProxyURL?, noProxy: NoProxy = NoProxy("")) {
    self.proxy = proxy
    self.noProxy = noProxy
  }

  /// Reads the environment: lowercase first (like curl), empty values ignored; `http_proxy` never consulted.
  package init(variables: EnvironmentVariables) throws(HTTPError) {
    let raw = [variables["https_proxy"], variables["HTTPS_PROXY"]].compactMap { $0 }.first { !$0.isEmpty }
    let proxy: ProxyURL? = if let raw { try ProxyURL(parsing: raw) } else { nil }
    let exclusions = [variables["no_proxy"], variables["NO_PROXY"]].compactMap { $0 }.first { !$0.isEmpty }
    self.init(proxy: proxy, noProxy: NoProxy(exclusions ?? ""))
  }

  /// The proxy for `url`: none for http, for loopback hosts (R78), or when `NO_PROXY` matches.
  package func proxy(for url: WebURL) -> ProxyURL? {
    guard let proxy, url.scheme == .https, !url.isLoopback, url.host != "localhost",
      !noProxy.matches(host: url.host, port: url.port)
    else {
      return nil
    }
    return proxy
  }
}
