/// How ``GitHubLogin/login(_:events:)`` runs.
public struct LoginOptions: Sendable, Hashable {
  /// The host to log in to (default: as ``GitHubLogin/token(host:account:)`` chooses).
  public var host: String?
  /// The flow; nil chooses: the device flow with no display (`DISPLAY`, `WAYLAND_DISPLAY`) or
  /// over SSH where the host's device endpoint is known (a `device_code_url` is configured, or
  /// its endpoints are the host's own), else the browser flow (with paste-back when headless).
  public var flow: LoginFlow?
  /// The scopes to ask for instead of the configured ones.
  public var scopes: [String]?
  /// Fail unless GitHub logs in this account (nothing is stored then).
  public var expectedLogin: String?
  /// Seconds to wait for the person (default 300 for the browser flow; the device code's life,
  /// at most, for the device flow).
  public var timeout: Int?
  /// The port on 127.0.0.1 to listen on in the browser flow; 0 picks a free one.
  public var port: Int
  /// Whether to start the user's browser (`xdg-open` and friends) where a display exists; with
  /// false, only the ``LoginEvent/openAuthorizationPage(url:host:)`` event shows the URL.
  public var opensBrowser: Bool
  /// Browser flow: also accept the address the browser was sent to, pasted on standard input
  /// when that is a terminal (for a browser on another machine).
  public var acceptsPastedRedirect: Bool
  /// Whether to store the new login in the credentials file (making it the host's active
  /// account); with false it is only returned.
  public var storesLogin: Bool

  /// Options for the default host and flow, storing the login.
  public init(
    host: String? = nil, flow: LoginFlow? = nil, scopes: [String]? = nil, expectedLogin: String? = nil,
    timeout: Int? = nil, port: Int = 0, opensBrowser: Bool = true, acceptsPastedRedirect: Bool = false,
    storesLogin: Bool = true
  ) {
    self.host = host
    self.flow = flow
    self.scopes = scopes
    self.expectedLogin = expectedLogin
    self.timeout = timeout
    self.port = port
    self.opensBrowser = opensBrowser
    self.acceptsPastedRedirect = acceptsPastedRedirect
    self.storesLogin = storesLogin
  }

  /// The default of ``timeout`` for the browser flow.
  public static let defaultBrowserTimeout = 300
}

/// A finished login.
public struct LoginOutcome: Sendable, Hashable {
  /// The new token, with the account it belongs to.
  public let token: AccessToken
  /// The flow that ran.
  public let flow: LoginFlow
  /// Whether it was stored in the credentials file.
  public let stored: Bool
  /// Whether it replaced a stored token of the same account (whose revocation is attempted
  /// when a client secret is configured).
  public let replacedPrevious: Bool
}
