/// An OAuth error a token endpoint answered with (`error`, `error_description`, `error_uri`).
///
/// Values are as received; ``TokenError`` sanitizes them before they reach a message.
/// `interval` is the new polling interval a device-flow `slow_down` may carry.
package struct OAuthErrorBody: Sendable, Equatable {
  package var code: String
  package var description: String?
  package var uri: String?
  package var interval: Int?

  package init(code: String, description: String? = nil, uri: String? = nil, interval: Int? = nil) {
    self.code = code
    self.description = description
    self.uri = uri
    self.interval = interval
  }
}

/// A token request that did not give a usable token (R27–R31).
///
/// Messages never contain a token, code, verifier or secret, nor a response body;
/// text from the server (error code, description, content type) is sanitized.
/// Exit statuses: `incorrect_client_credentials` and `device_flow_disabled` are
/// configuration errors (2); `bad_refresh_token` means the stored login is dead (4);
/// everything else is a failure (1).
package struct TokenError: ConfigSettingError, EndpointAnswerError, HostScopedError, Equatable {
  /// What went wrong.
  package enum Kind: HostErrorKind {
    /// The body had an `error` member, whatever the HTTP status (R27).
    case oauth(OAuthErrorBody)
    /// A status other than 2xx and no `error` member.
    case httpStatus(Int)
    /// A 3xx; token requests never follow redirects (R75).
    case redirect(Int)
    /// A `Content-Type` that is neither JSON nor form data (R28), or none.
    case unsupportedContentType(String?)
    /// The body did not decode; the reason never quotes the body.
    case malformed(String)
    /// A required member is absent.
    case missingField(String)
    /// `token_type` is not `bearer` (R29).
    case unsupportedTokenType(String)
    /// A member has a value ghlogin must not use (R30), e.g. a token with whitespace.
    case invalidValue(field: String)

    /// The OAuth `error` code, when the server sent one.
    package var oauthCode: String? {
      if case .oauth(let body) = self { return body.code }
      return nil
    }

    package var exitStatus: ExitStatus { oauthCode == "bad_refresh_token" ? .notLoggedIn : .failure }

    package var errorKind: ErrorKind { oauthCode.map(TokenError.errorKind(ofOAuthCode:)) ?? .network }
  }

  package var kind: Kind
  /// The host the token was for.
  package var host: GitHubHost
  /// The token endpoint that answered.
  package var endpoint: WebURL
  /// The request this answered ("token exchange at token_url …"), once the caller named it.
  package var step: EndpointStep?

  package init(_ kind: Kind, host: GitHubHost, endpoint: WebURL, step: EndpointStep? = nil) {
    self.kind = kind
    self.host = host
    self.endpoint = endpoint
    self.step = step
  }

  /// `client_id` and `client_secret` when the server rejected them; the reporting layer names the file.
  package var configKeys: [String] {
    oauthCode == "incorrect_client_credentials" ? ["client_id", "client_secret"] : []
  }

  /// The OAuth `error` code, when the server sent one (the device flow polls on these).
  package var oauthCode: String? { kind.oauthCode }

  /// The kind of an OAuth error `code` from a token or device-code endpoint.
  package static func errorKind(ofOAuthCode code: String) -> ErrorKind {
    switch code {
    case "bad_refresh_token": .tokenRejected
    case "access_denied": .denied
    case "expired_token", "token_expired": .timedOut
    case "incorrect_client_credentials", "redirect_uri_mismatch", "unverified_user_email", "device_flow_disabled",
      "invalid_client", "unauthorized_client", "invalid_scope":
      .configuration
    default: .network
    }
  }

  package func message(configFile: String?, remedies: Remedies) -> String {
    switch kind {
    case .oauth(let body): return Self.message(for: body, host: host, configFile: configFile, remedies: remedies)
    case .httpStatus(let status) where status >= 500:
      if let step { return "\(step.text(remedies)): \(host) answered HTTP \(status); try again later" }
      return "\(host) answered HTTP \(status) from \(endpoint); try again later"
    case .httpStatus(let status):
      return "\(subject(remedies)) answered HTTP \(status); check the host and \(remedies.name(.tokenURL)) settings"
    case .redirect(let status):
      return
        "\(subject(remedies)) answered with a redirect (HTTP \(status)), which \(remedies.program ?? "the library") never follows "
        + "for token requests; check the host and \(remedies.name(.tokenURL)) settings"
    case .unsupportedContentType(let type):
      let shown = type.map { "'\(Sanitize.terminal($0, maxCharacters: 80))'" } ?? "no content type"
      return "\(subject(remedies)) answered with \(shown); expected JSON or form data. "
        + "Check the host and \(remedies.name(.tokenURL)) settings"
    case .malformed(let reason):
      return "\(subject(remedies)) sent an answer that could not be read (\(reason)); nothing was stored"
    case .missingField(let name):
      return "\(subject(remedies)) answered without \(name); nothing was stored"
    case .unsupportedTokenType(let type):
      return "the token endpoint issued a token of type '\(Sanitize.terminal(type, maxCharacters: 40))'; "
        + "\(remedies.program ?? "the library") can only use bearer tokens. Nothing was stored"
    case .invalidValue(let field):
      return "the token endpoint answered with an unusable \(field) (empty, too long, or not an RFC 6750 "
        + "token: only letters, digits, '-._~+/' and trailing '=' are allowed); nothing was stored"
    }
  }

  /// Who answered, as the messages about an unusable answer start: the step when known
  /// ("token exchange at token_url https://…: the server"), else the endpoint.
  private func subject(_ remedies: Remedies) -> String {
    if let step { return "\(step.text(remedies)): the server" }
    return "the token endpoint \(endpoint)"
  }

  /// The guidance for each OAuth error code GitHub documents (R31).
  private static func message(
    for body: OAuthErrorBody, host: GitHubHost, configFile: String?, remedies: Remedies
  ) -> String {
    let retry = remedies.retry(host: host.name)
    let config = shown(configFile)
    switch body.code {
    case "bad_verification_code":
      return
        "the authorization code was rejected by \(host) (incorrect or expired); \(retry)"
    case "incorrect_client_credentials":
      return
        "\(host) rejected the \(remedies.name(.clientID)) and/or \(remedies.name(.clientSecret)); check \(remedies.name(.clientID)) and "
        + "\(remedies.name(.clientSecret)) in \(config) "
        + "(see the README)"
    case "redirect_uri_mismatch":
      return "\(host) rejected the redirect URI; the OAuth app's callback URL must be http://127.0.0.1/callback "
        + "(any port is allowed on loopback). Fix the app's settings, then \(retry)"
    case "unverified_user_email":
      return "\(host) requires a verified primary email address on your account; verify it at "
        + "https://\(host)/settings/emails, then \(retry)"
    case "bad_refresh_token":
      return "the refresh token for \(host) was rejected (expired, revoked or already used); "
        + (remedies.namesCommands
          ? "run '\(remedies.logInCommand(host: host.name) ?? "")' to log in again" : remedies.logIn(host: host.name))
    case "access_denied":
      return "the login to \(host) was denied; \(retry) to retry"
    case "expired_token", "token_expired":
      return
        "the device code for \(host) expired before the login was approved; \(retry)"
    case "device_flow_disabled":
      return "the device flow is not enabled for this app on \(host); enable it in the app's settings, "
        + "or log in with the browser"
    case "incorrect_device_code":
      return "\(host) did not recognise the device code; \(retry)"
    default:
      var text = "\(host) refused the token request: error '\(Sanitize.terminal(body.code, maxCharacters: 80))'"
      if let description = body.description, !description.isEmpty {
        text += ": " + Sanitize.terminal(description)
      }
      return text
    }
  }
}
