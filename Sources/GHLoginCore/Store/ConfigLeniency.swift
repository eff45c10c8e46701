/// How `Config.load` treats keys it does not know.
///
/// Commands that change a login (`auth`, `setup-git`, `logout`, `refresh`, `config set`) stay
/// ``strict``: a typo there can change what is stored or where a token goes. The commands that
/// only hand out a token (`token`, `env`, `whoami`, `git-credential`) run ``lenient``, so a typo
/// in the file does not break every `git fetch`; they warn once on stderr instead. A wrong type
/// or a bad URL in a known key is an error either way.
package enum UnknownConfigKeys: Sendable, Equatable {
  /// An unknown key is a configuration error (exit 2).
  case strict
  /// Unknown keys are left out and listed in ``Config/ignoredKeys``.
  case lenient
}

extension ConfigDecoder {
  /// `object` without the keys the config does not know, at the top level and inside each
  /// `hosts` block that is an object, and the paths of the keys left out (escaped for a
  /// terminal), each with the nearest known key when one is close.
  ///
  /// Anything of the wrong shape (`hosts` not an object, a block not an object) is kept, so
  /// the strict decoder still reports it.
  static func removingUnknownKeys(_ object: JSONObject) -> (JSONObject, [IgnoredConfigKey]) {
    // The usual file has no unknown key: return it as it is (this runs on every `token`).
    let blocks = object["hosts"]?.objectValue?.values ?? []
    if object.keys.allSatisfy(topLevelKeys.contains),
      blocks.allSatisfy({ $0.objectValue?.keys.allSatisfy(hostKeys.contains) ?? true })
    {
      return (object, [])
    }
    var ignored: [IgnoredConfigKey] = []
    var result = JSONObject()
    for (key, value) in object.entries {
      guard topLevelKeys.contains(key) else {
        ignored.append(IgnoredConfigKey(path: display(key), suggestion: nearestCandidate(to: key, among: topLevelKeys)))
        continue
      }
      guard key == "hosts", let hosts = value.objectValue else {
        result[key] = value
        continue
      }
      var cleaned = JSONObject()
      for (name, block) in hosts.entries {
        guard let blockObject = block.objectValue else {
          cleaned.append(key: name, value: block)
          continue
        }
        var kept = JSONObject()
        for (blockKey, blockValue) in blockObject.entries {
          // A misplaced `account_rules` is refused even here: ignoring it would pick another account.
          if hostKeys.contains(blockKey) || blockKey == "account_rules" {
            kept.append(key: blockKey, value: blockValue)
          } else {
            ignored.append(
              IgnoredConfigKey(
                path: "hosts." + display(name) + "." + display(blockKey),
                suggestion: nearestCandidate(to: blockKey, among: hostKeys)))
          }
        }
        cleaned.append(key: name, value: .object(kept))
      }
      result[key] = .object(cleaned)
    }
    return (result, ignored)
  }
}

/// A key a lenient load left out of the config.
package struct IgnoredConfigKey: Sendable, Equatable {
  /// The key path as shown in messages (`hosts.ghe.example.com.clinet_id`).
  package var path: String
  /// The nearest known key, when one is close.
  package var suggestion: String?
}

extension Config {
  /// The warnings for the keys a lenient load left out (empty when there are none), one per
  /// file (the system file's first): which keys, the nearest known ones, and that the commands
  /// that change a login refuse them.
  package var ignoredKeysWarnings: [ConfigNotice] {
    // The common case, nothing ignored, builds nothing (it is on `token`'s path: the arrays of
    // tuples below cost generic metadata; bench/RESULTS.md, issue 19).
    if ignoredKeys.isEmpty && (system?.ignoredKeys.isEmpty ?? true) { return [] }
    return [system.map { ($0.file, $0.ignoredKeys) }, (file, ignoredKeys)].compactMap { $0 }.compactMap {
      $0.1.isEmpty ? nil : ConfigNotice.ignoredKeys(file: $0.0, keys: $0.1)
    }
  }
}
