/// Polls the token endpoint with a device code until the user approves, or the flow ends
/// (RFC 8628 §3.4, §3.5; R33–R38).
///
/// Every wait is measured on the clock's monotonic scale from the previous answer (the first
/// from the code answer), and is at least the interval (see ``DeviceFlowPacing``), so no poll
/// is ever early. `authorization_pending` keeps polling; `slow_down` slows every later poll,
/// and ``DeviceFlowPacing/maxConsecutiveSlowDowns`` of them in a row stop with a clock-drift
/// hint; a network error backs off and retries; `expired_token`, `token_expired`,
/// `access_denied`, `device_flow_disabled` and every other error stop at once. Nothing is
/// polled after the deadline (`expires_in`). Sleeping watches `stopFD` so Ctrl-C ends it.
struct DeviceFlowPoller: Sendable {
  package var authorization: DeviceAuthorization
  package var app: OAuthApp
  /// The token endpoint; polls go through ``TokenEndpoint/post(_:)``.
  package var endpoint: TokenEndpoint
  package var clock: any TimeSource
  /// Becomes readable on Ctrl-C (the ``Interrupt`` self-pipe).
  package var stopFD: Int32?
  /// Seconds to give up after, when shorter than `expires_in` (`--timeout`).
  var maxWait: Double?

  package init(
    authorization: DeviceAuthorization, app: OAuthApp, endpoint: TokenEndpoint, clock: any TimeSource,
    stopFD: Int32? = nil, maxWait: Double? = nil
  ) {
    self.authorization = authorization
    self.app = app
    self.endpoint = endpoint
    self.clock = clock
    self.stopFD = stopFD
    self.maxWait = maxWait
  }

  /// Polls until a token arrives; `issuedAt` is when the code answer arrived (monotonic).
  ///
  /// `announce` gets a line for each network error retried. Throws ``DeviceFlowError``
  /// (expired, denied, disabled, clock drift), ``LoginError`` `.interrupted` (exit 130),
  /// ``TokenError`` for any other terminal answer, or a network failure that is not transient as an
  /// ``EndpointRequestError`` ("device flow polling at token_url https://…: …").
  package func run(issuedAt: Double, announce: (String) -> Void = { _ in }) throws -> TokenResponse {
    let host = endpoint.host
    var lifetime = Double(authorization.expiresIn)
    if let maxWait { lifetime = min(lifetime, maxWait) }
    let deadline = issuedAt + lifetime
    let params = DeviceFlow.pollParameters(app: app, deviceCode: authorization.deviceCode)
    let step = EndpointStep("device flow polling", setting: .tokenURL, url: endpoint.url)
    var pacing = DeviceFlowPacing(interval: authorization.interval)
    var lastAnswer = issuedAt
    while true {
      let next = lastAnswer + pacing.wait
      if next >= deadline {
        // No poll can come in time: wait out the code's life (Ctrl-C still works), then stop.
        guard clock.sleep(until: deadline, stopFD: stopFD) else { throw LoginError(.interrupted, host: host) }
        throw DeviceFlowError(.expired, host: host)
      }
      guard clock.sleep(until: next, stopFD: stopFD) else { throw LoginError(.interrupted, host: host) }
      do {
        return try endpoint.post(params)
      } catch var error as TokenError {
        lastAnswer = clock.monotonic()
        guard case .oauth(let body) = error.kind else {
          error.step = step
          throw error
        }
        switch body.code {
        case "authorization_pending":
          pacing.pending()
        case "slow_down":
          pacing.slowDown(serverInterval: body.interval)
          if pacing.suggestsClockDrift {
            throw DeviceFlowError(.clockDrift(slowDowns: pacing.consecutiveSlowDowns), host: host)
          }
        case "expired_token", "token_expired": throw DeviceFlowError(.expired, host: host)
        case "access_denied": throw DeviceFlowError(.denied, host: host)
        case "device_flow_disabled": throw DeviceFlowError(.disabled, host: host)
        default: throw error
        }
      } catch HTTPError.interrupted {
        throw LoginError(.interrupted, host: host)
      } catch let error as HTTPError where Self.isTransient(error) {
        lastAnswer = clock.monotonic()
        pacing.networkError()
        var request = EndpointRequestError(step: step.name, setting: step.setting, url: step.url, underlying: error)
        request.keyIsSet = endpoint.urlIsConfigured
        announce(
          "\(request.message); trying again in \(DurationText.wholeSeconds(pacing.wait, rounding: .up)) seconds")
      } catch let error as HTTPError where EndpointRequestError.isNetworkFailure(error) {
        var request = EndpointRequestError(step: step.name, setting: step.setting, url: step.url, underlying: error)
        request.keyIsSet = endpoint.urlIsConfigured
        throw request
      }
    }
  }

  /// Whether a failed poll is worth retrying (R35): no answer, or a cut-off one. TLS, proxy and
  /// request errors are not: they will fail the same way again.
  static func isTransient(_ error: HTTPError) -> Bool {
    switch error {
    case .resolve, .connect, .timedOut, .io: true
    case .badResponse(_, let parse): parse == .truncated || parse == .noResponse
    default: false
    }
  }
}
