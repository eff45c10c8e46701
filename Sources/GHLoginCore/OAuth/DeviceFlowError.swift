/// A device-flow login (RFC 8628) that ended without a token (R36–R38).
///
/// Other ways it can end are reported by the errors they already have: ``TokenError`` for a
/// terminal poll answer such as `incorrect_client_credentials`, `unsupported_grant_type`,
/// `incorrect_device_code`, an unknown code, a 5xx or an unreadable body; ``LoginError`` for
/// Ctrl-C (exit 130) and for another account than `--user`. Messages never contain the device
/// code; server text in them is sanitized.
package typealias DeviceFlowError = HostError<DeviceFlowFailure>

/// How a device-flow login ended without a token (``DeviceFlowError``).
package enum DeviceFlowFailure: HostErrorMessage {
  /// `/login/device/code` answered 401/403/404/422, a redirect, or a 2xx that is not a device
  /// code (no `verification_uri`, say): the host has no device flow for this app (R37).
  /// `reason` is fixed text written here, with sanitized server values.
  case unavailable(reason: String)
  /// `device_flow_disabled`: the OAuth app does not have "Enable Device Flow" ticked.
  case disabled
  /// `/login/device/code` answered with another OAuth error (sanitized when shown).
  case refused(OAuthErrorBody)
  /// The device-code answer has a `verification_uri` but an unusable other member.
  case invalidAnswer(reason: String)
  /// `expired_token`, `token_expired`, or `expires_in` ran out (R36).
  case expired
  /// `access_denied`: the user cancelled on the verification page (R36).
  case denied
  /// The server answered `slow_down` this many times in a row although every wait was kept (R38).
  case clockDrift(slowDowns: Int)

  /// Always 1: the app's settings or the server, not the command line, must change.
  package var exitStatus: ExitStatus { .failure }

  package var errorKind: ErrorKind {
    switch self {
    case .denied: .denied
    case .expired: .timedOut
    case .disabled: .configuration
    case .refused(let body): TokenError.errorKind(ofOAuthCode: body.code)
    case .unavailable, .invalidAnswer, .clockDrift: .network
    }
  }

  package func message(host: GitHubHost, _ remedies: Remedies) -> String {
    let web = remedies.command(.logIn(host: nil, way: .browser)).map { " ('\($0)')" } ?? ""
    let again =
      remedies.namesCommands
      ? remedies.logIn(host: host.name, way: .device) + " again" : remedies.retry(host: host.name)
    let client = remedies.program ?? "the client"
    switch self {
    case .unavailable(let reason):
      return "the device flow is not available on \(host) (\(reason)); log in with the browser instead\(web), "
        + "or check \(remedies.name(.deviceCodeURL)) in the config"
    case .disabled:
      return "the OAuth app does not allow the device flow on \(host): tick \"Enable Device Flow\" in the app's "
        + "settings (https://\(host)/settings/developers), or log in with the browser\(web)"
    case .refused(let body):
      var text = "\(host) refused the device-code request: error '\(Sanitize.terminal(body.code, maxCharacters: 80))'"
      if let description = body.description, !description.isEmpty { text += ": " + Sanitize.terminal(description) }
      return text
    case .invalidAnswer(let reason):
      return "\(host) answered the device-code request with \(reason); nothing was stored"
    case .expired:
      return "the code expired; \(again)"
    case .denied:
      return "the login to \(host) was denied (access_denied); nothing was stored. "
        + Remedies.sentence(again) + " to retry"
    case .clockDrift(let count):
      return
        "\(host) asked to slow down \(count) times in a row although \(client) waited as told; the system "
        + "clock is probably drifting (common in WSL and virtual machines: resync it, for example with "
        + "'sudo hwclock -s' or 'wsl --shutdown'), then \(again)"
    }
  }
}
