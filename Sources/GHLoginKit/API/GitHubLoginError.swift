import GHLoginCore

/// Why a ``GitHubLogin`` call failed, in a form a program can branch on and a person can act on.
///
/// ``message`` says what went wrong and what to do next (it never contains a token, refresh
/// token, client secret, code or PKCE verifier), and ``exitStatus`` is the status `ghlogin`
/// itself exits with for the same failure, so a command-line tool can follow the same contract.
public struct GitHubLoginError: Error, Sendable, CustomStringConvertible {
  /// The broad cause, for deciding what to do next (``GitHubLoginErrorKind``: a struct, so that
  /// a later version can add a kind; a `switch` over it has a `default` case).
  public typealias Kind = GitHubLoginErrorKind

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
    kind = Self.errorKind(of: error)
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
