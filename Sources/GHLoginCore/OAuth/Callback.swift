/// An authorization error the server redirected back with (`error=...`), state already checked.
///
/// All three values are as received; sanitize before showing them (``Sanitize``).
package struct AuthorizationErrorResponse: Sendable, Equatable {
  package var error: String
  package var description: String?
  package var uri: String?

  package init(error: String, description: String? = nil, uri: String? = nil) {
    self.error = error
    self.description = description
    self.uri = uri
  }
}

/// What to do with one request that reached the loopback listener.
enum CallbackDecision: Sendable, Equatable {
  /// A valid redirect with the pending state: exchange `code` (once).
  case accept(code: String)
  /// A valid error redirect with the pending state: the login ends with this error.
  case authorizationError(AuthorizationErrorResponse)
  /// Not a valid callback: answer `status` with `reason` and keep waiting (R7–R10).
  ///
  /// `reason` is fixed text written here; it never contains request data.
  case reject(status: Int, reason: String)
}

/// Checks requests to the loopback listener against the pending login (R7–R10, R13).
///
/// In order: the `Host` header must be exactly `127.0.0.1:PORT` (R10, DNS rebinding),
/// the method `GET`, the path exactly `/callback` (R7), the query must decode
/// cleanly with no repeated parameter (R9), and `state` must equal the pending
/// one in constant time (R8), for error redirects too. Nothing from the request
/// is ever echoed or used as a redirect target.
struct CallbackValidator: Sendable {
  /// The listener's port, as read back with `getsockname`.
  package var port: Int
  /// The pending state; compared with ``Crypto/constantTimeEquals(_:_:)``.
  private let state: [UInt8]
  /// The longest `code` accepted; GitHub's are 20 characters.
  static let maxCodeLength = 512

  package init(port: Int, state: String) {
    self.port = port
    self.state = Array(state.utf8)
  }

  /// Decides what `method` and `target` with `headers` mean for the pending login.
  package func decide(method: String, target: String, headers: HTTPHeaders) -> CallbackDecision {
    let hosts = headers.values(for: "Host")
    guard hosts.count == 1, hosts[0] == "127.0.0.1:\(port)" else {
      return .reject(status: 400, reason: "This request was not addressed to 127.0.0.1:\(port).")
    }
    guard method == "GET" else { return .reject(status: 405, reason: "Only GET is allowed here.") }
    let path: Substring
    let query: Substring
    if let mark = target.firstIndex(of: "?") {
      path = target[..<mark]
      query = target[target.index(after: mark)...]
    } else {
      path = Substring(target)
      query = ""
    }
    guard path == AuthorizeURL.callbackPath else { return .reject(status: 404, reason: "Not found.") }
    let pairs: [(name: String, value: String)]
    do { pairs = try FormEncoding.decode(query) } catch {
      return .reject(status: 400, reason: "The callback query is not correctly encoded.")
    }
    var params: [String: String] = [:]
    for pair in pairs {
      guard params.updateValue(pair.value, forKey: pair.name) == nil else {
        return .reject(status: 400, reason: "The callback repeats a parameter.")
      }
    }
    guard let received = params["state"], !received.isEmpty else {
      return .reject(status: 400, reason: "The callback has no state; this login did not start it.")
    }
    guard Crypto.constantTimeEquals(Array(received.utf8), state) else {
      return .reject(status: 400, reason: "The callback's state does not match this login.")
    }
    if let error = params["error"] {
      guard params["code"] == nil else {
        return .reject(status: 400, reason: "The callback has both a code and an error.")
      }
      return .authorizationError(
        AuthorizationErrorResponse(error: error, description: params["error_description"], uri: params["error_uri"]))
    }
    guard let code = params["code"], !code.isEmpty else {
      return .reject(status: 400, reason: "The callback has no authorization code.")
    }
    guard code.utf8.count <= Self.maxCodeLength, code.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      return .reject(status: 400, reason: "The authorization code is not valid.")
    }
    return .accept(code: code)
  }
}
