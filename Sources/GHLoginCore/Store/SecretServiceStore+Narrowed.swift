import CSecretService

/// The tokens of narrowed records of logins kept in the keyring (issue 34 §1): one item per
/// record, ``NarrowedSecretItem``'s attributes (`kind=narrowed-token`, `narrowing`, `record`).
/// Read, written and deleted as a login's items are (R101): the default collection only, every
/// attribute matched, two matching items ``KeyringError/ambiguousNarrowed(_:count:)``
/// rather than a choice, a delete only of an item holding the token ghlogin read.
extension SecretServiceStore {
  package var keepsNarrowedTokens: Bool { true }

  package func readNarrowed(_ item: NarrowedSecretItem) throws(KeyringError) -> String? {
    var secret: UnsafeMutablePointer<CChar>?
    let outcome = Self.call(item.orderedAttributes) { names, values, count, message, size in
      ghl_secret_lookup(names, values, count, nil, &secret, message, size)
    }
    defer { ghl_secret_free(secret) }
    switch outcome {
    case .success:
      guard let secret else { return nil }
      return String(cString: secret)
    case .failure(GHL_SECRET_NOT_FOUND, _): return nil
    case .failure(GHL_SECRET_AMBIGUOUS, let count):
      throw .ambiguousNarrowed(item, count: Int(count) ?? 2)
    case .failure(let code, let reason): throw Self.error(code, reason, operation: "read \(describe(item))")
    }
  }

  package func writeNarrowed(_ secret: String, to item: NarrowedSecretItem) throws(KeyringError) {
    try store(secret, attributes: item.orderedAttributes, label: item.label, naming: describe(item))
  }

  package func deleteNarrowed(_ item: NarrowedSecretItem, holding secret: String) throws(KeyringError) {
    try clear(attributes: item.orderedAttributes, absent: nil, holding: secret, naming: describe(item))
  }

  private func describe(_ item: NarrowedSecretItem) -> String {
    "the narrowed token \(item.recordID) of \(item.login) on \(item.host)"
  }
}
