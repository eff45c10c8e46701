/// Something the configuration makes worth saying that is not a failure, as a value: the caller
/// shows ``text(_:)`` in its own voice (the command line as `ghlogin: warning: TEXT` or
/// `ghlogin: note: TEXT`, the library in `GitHubLogin.warnings`). Core prints none of them.
package enum ConfigNotice: Sendable, Equatable {
  /// A lenient load of `file` left out `keys`, which it does not know.
  case ignoredKeys(file: String, keys: [IgnoredConfigKey])
  /// `GHLOGIN_CLIENT_SECRET` is set without `GHLOGIN_CLIENT_ID`, so it is ignored (R108).
  case loneClientSecret
  /// `file`'s top-level `clientID` is the app of `defaultHost` only, and `host`'s block sets none.
  case movedApp(file: String, defaultHost: String, host: String, clientID: String)
  /// `former`, a credentials file beside a custom `GHLOGIN_CONFIG`, is not used; the logins are
  /// read from `credentialsFile` (in `directory`), where there is none yet.
  case movedCredentials(former: String, credentialsFile: String, directory: String)

  /// Whether it is a warning (something may not work as meant) or a note.
  package var isWarning: Bool {
    if case .movedCredentials = self { return false }
    return true
  }

  /// The text in the voice of `remedies`, without a prefix or a trailing newline.
  package func text(_ remedies: Remedies) -> String {
    switch self {
    case .ignoredKeys(let file, let ignored):
      let keys = ignored.map { key in
        "\"\(key.path)\"" + (key.suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
      }
      let noun = ignored.count == 1 ? "unknown key" : "unknown keys"
      let refusing =
        remedies.command(.logIn(host: nil)).map { "'\($0)', 'setup-git', 'logout' and 'refresh' refuse it" }
        ?? "a login, a refresh and a logout refuse it"
      return "\(file): ignoring \(noun) \(keys.joined(separator: ", ")); fix the file: \(refusing)"
    case .loneClientSecret:
      return "GHLOGIN_CLIENT_SECRET is ignored without GHLOGIN_CLIENT_ID (a secret is only sent "
        + "with the client ID of its own layer); set both variables"
    case .movedApp(let file, let defaultHost, let host, let clientID):
      let id = Sanitize.terminal(clientID)
      let fix =
        remedies.command(.setConfig(.clientID, host: host, value: id)).map { "run '\($0)'" }
        ?? "set \(remedies.name(.clientID)) \(id) for \(host) too"
      return "\(file): the top-level \(remedies.name(.clientID)) is the app of \(defaultHost) only (an OAuth app "
        + "exists on one GitHub host), so \(host) no longer uses it; if the app is \(host)'s too, \(fix)"
    case .movedCredentials(let former, let credentialsFile, let directory):
      return """
        \(former) is not used: credentials now live in your own directory, not beside \
        GHLOGIN_CONFIG (a config may be shared, a token must not be). \(remedies.program ?? "The library") reads \
        and writes \(credentialsFile), where there is none yet. To keep your logins, move the file:
          mkdir -p -m 700 \(ConfigPaths.shellWord(directory)) && mv \(ConfigPaths.shellWord(former)) \
        \(ConfigPaths.shellWord(credentialsFile))
        """
    }
  }
}
