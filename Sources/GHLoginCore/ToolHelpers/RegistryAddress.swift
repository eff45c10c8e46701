/// The registry a container tool asks a credential helper about, normalised to the form the
/// mapping table (``RegistryMap``) compares byte for byte (R104).
///
/// The input is a registry host (`ghcr.io`) or sometimes a URL (`https://index.docker.io/v1/`):
/// trimmed and ASCII-lowercased, one `https://` and any path dropped, the rest must be a host
/// as ``GitHubHost/init(validating:)`` accepts one. Anything else is refused; no suffix,
/// substring or Unicode case matching, so no look-alike registry gets a GitHub token.
package enum RegistryAddress {
  /// The most bytes read from standard input (64 KiB).
  package static let maximumInputSize = 64 * 1024

  /// The normalised registry `host[:port]` of `bytes`, or nil when it is not one.
  ///
  /// Concrete arrays, not `some Collection<UInt8>`, here and in the helpers' other matchers
  /// (`GoAuthMatch`, `CredentialHostMatch`): a generic parameter is not specialised across the
  /// module boundary, and resolving its associated types at run time (a mangled-name lookup)
  /// cost `docker-credential get` dearly (bench/RESULTS.md, issue 19).
  package static func normalize(_ bytes: [UInt8]) -> String? {
    guard bytes.count <= maximumInputSize else { return nil }
    let slice = trimmed(bytes)
    // Control, space and non-ASCII bytes anywhere in what is left: refused as a whole.
    guard !slice.isEmpty, slice.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
    var lowered = slice.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }[...]
    let scheme = Array("https://".utf8)
    if lowered.starts(with: scheme) { lowered = lowered.dropFirst(scheme.count) }
    if let slash = lowered.firstIndex(of: UInt8(ascii: "/")) { lowered = lowered[..<slash] }
    // What GitHubHost refuses besides: a second scheme ("://" is gone with the path, so a
    // leftover ':' before it is a bad port), '@', '?', '#', '\'.
    guard let host = try? GitHubHost(validating: String(decoding: lowered, as: UTF8.self)) else { return nil }
    return host.name
  }

  /// The normalised registry of `text`: its UTF-8 bytes given to the byte overload of `normalize`.
  package static func normalize(_ text: String) -> String? { normalize(Array(text.utf8)) }

  /// `bytes` without the ASCII whitespace around it: the server address as the client gave it
  /// (the answer's `ServerURL`).
  package static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    var slice = ArraySlice(bytes)
    while let first = slice.first, isASCIISpace(first) { slice = slice.dropFirst() }
    while let last = slice.last, isASCIISpace(last) { slice = slice.dropLast() }
    return slice
  }

  /// ASCII whitespace as Go's `unicode.IsSpace` sees it among ASCII bytes.
  private static func isASCIISpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }
}
