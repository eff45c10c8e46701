/// The tokens of the agent's forwards (issue 35 §2, §3; R116, R117): minted from the stored
/// login for one forward, recorded beside it with consumer `forward` and the id
/// ``AgentIdentity/consumerID(forward:)`` makes (the agent's own id, then the forward's), and
/// revoked when the forward ends, or by the next agent after an unclean end. The one reason this
/// file changes is the rules of a forward's tokens.
extension Workspace {
  /// The account a forward with `selection` answers for, fixed at its creation; unless
  /// `unscoped`, refused as ``NarrowingRefused`` (exit 2) when its token cannot be narrowed.
  package func forwardAccount(
    _ selection: AccountSelection, unscoped: Bool
  ) throws -> (host: GitHubHost, login: String) {
    let (host, credential, _) = try usableCredentialReport(selection)
    if !unscoped { _ = try scopedTokenClient(for: credential, on: host) }
    return (host, credential.login)
  }

  /// What GitHub says of `token` now (R102's check, `GET /user`): `true` rejected, `false`
  /// accepted; nil with the reason when it could not be checked.
  package func isRejected(_ token: String, on host: GitHubHost) -> (rejected: Bool?, reason: String?) {
    do {
      _ = try api(for: host, timeout: Self.rejectionCheckTimeout).user(token: token)
      return (false, nil)
    } catch let error as GitHubAPIError where error.kind == .tokenRejected {
      return (true, nil)
    } catch {
      return (nil, (error as? any ReportableError)?.message ?? "\(error)")
    }
  }

  /// Whether the store still keeps a token of the forward whose records carry `consumerID`
  /// beside its login on `host`: false once `logout` revoked and dropped them (or the login is
  /// gone), so the agent stops handing out the token it holds. An unreadable store counts as
  /// keeping it: the mint that follows reports the store's error.
  package func keepsForwardTokens(consumerID: String, on host: String) -> Bool {
    guard let credentials = try? store.loadFile() else { return true }
    return (credentials.hosts[host]?.accounts ?? []).contains { account in
      account.narrowed.contains { $0.consumer == .forward && $0.consumerID == consumerID }
    }
  }

  /// Ends the forward whose records carry `consumerID`: revokes every token minted through it
  /// and drops the records. Returns how many.
  @discardableResult
  package func endForward(consumerID: String) -> Int {
    dropNarrowed(what: "the tokens of a forward") { $0.consumer == .forward && $0.consumerID == consumerID }
  }

  /// After an unclean end: revokes and drops every forward record whose agent is not running
  /// (``AgentIdentity/isLive(consumerID:)``). Returns how many.
  @discardableResult
  package func sweepDeadForwards() -> Int {
    dropNarrowed(what: "the tokens of an agent that ended") {
      $0.consumer == .forward && !AgentIdentity.isLive(consumerID: $0.consumerID ?? "")
    }
  }
}

/// Which agent minted a forward's token: `PID` `x` the process's start time (field 22 of
/// `/proc/PID/stat`, clock ticks since boot), so that a reused pid is not taken for the agent.
package enum AgentIdentity {
  /// This process's identity.
  package static func current() -> String {
    let pid = SessionProcess.currentID
    return "\(pid)x\(startTime(of: pid) ?? "0")"
  }

  /// The consumer id of the forward `forward` (16 hex digits) of this agent.
  package static func consumerID(agent: String, forward: String) -> String { agent + "-" + forward }

  /// Whether the agent that minted under `consumerID` is still running: its pid exists with the
  /// same start time. An id of another form is not live (its tokens are revoked).
  package static func isLive(consumerID: String) -> Bool {
    guard let agent = consumerID.split(separator: "-").first,
      let separator = agent.firstIndex(of: "x"),
      let pid = Int32(agent[..<separator]), pid > 0
    else { return false }
    return startTime(of: pid) == String(agent[agent.index(after: separator)...])
  }

  /// Field 22 of `/proc/PID/stat` (after the command name's closing parenthesis).
  package static func startTime(of pid: Int32) -> String? {
    guard let bytes = FileSystem.readSmallFile("/proc/\(pid)/stat", limit: 4096),
      let close = bytes.lastIndex(of: UInt8(ascii: ")"))
    else { return nil }
    let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
    // After ")": state is field 3, so field 22 is index 19.
    guard fields.count > 19 else { return nil }
    return String(decoding: fields[19], as: UTF8.self)
  }
}
