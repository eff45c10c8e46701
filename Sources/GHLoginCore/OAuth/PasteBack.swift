/// Paste-back: the user copies the address the browser was redirected to
/// (`http://127.0.0.1:PORT/callback?code=…&state=…`) into the terminal, for when the browser
/// runs on another machine and cannot reach the loopback listener.
///
/// A pasted address is turned into the request the browser would have sent — the URL's path
/// and query as the target, its authority as the `Host` header — and goes through exactly the
/// checks a real callback does (``CallbackValidator``, then ``LoginSession``): path, `Host`,
/// state, `error`. Nothing pasted is ever echoed back: reasons are fixed text.
package enum PasteBack {
  /// The line printed under the authorize URL when pasting is possible.
  package static let prompt = "If your browser cannot reach this machine, paste the address it was sent to here:"

  /// What one pasted line is.
  package enum Line: Sendable, Equatable {
    /// Only whitespace: ignored.
    case blank
    /// Not an `http://` URL; `reason` is fixed text.
    case invalid(reason: String)
    /// The request a browser would have made for this address.
    case request(target: String, host: String)
  }

  /// Reads one pasted line (surrounding spaces and tabs ignored).
  package static func parse(_ line: String) -> Line {
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
  package static func complaint(_ reason: String) -> String {
    var text = reason
    if text.hasSuffix(".") { text.removeLast() }
    if let first = text.first, first.isUppercase { text = first.lowercased() + text.dropFirst() }
    return "That address was not accepted: \(text). Paste the whole address from the browser's address bar, "
      + "or wait for the browser:"
  }
}

extension PasteBack {
  /// The terminal side of paste-back: lines read from a descriptor (standard input) that the
  /// loopback server polls alongside its connections.
  ///
  /// ``read()`` is called only when poll said the descriptor is readable, so it is never switched
  /// to non-blocking. A line longer than ``maxLine`` is dropped whole; a partial line at the end
  /// of input is not a line. Not `Sendable`: the login's one thread uses it.
  package struct Input {
    /// The longest line accepted; longer ones are discarded.
    static let maxLine = 16 * 1024

    /// The descriptor read from.
    package let fd: Int32
    /// False once the descriptor reached its end (or failed): stop polling it.
    private(set) var isOpen = true
    private var buffer: [UInt8] = []
    private var discardingLongLine = false

    package init(fd: Int32) {
      self.fd = fd
    }

    /// Reads what the descriptor has (one `read`).
    package mutating func read() {
      do {
        if try FileDescriptor.read(fd, appendingTo: &buffer, count: 4096) == .endOfFile { isOpen = false }
      } catch {
        isOpen = false
      }
    }

    /// The next complete line, without `\n` or `\r\n`; nil when no whole line is buffered.
    mutating func nextLine() -> String? {
      while true {
        guard let newline = buffer.firstIndex(of: HTTPSyntax.lf) else {
          if buffer.count > Self.maxLine {
            buffer.removeAll()
            discardingLongLine = true
          }
          return nil
        }
        var line = buffer[..<newline]
        buffer.removeFirst(newline + 1)
        if discardingLongLine || line.count > Self.maxLine {
          discardingLongLine = false
          continue
        }
        if line.last == HTTPSyntax.cr { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
      }
    }
  }
}
