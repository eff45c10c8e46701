// Fuzz target: the credentials file format (Store/CredentialCoding.swift).
//
// Input: the bytes of a credentials.json. Invariants:
// - whatever `decode` accepts passes `validate` (so it can be written back) and every token
//   and refresh token in it passes `Credential.isAcceptableToken`;
// - round trip: decode(encode(x)) == x, and encode is a fixed point: encode(decode(encode(x)))
//   is byte-for-byte encode(x);
// - encode writes the oldest version that holds the credentials: 4 when an account has narrowed
//   tokens (issue 34 §1), 3 for what needs it (issue 33), 2 when an account has a client ID, else
//   1 (so an older ghlogin keeps reading every file that does not need the key; issue 19 §3);
// - a refusal never quotes a token: its text (key paths, positions) has no token from the file
//   (checked for tokens of 12+ bytes with a digit) and no control characters.

/// Every key and string value in `value` except token values.
func otherStrings(_ value: JSONValue) -> [String] {
  switch value {
  case .string(let text): return [text]
  case .array(let elements): return elements.flatMap(otherStrings)
  case .object(let object):
    return object.entries.flatMap {
      [$0.key] + (["token", "refresh_token"].contains($0.key) ? [] : otherStrings($0.value))
    }
  default: return []
  }
}

/// The token and refresh_token string values anywhere in `value`.
func tokens(_ value: JSONValue) -> [String] {
  switch value {
  case .array(let elements): return elements.flatMap(tokens)
  case .object(let object):
    return object.entries.flatMap { entry -> [String] in
      if ["token", "refresh_token"].contains(entry.key), let text = entry.value.stringValue { return [text] }
      return tokens(entry.value)
    }
  default: return []
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = bytes(data, size)
  let credentials: Credentials
  do {
    credentials = try CredentialCoding.decode(input)
  } catch {
    if case .invalid(let text) = error {
      invariant(isTerminalSafe(text), "unsafe failure text: \(text.debugDescription)")
      if let document = try? JSON.parse(input) {
        let others = otherStrings(document)
        for secret in tokens(document)
        where secret.utf8.count >= 12 && secret.utf8.contains(where: { (0x30...0x39).contains($0) })
          && !others.contains(where: { $0.contains(secret) })
        {
          invariant(!text.contains(secret), "the failure text shows a token")
        }
      }
    }
    return 0
  }
  for entry in credentials.hosts.values {
    // Accounts kept in the keyring have no tokens in the file (empty placeholders until read).
    for account in entry.accounts where account.storage == .file {
      invariant(Credential.isAcceptableToken(account.token), "unacceptable token decoded")
      if let refresh = account.refreshToken { invariant(Credential.isAcceptableToken(refresh), "bad refresh token") }
      for record in account.narrowed {
        invariant(Credential.isAcceptableToken(record.token), "unacceptable narrowed token decoded")
        invariant(record.repositories == record.repositories.sorted(), "narrowed repositories not sorted")
        invariant((record.consumer == .cache) == (record.consumerID == nil), "a consumer id out of place")
      }
    }
    // A keyring login's narrowed records hold no token in the file (each token is its own
    // keyring item, read when used): an empty placeholder, never a token.
    for account in entry.accounts where account.storage == .keyring {
      for record in account.narrowed {
        invariant(record.token.isEmpty, "a keyring login's narrowed token decoded from the file")
        invariant(record.repositories == record.repositories.sorted(), "narrowed repositories not sorted")
        invariant((record.consumer == .cache) == (record.consumerID == nil), "a consumer id out of place")
      }
    }
  }
  do {
    try CredentialCoding.validate(credentials)
  } catch {
    invariant(false, "decoded credentials do not validate: \(error.message)")
  }
  let encoded = CredentialCoding.encode(credentials)
  let decoded: Credentials
  do {
    decoded = try CredentialCoding.decode(encoded)
  } catch {
    invariant(false, "encoded credentials do not decode: \(error)\n\(String(decoding: encoded, as: UTF8.self))")
    return 0
  }
  invariant(decoded == credentials, "round trip changed the credentials")
  let hasClientID = credentials.hosts.values.contains { $0.accounts.contains { $0.clientID != nil } }
  let writtenVersion = (try? JSON.parse(encoded))?.objectValue?["version"]?.intValue
  // The oldest version that holds them (issue 33): 3 for per-app defaults, keyring items that
  // carry client_id, or two logins of one user on one host; else 2 with a client ID; else 1.
  let needsVersion3 = credentials.hosts.values.contains { entry in
    !entry.defaults.isEmpty
      || entry.accounts.contains { $0.storage == .keyring && !$0.keyringItemsPredateClientID }
      || Set(entry.accounts.map(\.userID)).count < entry.accounts.count
  }
  let needsVersion4 = credentials.hosts.values.contains { $0.accounts.contains { !$0.narrowed.isEmpty } }
  invariant(
    writtenVersion == (needsVersion4 ? 4 : needsVersion3 ? 3 : hasClientID ? 2 : 1),
    "written as version \(writtenVersion.map(String.init) ?? "nil")")
  invariant(CredentialCoding.encode(decoded) == encoded, "encode is not a fixed point")
  return 0
}
