/// Where an account's access and refresh tokens are kept: the config's `"store"`, and for
/// each account in `credentials.json` (`"store": "keyring"`; absent means the file).
package enum TokenStorage: String, Sendable, Equatable, CaseIterable {
  /// In `credentials.json` itself (0600); the default.
  case file
  /// In the OS keyring (the Secret Service on Linux); the file keeps everything else.
  case keyring

  /// How `status` and messages name it.
  package var displayName: String {
    switch self {
    case .file: "the credentials file"
    case .keyring: "the keyring (Secret Service)"
    }
  }

  /// Where a new login's tokens are kept, for every way of logging in (the browser and device
  /// flows, `auth --with-token`, the library's login; R97): the config's `store`, except that
  /// an account already kept in the keyring stays there (tokens leave the keyring only through
  /// `ghlogin migrate --to file`, never as a side effect of logging in again).
  static func forNewLogin(configured: TokenStorage, replacing existing: Credential?) -> TokenStorage {
    existing?.storage == .keyring ? .keyring : configured
  }
}
