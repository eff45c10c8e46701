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
      var web: [(key: String, url: WebURL, given: Bool)] = [
        ("authorize_url", authorize, settings.authorizeURL != nil), ("token_url", token, settings.tokenURL != nil),
      ]
      if let deviceCode = settings.deviceCodeURL { web.append(("device_code_url", deviceCode, true)) }
      var list = web.map { "\($0.key) \($0.url.authority)\($0.given ? "" : " (github.com's default)")" }
      if let api { list.append("api_url \(api.authority)") }
      if let revocation { list.append("revocation_url \(revocation.authority)") }
      return .failure(.ambiguousHost(file: file, endpoints: list.joined(separator: ", ")))
    }
    return .success(host)
  }
}
