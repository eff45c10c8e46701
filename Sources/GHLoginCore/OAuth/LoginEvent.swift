/// Something a login wants the person in front of the screen to see or do.
///
/// A login reports these in order through its `events` closure; ``lines`` gives the text
/// `ghlogin auth` prints for each, which is also the event's `description`.
public enum LoginEvent: Sendable, Hashable, CustomStringConvertible {
  /// Browser flow: open `url` (GitHub's authorize page) to log in to `host`.
  case openAuthorizationPage(url: String, host: String)
  /// Device flow: enter `userCode` on `verificationURL`, on any device, to log in to `host`.
  case enterUserCode(String, verificationURL: String, host: String)
  /// Now waiting, at most `seconds`, for the person to finish in the browser (`flow` is
  /// ``LoginFlow/browser``) or to approve the code (``LoginFlow/device``).
  case waiting(flow: LoginFlow, seconds: Int, browserOpened: Bool)
  /// A hint or a warning, as one line of text.
  case notice(String)
  /// The login is finished: `login` on `host` (stored, when the options said so).
  case loggedIn(host: String, login: String)

  /// The lines `ghlogin auth` prints on stderr for this event.
  public var lines: [String] { lines(emphasizing: { $0 }) }

  /// ``lines`` with the one-time code passed through `emphasize` (bold on a terminal).
  package func lines(emphasizing emphasize: (String) -> String) -> [String] {
    switch self {
    case .openAuthorizationPage(let url, let host):
      return ["Open this URL in your browser to log in to \(host):", url]
    case .enterUserCode(let code, let page, let host):
      return [
        "First copy your one-time code: \(emphasize(code))", page,
        "Open that page on any device, enter the code, and approve the login to \(host).",
      ]
    case .waiting(let flow, let seconds, let opened):
      let start = opened ? "Opened your browser. " : ""
      switch flow {
      case .browser: return ["\(start)Waiting up to \(Self.duration(seconds)) for the browser (Ctrl-C to cancel)..."]
      case .device: return ["\(start)Waiting up to \(Self.duration(seconds)) for the approval (Ctrl-C to cancel)..."]
      }
    case .notice(let line):
      return [line]
    case .loggedIn(let host, let login):
      return ["Logged in to \(host) as \(login)"]
    }
  }

  /// ``lines``, one per line.
  public var description: String { lines.joined(separator: "\n") }

  /// "5 minutes", "1 minute 30 seconds": a wait in words, with plurals.
  static func duration(_ seconds: Int) -> String { DurationText.spoken(Double(seconds)) }
}

/// The two ways to log in.
public enum LoginFlow: Sendable, Hashable {
  /// The authorization-code flow with PKCE and a redirect to a port on 127.0.0.1 (RFC 8252):
  /// the browser must run on this machine.
  case browser
  /// The device authorization grant (RFC 8628): a one-time code entered on any device.
  case device
}
