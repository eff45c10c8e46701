/// One request of a login or a token's life, as messages name it: the step, the config key that
/// sets its URL, and the URL ("token exchange at token_url https://…").
package struct EndpointStep: Sendable, Equatable, CustomStringConvertible {
  package var name: String
  package var key: String
  package var url: WebURL

  package init(_ name: String, key: String, url: WebURL) {
    self.name = name
    self.key = key
    self.url = url
  }

  package var description: String { "\(name) at \(key) \(url)" }

  /// Runs `body`; a network failure (see ``EndpointRequestError/isNetworkFailure(_:)``) comes
  /// out as an ``EndpointRequestError`` naming this step, and a server's unusable answer
  /// (an ``EndpointAnswerError`` without a step) gets this step. Other errors pass as they are.
  package func run<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as HTTPError where EndpointRequestError.isNetworkFailure(error) {
      throw EndpointRequestError(step: name, key: key, url: url, underlying: error)
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

/// A network failure of one step of a login, with what to check: the step, the config key
/// and the URL ("token exchange at token_url https://…: could not connect to …").
package struct EndpointRequestError: ReportableError, Equatable {
  package var step: String
  package var key: String
  package var url: WebURL
  package var underlying: HTTPError
  /// Whether a config layer set ``key`` (the URL is not one ghlogin derived): only then does the
  /// message name it, as a setting to check. Otherwise the network is what to check.
  package var keyIsSet = true

  package var message: String {
    guard keyIsSet else { return "\(step) at \(url): \(underlying.message); check your network connection" }
    return "\(EndpointStep(step, key: key, url: url)): \(underlying.message)"
  }
  package var exitStatus: ExitStatus { underlying.exitStatus }
  package var errorKind: ErrorKind { underlying.errorKind }

  /// Runs `body` as ``EndpointStep/run(_:)`` of the step named `step`, `key`, `url`.
  package static func naming<T>(step: String, key: String, url: WebURL, _ body: () throws -> T) throws -> T {
    try EndpointStep(step, key: key, url: url).run(body)
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
