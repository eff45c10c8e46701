/// The host a login is for when the config overrides the top-level endpoints but names no
/// `host` (R87): never github.com by default when the endpoints say otherwise.
///
/// The host is the `host[:port]` that `authorize_url` and `token_url` (and `device_code_url`,
/// when given) share; `api_url` (and `revocation_url`) may be on that host or on `api.` that host. An
/// endpoint left out counts as github.com's. When they do not agree, the config must say
/// which server the login is for with `"host"` (exit 2).
package enum EndpointHost {
  /// The shared host, its failure, or nil when `settings` overrides no endpoint.
  package static func derive(_ settings: HostSettings, file: String) -> Result<String, ConfigError>? {
    guard
      settings.authorizeURL != nil || settings.tokenURL != nil || settings.deviceCodeURL != nil
        || settings.apiURL != nil || settings.revocationURL != nil
    else { return nil }
    // The common case, endpoints that agree, builds no list and no default endpoints unless
    // one is left out (every `token` with a config of endpoints comes through here).
    let authorize = settings.authorizeURL ?? GitHubHost.gitHubDotCom.defaultEndpoints.authorize
    let token = settings.tokenURL ?? GitHubHost.gitHubDotCom.defaultEndpoints.token
    let host = authorize.authority
    let api = settings.apiURL
    let revocation = settings.revocationURL
    let fits = { (url: WebURL?) in url.map { $0.authority == host || $0.authority == "api." + host } ?? true }
    guard token.authority == host, settings.deviceCodeURL.map({ $0.authority == host }) ?? true, fits(api),
      fits(revocation), ConfigDecoder.normalizedHost(host) != nil
    else {
      var list = [
        EndpointAuthority(.authorizeURL, authorize.authority, isDefault: settings.authorizeURL == nil),
        EndpointAuthority(.tokenURL, token.authority, isDefault: settings.tokenURL == nil),
      ]
      let given: [(Setting, WebURL?)] = [
        (.deviceCodeURL, settings.deviceCodeURL), (.apiURL, api), (.revocationURL, revocation),
      ]
      list += given.compactMap { setting, url in url.map { EndpointAuthority(setting, $0.authority) } }
      return .failure(.ambiguousHost(file: file, endpoints: list))
    }
    return .success(host)
  }
}

/// One endpoint that ``ConfigError/ambiguousHost(file:endpoints:)`` lists: the setting, the
/// `host[:port]` its URL names, and whether the config left it out (github.com's default).
package struct EndpointAuthority: Sendable, Equatable {
  package var setting: Setting
  package var authority: String
  package var isDefault: Bool

  package init(_ setting: Setting, _ authority: String, isDefault: Bool = false) {
    self.setting = setting
    self.authority = authority
    self.isDefault = isDefault
  }

  /// `endpoints` as a message lists them, each setting named as `remedies` names it:
  /// "authorize_url a.test, token_url github.com (github.com's default)".
  package static func list(_ endpoints: [EndpointAuthority], _ remedies: Remedies) -> String {
    endpoints.map { "\(remedies.name($0.setting)) \($0.authority)\($0.isDefault ? " (github.com's default)" : "")" }
      .joined(separator: ", ")
  }
}
