/// A login the server refused because of its app: GitHub's `incorrect_client_credentials` and
/// `device_flow_disabled`, RFC 6749's `invalid_client` and `unauthorized_client`
/// (django-oauth-toolkit's answers), from the device-code request, a device poll or the code
/// exchange. Exit 2: the configuration, not the network, must change. The message names
/// `client_id`, the layer it came from (the file, `GHLOGIN_CLIENT_ID`, the built-in app) and
/// the fix. A refresh that gets one of these keeps its own error (``TokenError``, exit 4 when
/// the session is dead): only ``Workspace/login(_:remedies:events:warnings:)`` turns them into this.
package struct ClientIDRefused: ReportableError, Equatable {
  /// The OAuth error codes that name the app rather than the person or the network.
  package static let codes: Set<String> = [
    "incorrect_client_credentials", "device_flow_disabled", "invalid_client", "unauthorized_client",
  ]

  package var host: GitHubHost
  /// The OAuth error code the server answered.
  package var code: String
  /// Its `error_description`, if any (sanitised when shown).
  var errorDescription: String?
  package var flow: LoginFlow
  package var clientID: String
  /// Where `client_id` came from; nil for a library caller's own configuration.
  package var source: ConfigSource?
  /// Whether `host` is the config's default host (`config set` needs no `--host` then).
  package var isDefaultHost: Bool

  package init(
    host: GitHubHost, code: String, description: String? = nil, flow: LoginFlow, clientID: String,
    source: ConfigSource?, isDefaultHost: Bool
  ) {
    self.host = host
    self.code = code
    self.errorDescription = description
    self.flow = flow
    self.clientID = clientID
    self.source = source
    self.isDefaultHost = isDefaultHost
  }

  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }
  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    var refusal = "\(host) refused the login's app (error '\(code)'"
    if let errorDescription, !errorDescription.isEmpty {
      refusal += ": " + Sanitize.terminal(errorDescription, maxCharacters: 200)
    }
    refusal += ")"
    let deviceFix =
      "tick \"Enable Device Flow\" on the app's page (https://\(host)/settings/developers), or log in with the browser"
    guard let set = remedies.command(.setConfig(.clientID, host: isDefaultHost ? nil : host.name, value: "ID")),
      let web = remedies.command(.logIn(host: host.name, way: .browser)),
      let variable = remedies.variable(.clientID)
    else {
      let device = flow == .device ? "; for the device flow, \(deviceFix)" : ""
      return refusal + ": check the client ID this tool is configured with\(device)"
    }
    let id = Sanitize.terminal(clientID, maxCharacters: 100)
    let keys = code == "incorrect_client_credentials" ? "client_id \(id) (and its client_secret)" : "client_id \(id)"
    let origin: String
    let fix: String
    switch source?.layer {
    case .environment:
      origin = "from \(variable)"
      fix = "set \(variable) to your app's client ID (or unset it and run '\(set)')"
    case .builtIn:
      origin = "of the app built into \(remedies.program ?? "the program")"
      fix = "use your own app: '\(set)'"
    case .user, .system:
      origin = "from \(Sanitize.terminal(source?.location ?? "", maxCharacters: 200))"
      fix = "set your app's client ID: '\(set)'"
    case nil:
      origin = "from the configuration"
      fix = "set your app's client ID: '\(set)'"
    }
    let device = flow == .device ? "; for the device flow, \(deviceFix): '\(web)'" : ""
    return "\(refusal): \(keys) \(origin); \(fix)\(device)"
  }
}
