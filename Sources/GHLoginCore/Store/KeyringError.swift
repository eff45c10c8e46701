/// Why the keyring could not be used. Every case exits with status 1, names the store and
/// says the way out: unlock it, or go back to the file with `"store": "file"` and
/// `ghlogin migrate --to file`. Nothing falls back to the file without the user asking.
package enum KeyringError: ReportableError, Equatable, Sendable {
  /// There is no session bus, or no Secret Service on it.
  case unavailable(reason: String)
  /// libsecret itself could not be loaded: not installed (or not a usable library).
  case noLibrary(reason: String)
  /// The collection is locked and was not unlocked (no prompt could be shown, or it was dismissed).
  case locked
  /// The credentials file says an account's token is in the keyring, but the item is not there.
  case itemMissing(host: String, login: String, kind: SecretItem.Kind)
  /// More than one item in the collection ghlogin writes to has all of `item`'s attributes
  /// (R101): ghlogin does not choose, since the other may be anyone's.
  case ambiguous(SecretItem, count: Int)
  /// More than one item has all of a narrowed token's attributes (R101; issue 34 §1): neither
  /// is used (a cached token is minted again) nor deleted.
  case ambiguousNarrowed(NarrowedSecretItem, count: Int)
  /// An item holds something that is not a token (R30: never printed, never sent).
  case invalidItem(host: String, login: String, kind: SecretItem.Kind)
  /// The keyring refused or failed an operation; `operation` reads like "store the token of octocat".
  case failed(operation: String, reason: String)
  /// An item read back after writing did not hold what was written.
  case readBackMismatch(host: String, login: String)
  /// The credentials file was written, but items it no longer points to could not be deleted
  /// (`narrowed`: narrowed tokens' items, issue 34 §1).
  case oldItemsLeft([SecretItem], narrowed: [NarrowedSecretItem] = [], reason: String)

  package var exitStatus: ExitStatus { .failure }
  package var errorKind: ErrorKind { .keyring }

  /// A few words for `status`, next to a login whose token cannot be shown.
  package var summary: String {
    switch self {
    case .unavailable, .noLibrary: "the keyring is not available"
    case .locked: "the keyring is locked"
    case .itemMissing: "missing from the keyring"
    case .ambiguous, .ambiguousNarrowed: "more than one keyring item matches"
    case .invalidItem: "the keyring item is not a valid token"
    case .failed, .readBackMismatch, .oldItemsLeft: "the keyring failed"
    }
  }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    let fileWay =
      remedies.command(.moveTokensToFile).map {
        "To keep tokens out of the keyring instead, set \"store\": \"file\" in the config and run "
          + "'\($0)' once the keyring can be read"
      } ?? "To keep tokens out of the keyring instead, store them in the credentials file"
    func relogin(_ host: String) -> String {
      remedies.namesCommands
        ? "Log in again with '\(remedies.logInCommand(host: host) ?? "")'" : "To use it, " + remedies.logIn(host: host)
    }
    switch self {
    case .unavailable(let reason):
      return "the keyring (Secret Service) is not available: \(Sanitize.terminal(reason)). "
        + "Start a keyring (gnome-keyring, KeePassXC) in your desktop session and try again. \(fileWay). "
        + "Nothing was written"
    case .noLibrary(let reason):
      return "the keyring (Secret Service) is not available: libsecret could not be loaded "
        + "(\(Sanitize.terminal(reason))). Install it (Debian, Ubuntu: 'sudo apt install libsecret-1-0'; "
        + "Fedora: 'sudo dnf install libsecret') and try again. \(fileWay). Nothing was written"
    case .locked:
      return "the keyring (Secret Service) is locked, and the unlock prompt was dismissed or could not be shown. "
        + "Unlock it (log in to your desktop session, or open seahorse) and try again. \(fileWay). Nothing was written"
    case .itemMissing(let host, let login, let kind):
      let what = kind == .accessToken ? "token" : "refresh token"
      return "the \(what) of \(Sanitize.terminal(login)) on \(host) is missing from the keyring (Secret Service). "
        + relogin(host)
        + (remedies.command(.forgetLogin(host: host, user: login)).map {
          ", or forget the login with '\($0)'"
        } ?? "")
    case .ambiguous(let item, let count):
      let what = item.kind == .accessToken ? "token" : "refresh token"
      return "the keyring (Secret Service) holds \(count) items for the \(what) of \(Sanitize.terminal(item.login)) "
        + "on \(item.host) in its default collection, where \(remedies.program ?? "the login") keeps one; it will not choose between them. "
        + "List them with 'secret-tool search --all application \(ProductNames.keyringApplication) host \(item.host) user_id \(item.userID) "
        + "kind \(item.kind.rawValue)\(item.secretToolClientID)', remove the one \(remedies.program ?? "the login") did not write (seahorse shows both) and try again. "
        + "Nothing was written"
    case .ambiguousNarrowed(let item, let count):
      return "the keyring (Secret Service) holds \(count) items for the narrowed token \(item.recordID) of "
        + "\(Sanitize.terminal(item.login)) on \(item.host) in its default collection; it will not choose between "
        + "them. List them with 'secret-tool search --all \(item.secretToolWords)', remove the one "
        + "\(remedies.program ?? "the login") did not write and try again. Nothing was written"
    case .invalidItem(let host, let login, let kind):
      return "the keyring (Secret Service) item for the \(kind == .accessToken ? "token" : "refresh token") of "
        + "\(Sanitize.terminal(login)) on \(host) does not hold a valid token; it was left untouched. "
        + relogin(host)
    case .failed(let operation, let reason):
      return "the keyring (Secret Service) could not \(operation): \(Sanitize.terminal(reason)). "
        + "Try again. \(fileWay). The credentials file was left unchanged"
    case .readBackMismatch(let host, let login):
      return "the keyring (Secret Service) did not return the token just stored for \(Sanitize.terminal(login)) "
        + "on \(host); the credentials file was left unchanged"
    case .oldItemsLeft(let items, let narrowed, let reason):
      let commands = Set(
        items.map {
          "secret-tool clear application \(ProductNames.keyringApplication) host \($0.host) user_id \($0.userID)"
            + $0.secretToolClientID
        } + narrowed.map { "secret-tool clear " + $0.secretToolWords })
      return "the credentials file was updated, but old items could not be removed from the keyring "
        + "(Secret Service): \(reason)\nRemove them by hand: " + commands.sorted().joined(separator: "; ")
    }
  }
}
