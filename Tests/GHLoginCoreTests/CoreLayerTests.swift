import Foundation
import GHLoginTestSupport
import Testing

/// The layers inside GHLoginCore (ARCHITECTURE.md, "Modules"): a folder's code names only types
/// declared in its own folder or in a folder below it. Targets hold the edges between GHLoginCore,
/// GHLoginKit and GHLoginCLI; inside one target the compiler cannot, so this scan does. A name in
/// a comment or a string is not a reference.
@Suite struct CoreLayerTests {
  /// Lowest first. Folders on one rank may not name each other's types either. System/ is
  /// four: the syscall wrappers (files, processes, poll, clocks) under networking (sockets, the
  /// resolver) and the terminal, and TLS over the sockets. A folder inside a ranked folder is
  /// part of it.
  static let ranks: [String: Int] = [
    "Support": 0, "System/Syscalls": 1, "System/Network": 2, "System/Terminal": 2, "System/TLS": 3, "HTTP": 4,
    "GitHub": 5, "Generated": 5, "Store": 6, "OAuth": 7, "Git": 8, "ToolHelpers": 8, "Environment": 9, "Login": 10,
    "Agent": 11,
  ]

  /// The ranked folder `path` (relative to Sources/GHLoginCore) belongs to: itself or its
  /// nearest ranked ancestor; the path itself when none is ranked.
  static func rankedFolder(_ path: String) -> String {
    var folder = path
    while ranks[folder] == nil, let slash = folder.lastIndex(of: "/") { folder = String(folder[..<slash]) }
    return ranks[folder] == nil ? path : folder
  }

  struct Violation: Hashable, CustomStringConvertible {
    var file: String
    var name: String
    var declaredIn: String
    var description: String { "\(file) names \(name) (\(declaredIn)/)" }
  }

  /// Source text without string literals and comments.
  static func code(_ text: String) -> String {
    var text = text
    for pattern in [#"\"\"\"[\s\S]*?\"\"\""#, #""(?:\\.|[^"\\\n])*""#, #"//[^\n]*"#] {
      text = text.replacingOccurrences(of: pattern, with: "\"\"", options: .regularExpression)
    }
    return text
  }

  /// The upward references among `files` (folder, file name, source text).
  static func violations(_ files: [(folder: String, name: String, text: String)]) throws -> [Violation] {
    let declaration = try NSRegularExpression(
      pattern: #"^(?:@\w+\s+)*(?:(?:package|public|internal|final|indirect)\s+)*"#
        + #"(?:struct|enum|class|protocol|typealias|actor)\s+([A-Z]\w*)"#,
      options: .anchorsMatchLines)
    let identifier = try NSRegularExpression(pattern: #"\b[A-Z]\w*\b"#)
    let sources = files.map { ($0.folder, $0.name, code($0.text)) }
    // Top-level declarations only: a nested name (`Kind`, `Outcome`) belongs to its type.
    var owner: [String: String] = [:]
    for (folder, _, text) in sources {
      for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        owner[String(text[Range(match.range(at: 1), in: text)!])] = folder
      }
    }
    var found: Set<Violation> = []
    for (folder, name, text) in sources {
      for match in identifier.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        let word = String(text[Range(match.range, in: text)!])
        guard let declaredIn = owner[word], declaredIn != folder,
          let mine = ranks[folder], let theirs = ranks[declaredIn], theirs >= mine
        else { continue }
        found.insert(Violation(file: "\(folder)/\(name)", name: word, declaredIn: declaredIn))
      }
    }
    return found.sorted { $0.description < $1.description }
  }

  /// Every Swift file of Core, with its ranked folder (``rankedFolder(_:)``) and its path
  /// inside that folder.
  static func coreFiles() throws -> [(folder: String, name: String, text: String)] {
    let root = repositoryRoot + "/Sources/GHLoginCore"
    let enumerator = try #require(FileManager.default.enumerator(atPath: root))
    var files: [(folder: String, name: String, text: String)] = []
    while let relative = enumerator.nextObject() as? String {
      guard relative.hasSuffix(".swift"), let slash = relative.lastIndex(of: "/") else { continue }
      let folder = rankedFolder(String(relative[..<slash]))
      let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
      files.append((folder, String(relative.dropFirst(folder.count + 1)), text))
    }
    return files.sorted { ($0.folder, $0.name) < ($1.folder, $1.name) }
  }

  @Test func everyFolderOfCoreHasARank() throws {
    let folders = Set(try Self.coreFiles().map(\.folder))
    #expect(
      folders.contains("System/Syscalls") && folders.contains("Login"), "the scan found nothing: is the root right?")
    #expect(
      folders.subtracting(Self.ranks.keys).sorted() == [], "a new folder needs a rank here and in ARCHITECTURE.md")
  }

  @Test func noFolderOfCoreNamesATypeOfAFolderAboveIt() throws {
    #expect(try Self.violations(try Self.coreFiles()).map(\.description) == [])
  }

  /// The scan finds what it is for, and only that: an upward reference (System naming HTTP's
  /// `WebURL`, the syscalls naming the sockets) and a sideways one (Git naming ToolHelpers, the
  /// terminal naming the sockets), not a downward one (TLS naming the sockets), a nested type's
  /// name, or a name in a comment or string.
  @Test func theScanFindsAnUpwardReferenceAndOnlyThat() throws {
    let files: [(folder: String, name: String, text: String)] = [
      ("HTTP", "WebURL.swift", "package struct WebURL {\n  enum Kind { case a }\n}"),
      ("ToolHelpers", "Answer.swift", "package enum Answer {}"),
      ("System/Network", "Socket.swift", "package struct Socket {}"),
      (
        "System/Syscalls", "Browser.swift",
        "func open(_ url: WebURL) {}\n// a WebURL in a comment\nlet s = \"WebURL\"\nlet t: Socket? = nil"
      ),
      ("System/Terminal", "Secret.swift", "let t: Socket? = nil"),
      ("System/TLS", "Connection.swift", "let t: Socket? = nil"),
      ("Login", "Plan.swift", "let u: WebURL? = nil\nlet k: Kind? = nil"),
      ("Git", "Request.swift", "let a: Answer? = nil"),
    ]
    #expect(
      try Self.violations(files).map(\.description) == [
        "Git/Request.swift names Answer (ToolHelpers/)", "System/Syscalls/Browser.swift names Socket (System/Network/)",
        "System/Syscalls/Browser.swift names WebURL (HTTP/)",
        "System/Terminal/Secret.swift names Socket (System/Network/)",
      ])
    #expect(Self.rankedFolder("System/TLS") == "System/TLS")
    #expect(Self.rankedFolder("Login/Workspace") == "Login", "a folder inside a ranked one is part of it")
    #expect(Self.rankedFolder("System/Other") == "System/Other", "unranked: everyFolderOfCoreHasARank names it")
  }
}
