/// The small static HTML page the loopback listener answers the browser with (R12, R13).
///
/// No scripts, no external resources, no links, no redirects; every value that
/// came from a server is HTML-escaped; the code and state are never shown. The title names
/// `product`, the program whose login it is (the command line's `ghlogin`, or a tool's name);
/// nil gives a title that names none.
package struct ResultPage: Sendable, Equatable {
  package var status: Int
  package var headers: HTTPHeaders
  package var body: [UInt8]

  /// "You are logged in to HOST as LOGIN. You can close this tab and go back to the terminal."
  package static func success(host: GitHubHost, login: String, product: String? = nil) -> ResultPage {
    let text =
      "You are logged in to \(Sanitize.html(host.name)) as \(Sanitize.html(login)). "
      + "You can close this tab and go back to the terminal."
    return page(status: 200, title: "Logged in", text: text, product: product)
  }

  /// The login failed for `reason` (plain text, escaped here); the terminal has the details.
  package static func failure(reason: String, product: String? = nil) -> ResultPage {
    let text =
      "The login failed: \(sentence(Sanitize.html(reason, maxCharacters: 500))) "
      + "See the terminal for what to do next."
    return page(status: 200, title: "Login failed", text: text, product: product)
  }

  /// An answer to a request that is not the pending callback; the login keeps waiting.
  package static func rejection(status: Int, reason: String, product: String? = nil) -> ResultPage {
    page(status: status, title: "Not a valid login callback", text: sentence(Sanitize.html(reason)), product: product)
  }

  /// `text` ending as a finished sentence: a period added unless it ends with `.`, `!` or `?`.
  static func sentence(_ text: String) -> String {
    let trimmed = text.trimmingASCIIWhitespace()
    guard let last = trimmed.last else { return trimmed }
    return ".!?".contains(last) ? trimmed : trimmed + "."
  }

  /// The headers every page carries: no referrer, no caching, no framing, no sniffing, nothing loaded.
  static var standardHeaders: HTTPHeaders {
    HTTPHeaders([
      ("Content-Type", "text/html; charset=utf-8"),
      ("Cache-Control", "no-store"),
      ("Referrer-Policy", "no-referrer"),
      ("Content-Security-Policy", "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
      ("X-Content-Type-Options", "nosniff"),
      ("X-Frame-Options", "DENY"),
      ("Connection", "close"),
    ])
  }

  private static func page(status: Int, title: String, text: String, product: String?) -> ResultPage {
    let named = product.map { "\(Sanitize.html($0)): \(title)" } ?? title
    let html = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">\
      <title>\(named)</title></head>
      <body><h1>\(title)</h1><p>\(text)</p></body></html>

      """
    return ResultPage(status: status, headers: standardHeaders, body: Array(html.utf8))
  }
}

extension ResultPage {
  /// This page as the listener's answer; `finish` ends the serving loop once it is sent.
  package func reply(finish: Bool) -> LoopbackReply {
    LoopbackReply(status: status, headers: headers, body: body, finish: finish)
  }
}
