/// Everything that can go wrong sending one HTTP request, with whom it went wrong.
///
/// Messages say what happened and to which host (`could not connect to
/// api.github.com:443: Connection refused`); they never contain a header
/// value, a body, or proxy credentials. Hosts come from already validated
/// URLs; reasons come from `strerror`, OpenSSL's fixed strings, or
/// ``HTTPParseError``'s fixed texts, never from the peer.
package enum HTTPError: ReportableError, Equatable, Sendable {
  /// What the client was doing when time ran out.
  package enum Phase: String, Sendable {
    case resolve = "resolving"
    case connect = "connecting to"
    case proxyTunnel = "opening a tunnel through the proxy to"
    case tlsHandshake = "the TLS handshake with"
    case send = "sending the request to"
    case response = "waiting for the response from"
  }

  /// Plain `http://` to a host that is not loopback.
  case insecureURL(host: String)
  /// The request itself cannot be sent: a control character in a header, target or method (R74).
  case invalidRequest(reason: String)
  /// `getaddrinfo` failed for `host`.
  case resolve(host: String, reason: String)
  /// Every address of `host` refused or failed the TCP connection.
  case connect(host: String, port: Int, reason: String)
  /// The deadline passed during `phase`.
  case timedOut(host: String, phase: Phase)
  /// The TLS handshake failed (nothing was sent); `reason` is OpenSSL's, e.g. `certificate verify failed: hostname mismatch`.
  case tls(host: String, reason: String)
  /// A send or receive (TCP or TLS) failed after the connection was up.
  case io(host: String, reason: String)
  /// The response broke a parsing rule, was truncated, or was too large.
  case badResponse(host: String, HTTPParseError)
  /// The proxy settings cannot be used.
  case invalidProxy(reason: String)
  /// The proxy answered CONNECT with 407.
  case proxyAuthenticationRequired(proxy: String)
  /// The proxy answered CONNECT with another non-2xx status.
  case proxyRefused(proxy: String, target: String, status: Int)
  /// The extra CA file (`--ca-file`) could not be loaded.
  case caFile(path: String, reason: String)
  /// A trust path named by `setting` (`SSL_CERT_FILE`, `SSL_CERT_DIR`, the config's `ca_file`) is
  /// not a regular file (a directory for `SSL_CERT_DIR`) or is too large (R90).
  case unusableTrustPath(path: String, setting: String, reason: String)
  /// The loopback listener could not bind or listen on 127.0.0.1:`port`.
  case listen(port: Int, reason: String, inUse: Bool)
  /// The user pressed Ctrl-C (SIGINT) or the process got SIGTERM while waiting.
  case interrupted

  package var message: String {
    switch self {
    case .insecureURL(let host):
      "refusing plain http:// to \(host): only literal loopback addresses (127.0.0.0/8 as four plain decimal "
        + "numbers such as 127.0.0.1, or [::1]) may use http, not the name localhost; use an https:// URL"
    case .invalidRequest(let reason): "refusing to send the request: \(reason)"
    case .resolve(let host, let reason): "could not resolve \(host): \(reason)"
    case .connect(let host, let port, let reason): "could not connect to \(Self.join(host, port)): \(reason)"
    case .timedOut(let host, let phase): "timed out \(phase.rawValue) \(host)"
    case .tls(let host, let reason):
      "TLS connection to \(host) failed: \(reason)"
        + (reason.containsBytes("issuer") || reason.containsBytes("self-signed") || reason.containsBytes("self signed")
          ? " (if the server uses a private CA, point SSL_CERT_FILE at its PEM bundle)" : "")
    case .io(let host, let reason): "connection to \(host) failed: \(reason)"
    case .badResponse(let host, let error):
      switch error {
      case .truncated: "truncated response from \(host): \(error)"
      case .noResponse: "no response from \(host): \(error)"
      case .headersTooLarge, .tooManyHeaders, .bodyTooLarge: "response from \(host) is too large: \(error)"
      default: "malformed response from \(host): \(error)"
      }
    case .invalidProxy(let reason): "cannot use the proxy from https_proxy/HTTPS_PROXY: \(reason)"
    case .proxyAuthenticationRequired(let proxy):
      "proxy authentication required by \(proxy) (put user:password in the https_proxy URL)"
    case .proxyRefused(let proxy, let target, let status): "proxy \(proxy) refused CONNECT to \(target): \(status)"
    case .caFile(let path, let reason): "could not load the CA file \(Self.sanitized(path)): \(reason)"
    case .unusableTrustPath(let path, let setting, let reason):
      switch setting {
      case "ca_file":
        "cannot use ca_file \(Self.sanitized(path)) from the config: \(reason); set ca_file to a PEM file of CA certificates"
      case "SSL_CERT_DIR":
        "cannot use SSL_CERT_DIR entry \(Self.sanitized(path)): \(reason); point SSL_CERT_DIR at directories of CA "
          + "certificates, or unset it"
      default:
        "cannot use \(setting)=\(Self.sanitized(path)): \(reason); point \(setting) at a PEM file of CA certificates, "
          + "or unset it"
      }
    case .listen(let port, let reason, let inUse):
      inUse
        ? "port \(port) on 127.0.0.1 is in use; choose another port or stop the program using it"
        : "could not listen on 127.0.0.1:\(port): \(reason)"
    case .interrupted: "interrupted"
    }
  }

  package var exitStatus: ExitStatus {
    switch self {
    case .insecureURL, .invalidProxy, .caFile, .unusableTrustPath: .usage
    case .interrupted: .interrupted
    default: .failure
    }
  }

  package var errorKind: ErrorKind {
    switch self {
    case .insecureURL, .invalidProxy, .caFile, .unusableTrustPath: .configuration
    case .interrupted: .cancelled
    case .listen: .system
    default: .network
    }
  }

  /// Whether any byte of the request may have reached the origin server.
  ///
  /// False for failures before the request was written (resolution, connect,
  /// proxy tunnel, TLS handshake, refused requests): those are safe to retry
  /// even for a one-time authorization code (R22).
  var requestMayHaveBeenSent: Bool {
    switch self {
    case .insecureURL, .invalidRequest, .resolve, .connect, .tls, .invalidProxy, .proxyAuthenticationRequired,
      .proxyRefused, .caFile, .unusableTrustPath, .listen:
      false
    case .interrupted: true
    case .timedOut(_, let phase): phase == .send || phase == .response
    case .io, .badResponse: true
    }
  }

  private static func join(_ host: String, _ port: Int) -> String { "\(host):\(port)" }

  /// `text` without control characters (C0, DEL, C1), for user-supplied paths in messages.
  package static func sanitized(_ text: String) -> String {
    String(
      String.UnicodeScalarView(text.unicodeScalars.filter { !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }))
  }
}
