/// The exit statuses ghlogin promises to scripts (DESIGN.md, "The contract"), for any
/// command-line tool that wants to follow the same contract (``init(for:)``).
///
/// It lives with the other basic types, below every layer that throws: errors say how they
/// end a process without reaching up to the command line.
public struct ExitStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The number passed to `exit`.
  public let rawValue: Int32
  /// The status `rawValue`.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The command did what it was asked.
  public static let success = ExitStatus(rawValue: 0)
  /// Network, server, denied, timeout, or any other failure.
  public static let failure = ExitStatus(rawValue: 1)
  /// A usage or configuration error: the command line or config file must change.
  public static let usage = ExitStatus(rawValue: 2)
  /// Not logged in, or the token was rejected: run `ghlogin auth`.
  public static let notLoggedIn = ExitStatus(rawValue: 4)
  /// Interrupted by the user (SIGINT).
  public static let interrupted = ExitStatus(rawValue: 130)
  /// Stopped by SIGTERM (128 + 15, as a shell reports a process the signal killed).
  public static let terminated = ExitStatus(rawValue: 143)

  /// The number, as text.
  public var description: String { String(rawValue) }
}

/// An error that carries the text shown to the user and the status to exit with.
///
/// Every error the kit throws conforms, so one function in the CLI maps any error
/// to a message on stderr and an exit status. `message` must never contain a
/// secret (token, refresh token, client secret, code or PKCE verifier).
package protocol ReportableError: Error, CustomStringConvertible {
  /// One or more lines for stderr, without the program's prefix: the message with its remedies
  /// in words (``Remedies/words``); the command line shows ``ReportableError/message(_:)`` in its own voice.
  var message: String { get }
  /// The message with its remedies in the voice of `remedies` (``Remedies``): an error that names
  /// a remedy implements it (and ``ReportableError/message`` as `message(.words)`); for the others it is ``ReportableError/message``.
  func message(_ remedies: Remedies) -> String
  /// The status the process exits with.
  var exitStatus: ExitStatus { get }
  /// The broad cause, declared by each error type (never derived from ``exitStatus``):
  /// ``GitHubLoginError/kind`` is this, one to one.
  var errorKind: ErrorKind { get }
}

/// The broad cause of an error (``ReportableError/errorKind``), for Core's own declarations: the
/// one type is ``GitHubLoginErrorKind`` (`GitHubLoginError.Kind` in the library).
package typealias ErrorKind = GitHubLoginErrorKind

extension ReportableError {
  package var description: String { message }
  package func message(_ remedies: Remedies) -> String { message }
}

/// An error that is not a ``ReportableError`` where one is reported (a store or a transport
/// that threw something else): exit 1, its description as the message, `kind` as its kind.
package struct UnexpectedError: ReportableError {
  package var underlying: any Error
  package var errorKind: ErrorKind

  package init(_ underlying: any Error, kind: ErrorKind) {
    self.underlying = underlying
    self.errorKind = kind
  }

  package var message: String { "\(underlying)" }
  package var exitStatus: ExitStatus { .failure }
}

/// A command line (or a choice of host or account) that cannot be carried out as written: exit 2.
/// In Support/ because `Workspace` (API/) throws it too, not only the command layer.
package struct UsageError: ReportableError, Equatable {
  package var message: String
  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }
  package init(_ message: String) { self.message = message }
}
