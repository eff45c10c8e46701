/// The GOAUTH command protocol's URL check and answer (Go 1.24+, `go help goauth`;
/// golang/go `src/cmd/go/internal/auth`: `userauth.go` parses the answer, `auth.go` matches
/// it to requests by `host[:port]` and path prefix).
///
/// Go runs the command once with no argument before any request (answered with nothing: R105,
/// nothing is disclosed before a server asks), then once with the URL of each request that
/// failed, passing that response's status line and headers on stdin. The answer is blocks of
/// URL lines, an empty line, header lines, an empty line.
package enum GoAuthMatch {
  /// The stored host `url` designates, or nil: only `https://`, then an authority (up to the
  /// first `/`, `?` or `#`) without user info that ``GitHubHost/init(validating:)`` accepts
  /// and whose normalised name is exactly one of `hosts` (R104: no suffix, substring or Unicode
  /// case matching; `:443` is the same host as none).
  package static func host(forURL url: String, among hosts: [String]) -> String? {
    let bytes = Array(url.utf8)
    let scheme = Array("https://".utf8)
    guard bytes.count <= 8192, bytes.starts(with: scheme) else { return nil }
    let rest = bytes[scheme.count...]
    let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
    let authority = rest[..<(end ?? rest.endIndex)]
    guard !authority.isEmpty, let host = try? GitHubHost(validating: String(decoding: authority, as: UTF8.self))
    else { return nil }
    return hosts.first { $0 == host.name }
  }

  /// The answer for `host`: `https://HOST/`, an empty line, the Basic `Authorization` header
  /// of `login:token`, an empty line. Nil when either value could break a line or the header
  /// (Go would refuse the whole answer, or read a second header).
  package static func answer(host: String, login: String, token: String) -> String? {
    func safe(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
    guard safe(login), safe(token), !login.utf8.contains(UInt8(ascii: ":")) else { return nil }
    let credentials = Crypto.base64(Array("\(login):\(token)".utf8))
    return "https://\(host)/\n\nAuthorization: Basic \(credentials)\n\n"
  }
}
