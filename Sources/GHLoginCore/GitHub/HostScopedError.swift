/// The cases of an error about one host (``HostScopedError``): each case gives the exit status
/// and the kind of the error it is in.
package protocol HostErrorKind: Sendable, Equatable {
  var exitStatus: ExitStatus { get }
  var errorKind: ErrorKind { get }
}

/// An error about one GitHub host whose cases are its ``HostErrorKind``: its exit status and
/// kind are its case's. ``GitHubAPIError`` and ``TokenError`` add what they answered; errors
/// that are a case and a host alone are a ``HostError``.
package protocol HostScopedError: ReportableError {
  associatedtype Kind: HostErrorKind
  var kind: Kind { get }
  var host: GitHubHost { get }
}

extension HostScopedError {
  package var exitStatus: ExitStatus { kind.exitStatus }
  package var errorKind: ErrorKind { kind.errorKind }
}

/// The cases of a ``HostError``, which say all its message says given the host and the voice.
package protocol HostErrorMessage: HostErrorKind {
  /// The message of this case about `host`, its remedies in the voice of `remedies`.
  func message(host: GitHubHost, _ remedies: Remedies) -> String
}

/// An error that is one case about one host, nothing more (``DeviceFlowError``,
/// ``RefreshError``).
package struct HostError<Kind: HostErrorMessage>: HostScopedError, Equatable {
  package var kind: Kind
  package var host: GitHubHost

  package init(_ kind: Kind, host: GitHubHost) {
    self.kind = kind
    self.host = host
  }

  package var message: String { message(.words) }
  package func message(_ remedies: Remedies) -> String { kind.message(host: host, remedies) }
}
