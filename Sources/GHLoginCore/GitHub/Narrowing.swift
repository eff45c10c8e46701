/// What a narrowed token may do: some repositories of one owner and, optionally, some
/// permissions (issue 34 §1, §2; R113). Checked before any request: repository names against
/// GitHub's rules, at most ``maximumRepositories``, all of one owner (the request's `target`),
/// and permissions against GitHub's `app-permissions` schema (``AppPermissions``).
package struct Narrowing: Sendable, Equatable {
  /// GitHub's limit on the repositories of one scoped or installation token.
  package static let maximumRepositories = 500

  /// The owner of every repository: the scoped request's `target`.
  package var owner: String
  /// The repository names (without the owner), in the order given, each once.
  package var repositories: [String]
  /// The permissions asked for, by name; empty: the login's own permissions on the repositories.
  package var permissions: [String: String]

  /// Checks `repositories` (`OWNER/NAME` each) and `permissions` (`NAME:LEVEL` each), as given on
  /// the command line once split at commas; throws ``NarrowingError`` (exit 2) naming the value.
  package init(repositories: [String], permissions: [String]) throws(NarrowingError) {
    guard !repositories.isEmpty else { throw NarrowingError.noRepository }
    var owner: String?
    var names: [String] = []
    var seen: Set<String> = []
    for text in repositories {
      let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2 else { throw NarrowingError.notOwnerSlashName(text) }
      guard Self.isOwnerName(parts[0]) else { throw NarrowingError.badOwner(text) }
      guard Self.isRepositoryName(parts[1]) else { throw NarrowingError.badRepository(text) }
      if let owner, owner.lowercased() != parts[0].lowercased() {
        throw NarrowingError.severalOwners(owner, parts[0])
      }
      owner = owner ?? parts[0]
      if seen.insert(parts[1].lowercased()).inserted { names.append(parts[1]) }
    }
    guard names.count <= Self.maximumRepositories else { throw NarrowingError.tooManyRepositories(names.count) }
    self.owner = owner ?? ""
    self.repositories = names
    self.permissions = try Self.levels(permissions)
  }

  /// Checks `permissions` (`NAME:LEVEL` each) against ``AppPermissions``: the levels by name.
  package static func levels(_ permissions: [String]) throws(NarrowingError) -> [String: String] {
    var levels: [String: String] = [:]
    for text in permissions {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw NarrowingError.notNameColonLevel(text) }
      let (name, level) = (parts[0], parts[1])
      guard let allowed = AppPermissions.levels[name] else {
        throw NarrowingError.unknownPermission(
          name, suggestion: nearestCandidate(to: name, among: AppPermissions.names))
      }
      guard allowed.contains(level) else { throw NarrowingError.levelNotAccepted(name, level, allowed: allowed) }
      if let earlier = levels[name], earlier != level { throw NarrowingError.permissionTwice(name, earlier, level) }
      levels[name] = level
    }
    return levels
  }

  /// A GitHub account name: 1 to 39 ASCII letters, digits and hyphens, not starting with a
  /// hyphen (accounts made before GitHub's current rule may end with one or hold two in a row).
  static func isOwnerName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard (1...39).contains(bytes.count), bytes[0] != UInt8(ascii: "-") else { return false }
    return bytes.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") }
  }

  /// A GitHub repository name: 1 to 100 ASCII letters, digits, `.`, `-` and `_`; not `.` or `..`.
  static func isRepositoryName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard (1...100).contains(bytes.count), name != ".", name != ".." else { return false }
    return bytes.allSatisfy {
      isASCIIAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
    }
  }

  private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// The permissions as text, sorted: `contents:read,issues:write`, or "the login's own".
  package var permissionsDescription: String {
    permissions.isEmpty ? "the login's own" : Self.describe(permissions)
  }

  /// `name:level` pairs sorted by name, joined with commas ("none" when empty).
  package static func describe(_ permissions: [String: String]) -> String {
    permissions.isEmpty
      ? "none" : permissions.keys.sorted().map { "\($0):\(permissions[$0] ?? "")" }.joined(separator: ",")
  }
}

/// A repository or permission refused before any request: exit 2.
package enum NarrowingError: ReportableError, Equatable {
  case noRepository
  case notOwnerSlashName(String)
  case badOwner(String)
  case badRepository(String)
  case severalOwners(String, String)
  case tooManyRepositories(Int)
  case notNameColonLevel(String)
  case unknownPermission(String, suggestion: String?)
  case levelNotAccepted(String, String, allowed: [String])
  case permissionTwice(String, String, String)

  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }

  /// Whether the value refused is a permission (else a repository): the command line names
  /// its option (`--permission`, `--repo`) before the message.
  package var isAboutPermissions: Bool {
    switch self {
    case .notNameColonLevel, .unknownPermission, .levelNotAccepted, .permissionTwice: true
    default: false
    }
  }

  package var message: String {
    switch self {
    case .noRepository:
      return "a narrowed token needs at least one repository (OWNER/NAME)"
    case .notOwnerSlashName(let text):
      return "the repository '\(Sanitize.terminal(text))' is not OWNER/NAME"
    case .badOwner(let text):
      return "the repository '\(Sanitize.terminal(text))': the owner is not a GitHub account name "
        + "(1 to 39 letters, digits and hyphens, not starting with a hyphen)"
    case .badRepository(let text):
      return "the repository '\(Sanitize.terminal(text))': the name is not a GitHub repository name "
        + "(1 to 100 letters, digits, '.', '-' and '_')"
    case .severalOwners(let first, let other):
      return "every repository must have the same owner (the token's target), "
        + "not both '\(Sanitize.terminal(first))' and '\(Sanitize.terminal(other))'"
    case .tooManyRepositories(let count):
      return "at most \(Narrowing.maximumRepositories) repositories, not \(count)"
    case .notNameColonLevel(let text):
      return "the permission '\(Sanitize.terminal(text))' is not NAME:LEVEL (for example contents:read)"
    case .unknownPermission(let name, let suggestion):
      let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
      return "'\(Sanitize.terminal(name))' is not a GitHub App permission\(hint) "
        + "(the list known here is GitHub's of \(AppPermissions.asOf); GitHub may have added names since)"
    case .levelNotAccepted(let name, let level, let allowed):
      return "the permission \(name): GitHub accepts \(allowed.joined(separator: " or ")), "
        + "not '\(Sanitize.terminal(level))'"
    case .permissionTwice(let name, let first, let second):
      return "the permission \(name) is asked for twice, as \(first) and as \(second)"
    }
  }
}
