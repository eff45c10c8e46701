/// The tokens of narrowed records of logins kept in the keyring (issue 34 §1): one item per
/// record, ``NarrowedSecretItem``'s attributes (`kind=narrowed-token`, `narrowing`, `record`).
/// Read, written and deleted as a login's items are (R101): the default collection only, every
/// attribute matched, two matching items ``KeyringError/ambiguousNarrowed(_:count:)``
/// rather than a choice, a delete only of an item holding the token ghlogin read.
extension SecretServiceStore {
  package var keepsNarrowedTokens: Bool { true }

  package func readNarrowed(_ item: NarrowedSecretItem) throws(KeyringError) -> String? {
    try lookup(attributes: item.orderedAttributes, absent: nil, naming: describe(item)) {
      .ambiguousNarrowed(item, count: $0)
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
