import GHLoginCore

/// Errors whose remedies each voice renders (issue 31 §2), shared by the voice tests of Core
/// (`RemediesTests`), the command line (`RemedyVoiceCLITests`) and the library
/// (`RemedyVoiceLibraryTests`).
package enum RemedyCases {
  package static let host = GitHubHost.gitHubDotCom
  package static let url = GitHubHost.gitHubDotCom.defaultEndpoints.token
  package static let enterprise: GitHubHost = {
    guard let host = try? GitHubHost(validating: "ghe.example.com") else { preconditionFailure("a valid host") }
    return host
  }()

  /// Every error whose command-line message names a `ghlogin` command, in each of its forms that does.
  package static let namingCommands: [any ReportableError & Sendable] =
    [
      NotLoggedIn(host: "github.com"),
      NotLoggedIn(host: "ghe.example.com", user: "hubot"),
      MissingClientID(host: "ghe.example.com", configFile: "/config.json"),
      MissingClientID(host: "ghe.example.com", configFile: "/config.json", defaultHostHasApp: true),
      GitHubAPIError(.tokenRejected, host: enterprise, path: "/user"),
      RefreshError(.sessionExpired, host: host),
      RefreshError(.noClientID(configFile: "/config.json"), host: host),
      RefreshError(.otherApp(login: "octocat", issuer: "Iv1.appA", configured: "Iv1.appB"), host: host),
      RefreshError(.accountGone(login: "octocat"), host: host),
      RefreshError(.notSaved(KeyringError.failed(operation: "store the token", reason: "D-Bus error")), host: host),
      RefreshError(.failed(KeyringError.locked), host: host),
      DeviceFlowError(.unavailable(reason: "HTTP 404"), host: host),
      DeviceFlowError(.disabled, host: host),
      DeviceFlowError(.expired, host: host),
      DeviceFlowError(.denied, host: host),
      DeviceFlowError(.clockDrift(slowDowns: 5), host: host),
      KeyringError.locked,
      KeyringError.unavailable(reason: "no D-Bus session"),
      KeyringError.noLibrary(reason: "libsecret-1.so.0: cannot open shared object file"),
      KeyringError.failed(operation: "store the token", reason: "D-Bus error"),
      KeyringError.itemMissing(host: "github.com", login: "octocat", kind: .accessToken),
      KeyringError.invalidItem(host: "github.com", login: "octocat", kind: .refreshToken),
      StoreError.corrupt(path: "/c.json", detail: "not JSON"),
      ConfigError.namedFileMissing(file: "/nowhere/config.json"),
      UnstoredLogin(storeFailure: KeyringError.locked, host: host, revocation: .revoked),
      LoginError(.authorizationError(AuthorizationErrorResponse(error: "access_denied")), host: host),
      LoginError(.authorizationError(AuthorizationErrorResponse(error: "server_error")), host: host),
      LoginError(.userMismatch(expected: "a", actual: "b"), host: host),
      SeveralHosts(hosts: ["a.example", "b.example"]),
    ]
    + [ConfigLayer.builtIn, .system, .user, .environment].map { layer in
      ClientIDRefused(
        host: enterprise, code: "unauthorized_client", flow: .device, clientID: "Iv1.x",
        source: ConfigSource(layer: layer, location: layer == .environment ? "GHLOGIN_CLIENT_ID" : "/config.json"),
        isDefaultHost: false)
    }
    + [
      "bad_verification_code", "redirect_uri_mismatch", "unverified_user_email", "bad_refresh_token",
      "access_denied", "expired_token", "incorrect_device_code",
    ].map { TokenError(.oauth(OAuthErrorBody(code: $0)), host: host, endpoint: url) }

  /// Whether `text` names a `ghlogin` command (quoted, after `&&`, or as an indented line).
  package static func namesAGHLoginCommand(_ text: String) -> Bool {
    text.contains("'ghlogin ") || text.contains("&& ghlogin") || text.contains("  ghlogin config")
  }

  /// A client ID that `enterprise` refused, set in `layer` (nil: a tool's configuration).
  package static func refused(
    _ layer: ConfigLayer?, location: String = "/etc/xdg/ghlogin/config.json", flow: LoginFlow = .browser
  ) -> ClientIDRefused {
    ClientIDRefused(
      host: enterprise, code: "invalid_client", description: "Client authentication failed.", flow: flow,
      clientID: "Iv1.x", source: layer.map { ConfigSource(layer: $0, location: location) }, isDefaultHost: false)
  }

  /// The start of every `refused` message.
  package static let refusedHead =
    "ghe.example.com refused the login's app (error 'invalid_client': Client authentication failed.): "
}
