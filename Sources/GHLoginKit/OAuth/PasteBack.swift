/// Paste-back: the user copies the address the browser was redirected to
/// (`http://127.0.0.1:PORT/callback?code=…&state=…`) into the terminal, for when the browser
/// runs on another machine and cannot reach the loopback listener.
///
/// A pasted address is turned into the request the browser would have sent — the URL's path
/// and query as the target, its authority as the `Host` header — and goes through exactly the
/// checks a real callback does (``CallbackValidator``, then ``LoginSession``): path, `Host`,
/// state, `error`. Nothing pasted is ever echoed back: reasons are fixed text.
enum PasteBack {
  /// The line printed under the authorize URL when pasting is possible.
  static let prompt = "If your browser cannot reach this machine, paste the address it was sent to here:"

  /// What one pasted line is.
  enum Line: Sendable, Equatable {
    /// Only whitespace: ignored.
    case blank
    /// Not an `http://` URL; `reason` is fixed text.
    case invalid(reason: String)
    /// The request a browser would have made for this address.
    case request(target: String, host: String)
  }

  /// Reads one pasted line (surrounding spaces and tabs ignored).
  static func parse(_ line: String) -> Line {
    let text = line.trimmingASCIIWhitespace()
    if text.isEmpty { return .blank }
    let url: WebURL
    do { url = try WebURL(parsing: text) } catch {
      return .invalid(reason: "it is not a URL (\(error.reason))")
    }
    guard url.scheme == .http else {
      return .invalid(reason: "it does not start with http://127.0.0.1:PORT/callback")
    }
    return .request(target: url.pathAndQuery, host: url.authority)
  }

  /// Hands a pasted `line` to `session` as if the browser had sent it; returns what to tell the
  /// user when it was not accepted (then the login keeps waiting), nil otherwise.
  ///
  /// After a nil return `session.outcome` is set unless the line was blank.
  static func deliver(_ line: String, to session: LoginSession) -> String? {
    let target: String
    let host: String
    switch parse(line) {
    case .blank: return nil
    case .invalid(let reason): return complaint(reason)
    case .request(let pastedTarget, let pastedHost): (target, host) = (pastedTarget, pastedHost)
    }
    let headers = HTTPHeaders([("Host", host)])
    if case .reject(_, let reason) = session.validator.decide(method: "GET", target: target, headers: headers) {
      return complaint(reason)
    }
    let reply = session.handle(method: "GET", target: target, headers: headers)
    return reply.finish ? nil : complaint("this login has already finished")
  }

  /// "That address was not accepted: REASON ..." and the request to paste again.
  static func complaint(_ reason: String) -> String {
    var text = reason
    if text.hasSuffix(".") { text.removeLast() }
    if let first = text.first, first.isUppercase { text = first.lowercased() + text.dropFirst() }
    return "That address was not accepted: \(text). Paste the whole address from the browser's address bar, "
      + "or wait for the browser:"
  }
}
