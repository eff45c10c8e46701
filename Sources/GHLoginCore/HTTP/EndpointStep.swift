/// One request of a login or a token's life, as messages name it: the step, the setting of its
/// URL, and the URL ("token exchange at token_url https://…" on the command line, "… at tokenURL
/// https://…" in a tool).
package struct EndpointStep: Sendable, Equatable, CustomStringConvertible {
  package var name: String
  package var setting: Setting
  package var url: WebURL

  package init(_ name: String, setting: Setting, url: WebURL) {
    self.name = name
    self.setting = setting
    self.url = url
  }

  /// The step with its setting in Core's own voice (``Remedies/words``: by config key).
  package var description: String { text(.words) }

  /// The step with its setting named as `remedies` names it.
  package func text(_ remedies: Remedies) -> String { "\(name) at \(remedies.name(setting)) \(url)" }

  /// Runs `body`; a network failure (see ``EndpointRequestError/isNetworkFailure(_:)``) comes
  /// out as an ``EndpointRequestError`` naming this step, and a server's unusable answer
  /// (an ``EndpointAnswerError`` without a step) gets this step. Other errors pass as they are.
  package func run<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as HTTPError where EndpointRequestError.isNetworkFailure(error) {
      throw EndpointRequestError(step: name, setting: setting, url: url, underlying: error)
    } catch var error as any EndpointAnswerError {
      if error.step == nil { error.step = self }
      throw error
    }
  }
}

/// An error about what a server answered (an HTTP status, a body that is not JSON) that names
/// the ``EndpointStep`` it happened in, once one is known.
package protocol EndpointAnswerError: ReportableError {
  var step: EndpointStep? { get set }
}

/// A network failure of one step of a login, with what to check: the step, the setting of its URL
/// and the URL ("token exchange at token_url https://…: could not connect to …"), the setting
/// named in the voice of the message (``message(_:)``).
package struct EndpointRequestError: ReportableError, Equatable {
  package var step: String
  package var setting: Setting
  package var url: WebURL
  package var underlying: HTTPError
  /// Whether a config layer set ``setting`` (the URL is not one ghlogin derived): only then does
  /// the message name it, as a setting to check. Otherwise the network is what to check.
  package var keyIsSet = true

  package init(step: String, setting: Setting, url: WebURL, underlying: HTTPError, keyIsSet: Bool = true) {
    self.step = step
    self.setting = setting
    self.url = url
    self.underlying = underlying
    self.keyIsSet = keyIsSet
  }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    guard keyIsSet else { return "\(step) at \(url): \(underlying.message); check your network connection" }
    return "\(EndpointStep(step, setting: setting, url: url).text(remedies)): \(underlying.message)"
  }
  package var exitStatus: ExitStatus { underlying.exitStatus }
  package var errorKind: ErrorKind { underlying.errorKind }

  /// Runs `body` as ``EndpointStep/run(_:)`` of the step named `step`, `setting`, `url`.
  package static func naming<T>(step: String, setting: Setting, url: WebURL, _ body: () throws -> T) throws -> T {
    try EndpointStep(step, setting: setting, url: url).run(body)
  }

  /// Whether `error` happened on the way to or from the endpoint (resolving, connecting, TLS,
  /// a timeout, a broken answer, the proxy), as opposed to a local setting that stopped the
  /// request before it left (trust files, the proxy variables, plain http) or an interrupt.
  static func isNetworkFailure(_ error: HTTPError) -> Bool {
    switch error {
    case .resolve, .connect, .timedOut, .tls, .io, .badResponse, .proxyAuthenticationRequired, .proxyRefused: true
    default: false
    }
  }
}
