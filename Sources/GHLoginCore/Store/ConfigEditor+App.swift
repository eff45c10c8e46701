extension ConfigEditor {
  /// Writes an OAuth app's `client_id` and `client_secret` (nil: none, a public client; any
  /// secret there was is removed, since it belonged to another ID) to `file`: at the top level,
  /// or in the `hosts.HOST` block with `host`. Through the same read, edit and checked atomic
  /// save as `ghlogin config set`, under the config's lock (R99; mode 0600); throws ``ConfigError`` or ``StoreError`` with
  /// nothing written.
  package static func saveApp(clientID: String, clientSecret: String?, host: String?, to file: String) throws {
    try edit(file: file) { editor in
      editor.set("client_id", to: .string(clientID), host: host)
      editor.set("client_secret", to: clientSecret.map(JSONValue.string), host: host)
      return true
    }
  }

  /// What is wrong with a typed client ID or secret, or nil when nothing the login itself would
  /// not find out: it must be non-empty printable ASCII without spaces.
  package static func appCredentialProblem(_ text: String) -> String? {
    if text.isEmpty { return "it is empty" }
    if text.utf8.contains(0x20) || text.utf8.contains(0x09) { return "it contains a space" }
    guard text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      return "it contains characters that are not printable ASCII"
    }
    return nil
  }
}
