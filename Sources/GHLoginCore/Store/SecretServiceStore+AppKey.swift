import CSecretService

/// A GitHub App's private key in the Secret Service (`app key import`, issue 34 §1, R114): one
/// item per app, with the attributes `application` (`ghlogin`), `kind` (`app-key`) and `app`
/// (the client ID or app ID given). Logins' items never carry `app`, so neither kind is ever
/// matched for the other; `migrate` moves only logins' items, never these.
extension SecretServiceStore {
  /// The store app keys are read from and written to (the same Secret Service as logins').
  package static var forAppKeys: SecretServiceStore { SecretServiceStore() }

  /// The item kind of an app's private key.
  static let appKeyKind = "app-key"

  static func appKeyAttributes(app: String) -> [(String, String)] {
    [("application", ProductNames.keyringApplication), ("kind", appKeyKind), ("app", app)]
  }

  /// Creates or replaces the private key item of `app` with `key`.
  package func writeAppKey(_ key: PrivateKeyBytes, app: String) throws(KeyringError) {
    let label = "\(ProductNames.keyringLabelPrefix)private key of the GitHub App \(app)"
    let outcome = key.withCString { secret in
      Self.call(Self.appKeyAttributes(app: app)) { names, values, count, message, size in
        ghl_secret_store(names, values, count, label, secret, message, size)
      }
    }
    if case .failure(let code, let reason) = outcome {
      throw Self.error(code, reason, operation: "store the private key of the app \(app)")
    }
  }

  /// The private key of `app`; nil when the keyring holds none. The C copy is wiped by
  /// `ghl_secret_free`, the bytes copied out are taken by ``PrivateKeyBytes`` (and zeroed).
  package func readAppKey(app: String) throws(KeyringError) -> PrivateKeyBytes? {
    var secret: UnsafeMutablePointer<CChar>?
    let outcome = Self.call(Self.appKeyAttributes(app: app)) { names, values, count, message, size in
      ghl_secret_lookup(names, values, count, nil, &secret, message, size)
    }
    defer { ghl_secret_free(secret) }
    switch outcome {
    case .success:
      guard let secret else { return nil }
      var length = 0
      while secret[length] != 0 { length += 1 }
      var bytes = [UInt8](UnsafeRawBufferPointer(start: secret, count: length))
      return PrivateKeyBytes(taking: &bytes)
    case .failure(GHL_SECRET_NOT_FOUND, _): return nil
    case .failure(GHL_SECRET_AMBIGUOUS, let count):
      throw .failed(
        operation: "read the private key of the app \(app)",
        reason: "\(count) items match; remove all but one with secret-tool")
    case .failure(let code, let reason):
      throw Self.error(code, reason, operation: "read the private key of the app \(app)")
    }
  }
}
