import GHLoginCore

/// Why a ``GitHubLogin`` call failed, in a form a program can branch on and a person can act on.
///
/// ``message`` says what went wrong and what to do next (it never contains a token, refresh
/// token, client secret, code or PKCE verifier), and ``exitStatus`` is the status `ghlogin`
/// itself exits with for the same failure, so a command-line tool can follow the same contract.
public struct GitHubLoginError: Error, Sendable, CustomStringConvertible {
  /// The broad cause, for deciding what to do next.
  public enum Kind: Sendable, Hashable {
    /// No login is stored for the host or account: log in (``GitHubLogin/login(_:events:)``).
    case notLoggedIn
    /// GitHub rejected the stored token or refresh token (revoked or expired): log in again.
    case tokenRejected
    /// The configuration or the input is incomplete or wrong (no client ID, a bad URL or host, an
    /// ambiguous host, an unusable pasted token): change it and try again.
    case configuration
    /// The person denied the login in the browser or on the device page, the app is not allowed
    /// to log in, or GitHub refused the request (HTTP 403 that is not a rate limit, SSO required).
    case denied
    /// GitHub logged in another account than the one asked for.
    case wrongAccount
    /// Nobody finished the login before its deadline.
    case timedOut
    /// The call was cancelled (task cancellation, or Ctrl-C in a command-line tool).
    case cancelled
    /// The credentials file or its directory cannot be read or written safely, or a new login
    /// could not be stored there (its token was revoked where possible).
    case store
    /// The keyring (Secret Service) is unavailable, locked or failed, or a new login could not
    /// be stored in it.
    case keyring
    /// A program or facility of this machine failed: the browser or `git` could not be run, the
    /// random number generator failed, a loopback port could not be opened, or an unexpected error.
    case system
    /// The network, TLS or the server failed; trying again later may work.
    case network
  }

  /// The broad cause.
  public let kind: Kind
  /// What went wrong and what to do next, for a person.
  public let message: String
  /// The status `ghlogin` exits with for this failure (0 is never used).
  public let exitStatus: ExitStatus
  /// The error the kit threw, for the command line's own reporting.
  let underlying: any Error

  /// The message.
  public var description: String { message }

  /// Wraps any error the kit throws, its remedies naming `remedies`' commands (by default none:
  /// a tool's users may not have ghlogin).
  init(_ error: any Error, remedies: Remedies = .tool(loginCommand: nil)) {
    if let error = error as? GitHubLoginError {
      self = error
      return
    }
    underlying = error
    if let reportable = error as? any ReportableError {
      message = reportable.message(remedies)
      exitStatus = reportable.exitStatus
    } else if error is CancellationError {
      message = "cancelled; nothing was stored"
      exitStatus = .interrupted
    } else {
      message = "\(error)"
      exitStatus = .failure
    }
    kind = Kind(Self.errorKind(of: error))
  }

  /// The kind `error` declares (``ReportableError/errorKind``); never guessed from its exit status.
  static func errorKind(of error: any Error) -> ErrorKind {
    switch error {
    case let reportable as any ReportableError: reportable.errorKind
    case is CancellationError: .cancelled
    default: .system
    }
  }
}

extension GitHubLoginError.Kind {
  /// The public twin of `kind`, case for case.
  init(_ kind: ErrorKind) {
    switch kind {
    case .notLoggedIn: self = .notLoggedIn
    case .tokenRejected: self = .tokenRejected
    case .configuration: self = .configuration
    case .denied: self = .denied
    case .wrongAccount: self = .wrongAccount
    case .timedOut: self = .timedOut
    case .cancelled: self = .cancelled
    case .store: self = .store
    case .keyring: self = .keyring
    case .system: self = .system
    case .network: self = .network
    }
  }
}

extension ExitStatus {
  /// The status `ghlogin` exits with for `error`: a ``GitHubLoginError``'s own status,
  /// ``interrupted`` for `CancellationError`, ``failure`` for anything else.
  public init(for error: any Error) {
    switch error {
    case let error as GitHubLoginError: self = error.exitStatus
    case is CancellationError: self = .interrupted
    default: self = GitHubLoginError(error).exitStatus
    }
  }
}
