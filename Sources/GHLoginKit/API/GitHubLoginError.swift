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
    /// The configuration is incomplete or wrong (no client ID, a bad URL, an ambiguous host).
    case configuration
    /// The person denied the login in the browser, or the app is not allowed to log in.
    case denied
    /// GitHub logged in another account than the one asked for.
    case wrongAccount
    /// Nobody finished the login before its deadline.
    case timedOut
    /// The call was cancelled (task cancellation, or Ctrl-C in a command-line tool).
    case cancelled
    /// The credentials file or its directory cannot be read or written safely.
    case store
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

  /// Wraps any error the kit throws.
  init(_ error: any Error) {
    if let error = error as? GitHubLoginError {
      self = error
      return
    }
    underlying = error
    if let reportable = error as? any ReportableError {
      message = reportable.message
      exitStatus = reportable.exitStatus
    } else if error is CancellationError {
      message = "cancelled; nothing was stored"
      exitStatus = .interrupted
    } else {
      message = "\(error)"
      exitStatus = .failure
    }
    kind = Self.kind(of: error, status: exitStatus)
  }

  private static func kind(of error: any Error, status: ExitStatus) -> Kind {
    switch error {
    case is NotLoggedIn: return .notLoggedIn
    case let login as LoginError:
      switch login.kind {
      case .timedOut: return .timedOut
      case .interrupted: return .cancelled
      case .authorizationError: return .denied
      case .userMismatch: return .wrongAccount
      }
    case is StoreError: return .store
    case is CancellationError: return .cancelled
    default: break
    }
    switch status {
    case .notLoggedIn: return .tokenRejected
    case .usage: return .configuration
    case .interrupted: return .cancelled
    default: return .network
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
