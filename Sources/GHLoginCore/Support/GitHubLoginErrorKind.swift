/// The broad cause of a failure, for deciding what to do next: what each error declares
/// (`ReportableError.errorKind`) and what `GitHubLoginError.Kind` is (a type alias of this one).
///
/// It is a struct with a static member per kind, not an enum, so that a later version can add a
/// kind without breaking a client's `switch`: match the kinds you handle and give the `switch` a
/// `default` case for the rest.
///
/// ```swift
/// switch error.kind {
/// case .notLoggedIn, .tokenRejected: showLogInButton()
/// case .network, .timedOut: retryLater()
/// default: report(error.message)
/// }
/// ```
public struct GitHubLoginErrorKind: Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// The kind's name, as its static member is spelled (`notLoggedIn`).
  public let name: String

  private init(_ name: String) { self.name = name }

  /// The name.
  public var description: String { name }

  /// No login is stored for the host or account: log in (`GitHubLogin.login`).
  public static let notLoggedIn = Self("notLoggedIn")
  /// GitHub rejected the stored token or refresh token (revoked or expired): log in again.
  public static let tokenRejected = Self("tokenRejected")
  /// The configuration or the input is incomplete or wrong (no client ID, a bad URL or host, an
  /// ambiguous host, an unusable pasted token): change it and try again.
  public static let configuration = Self("configuration")
  /// The person denied the login in the browser or on the device page, the app is not allowed
  /// to log in, or GitHub refused the request (HTTP 403 that is not a rate limit, SSO required).
  public static let denied = Self("denied")
  /// GitHub logged in another account than the one asked for.
  public static let wrongAccount = Self("wrongAccount")
  /// Nobody finished the login before its deadline.
  public static let timedOut = Self("timedOut")
  /// The call was cancelled (task cancellation, or Ctrl-C in a command-line tool).
  public static let cancelled = Self("cancelled")
  /// The credentials file or its directory cannot be read or written safely, or a new login
  /// could not be stored there (its token was revoked where possible).
  public static let store = Self("store")
  /// The keyring (Secret Service) is unavailable, locked or failed, or a new login could not
  /// be stored in it.
  public static let keyring = Self("keyring")
  /// A program or facility of this machine failed: the browser or `git` could not be run, the
  /// random number generator failed, a loopback port could not be opened, or an unexpected error.
  public static let system = Self("system")
  /// The network, TLS or the server failed; trying again later may work.
  public static let network = Self("network")

  /// Every kind this version declares (a later version may add more).
  public static let allCases: [GitHubLoginErrorKind] = [
    .notLoggedIn, .tokenRejected, .configuration, .denied, .wrongAccount, .timedOut, .cancelled, .store, .keyring,
    .system, .network,
  ]
}
