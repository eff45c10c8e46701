import CSecretService

/// The Secret Service (`org.freedesktop.secrets`: gnome-keyring, KeePassXC, KWallet 6) through
/// libsecret, which `CSecretService` loads with `dlopen` on the first call: a process that
/// never touches the keyring maps no libsecret, GLib or D-Bus code.
///
/// Items go to the default collection, and are read and deleted there only (R101): an item
/// matches when it has all of ``GitHubLoginKeyringItem/attributes`` and not ``GitHubLoginKeyringItem/absentAttribute``
/// (an item written before `client_id` is never a newer one); two that match are
/// ``KeyringError/ambiguous(_:count:)``, never a choice; a delete removes only
/// items holding the secret ghlogin read. An unlock prompt, when the collection is locked, is
/// the service's (libsecret asks it to show one); a dismissed or impossible prompt is
/// ``KeyringError/locked``.
package struct SecretServiceStore: SecretStore {
  /// Every keyring call of this process ends within 5 s; an unlock prompt is asked for only
  /// when `mayPrompt` (a person at a terminal may answer it), and then waited on for 120 s at
  /// most; otherwise a locked collection is ``KeyringError/locked`` at once (issue 29 §5).
  package static func setPolicy(mayPrompt: Bool) {
    ghl_secret_set_policy(5, 120, mayPrompt ? 1 : 0)
  }

  package func read(_ item: SecretItem) throws(KeyringError) -> String? {
    try lookup(attributes: item.orderedAttributes, absent: item.absentAttribute, naming: describe(item)) {
      .ambiguous(item, count: $0)
    }
  }

  /// The secret of the one item with `attributes` (and not `absent`); nil when there is none.
  /// Two or more are `ambiguous(count)`, never a choice (R101); `naming` says which item in an error.
  func lookup(
    attributes: [(String, String)], absent: String?, naming: String, ambiguous: (Int) -> KeyringError
  ) throws(KeyringError) -> String? {
    var secret: UnsafeMutablePointer<CChar>?
    let outcome = Self.call(attributes) { names, values, count, message, size in
      ghl_secret_lookup(names, values, count, absent, &secret, message, size)
    }
    defer { ghl_secret_free(secret) }
    switch outcome {
    case .success:
      guard let secret else { return nil }
      return String(cString: secret)
    case .failure(GHL_SECRET_NOT_FOUND, _): return nil
    case .failure(GHL_SECRET_AMBIGUOUS, let count): throw ambiguous(Int(count) ?? 2)
    case .failure(let code, let reason): throw Self.error(code, reason, operation: "read \(naming)")
    }
  }

  package func checkUsable() throws(KeyringError) {
    var message = [CChar](repeating: 0, count: 512)
    let code = message.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { ghl_secret_check($0, buffer.count) } ?? GHL_SECRET_FAILED
    }
    if case .failure(let code, let reason) = Self.outcome(code, message) {
      throw Self.error(code, reason, operation: "reach its default collection")
    }
  }

  package func write(_ secret: String, to item: SecretItem) throws(KeyringError) {
    try store(secret, attributes: item.orderedAttributes, label: item.label, naming: describe(item))
  }

  package func delete(_ item: SecretItem, holding secret: String) throws(KeyringError) {
    try clear(attributes: item.orderedAttributes, absent: item.absentAttribute, holding: secret, naming: describe(item))
  }

  /// Stores `secret` in the item with `attributes` (replacing one with the same attributes);
  /// `naming` says which item in an error.
  func store(_ secret: String, attributes: [(String, String)], label: String, naming: String) throws(KeyringError) {
    let outcome = Self.call(attributes) { names, values, count, message, size in
      ghl_secret_store(names, values, count, label, secret, message, size)
    }
    if case .failure(let code, let reason) = outcome {
      throw Self.error(code, reason, operation: "store \(naming)")
    }
  }

  /// Deletes the item with `attributes` (and not `absent`) that still holds `secret`; `naming`
  /// says which item in an error.
  func clear(
    attributes: [(String, String)], absent: String?, holding secret: String, naming: String
  ) throws(KeyringError) {
    let outcome = Self.call(attributes) { names, values, count, message, size in
      ghl_secret_clear(names, values, count, absent, secret, message, size)
    }
    if case .failure(let code, let reason) = outcome {
      throw Self.error(code, reason, operation: "delete \(naming)")
    }
  }

  private func describe(_ item: SecretItem) -> String {
    "the \(item.kind == .accessToken ? "token" : "refresh token") of \(item.login) on \(item.host)"
  }

  enum Outcome {
    case success
    case failure(Int32, String)
  }

  /// Runs a `ghl_secret_*` call with `attributes` as two C string arrays and a message buffer.
  static func call(
    _ attributes: [(String, String)],
    _ body: (
      UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>, Int32,
      UnsafeMutablePointer<CChar>, Int
    ) -> Int32
  ) -> Outcome {
    let names = attributes.map { CStringCopy.duplicate($0.0) }
    let values = attributes.map { CStringCopy.duplicate($0.1) }
    defer {
      names.forEach { CStringCopy.free($0) }
      values.forEach { CStringCopy.free($0) }
    }
    let namePointers = names.map { UnsafePointer($0) }
    let valuePointers = values.map { UnsafePointer($0) }
    var message = [CChar](repeating: 0, count: 512)
    let code = namePointers.withUnsafeBufferPointer { namesBuffer in
      valuePointers.withUnsafeBufferPointer { valuesBuffer in
        message.withUnsafeMutableBufferPointer { buffer in
          body(
            namesBuffer.baseAddress!, valuesBuffer.baseAddress!, Int32(attributes.count), buffer.baseAddress!,
            buffer.count)
        }
      }
    }
    return outcome(code, message)
  }

  /// A call's result code and the message it left in `message`.
  static func outcome(_ code: Int32, _ message: [CChar]) -> Outcome {
    guard code != GHL_SECRET_OK else { return .success }
    let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return .failure(code, reason)
  }

  static func error(_ code: Int32, _ reason: String, operation: String) -> KeyringError {
    switch code {
    case GHL_SECRET_UNAVAILABLE: .unavailable(reason: reason)
    case GHL_SECRET_NO_LIBRARY: .noLibrary(reason: reason)
    case GHL_SECRET_LOCKED: .locked
    default: .failed(operation: operation, reason: reason)
    }
  }
}
