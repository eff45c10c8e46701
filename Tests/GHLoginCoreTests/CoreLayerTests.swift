import Foundation
import GHLoginTestSupport
import Testing

/// The layers inside GHLoginCore (ARCHITECTURE.md, "Modules"): a folder's code names only types
/// declared in its own folder or in a folder below it. Targets hold the edges between GHLoginCore,
/// GHLoginKit and GHLoginCLI; inside one target the compiler cannot, so this scan does. A name in
/// a comment or a string is not a reference.
@Suite struct CoreLayerTests {
  /// Lowest first. Folders on one rank may not name each other's types either.
  static let ranks: [String: Int] = [
    "Support": 0, "System": 1, "HTTP": 2, "GitHub": 3, "Generated": 3, "Store": 4, "OAuth": 5,
    "Git": 6, "ToolHelpers": 6, "Environment": 7, "Login": 8,
  ]

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

  static func coreFiles() throws -> [(folder: String, name: String, text: String)] {
    let root = repositoryRoot + "/Sources/GHLoginCore"
    var files: [(folder: String, name: String, text: String)] = []
    for folder in try FileManager.default.contentsOfDirectory(atPath: root).sorted() {
      let names = try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)
      for name in names where name.hasSuffix(".swift") {
        let text = try String(contentsOfFile: "\(root)/\(folder)/\(name)", encoding: .utf8)
        files.append((folder, name, text))
      }
    }
    return files
  }

  @Test func everyFolderOfCoreHasARank() throws {
    let folders = Set(try Self.coreFiles().map(\.folder))
    #expect(folders.contains("System") && folders.contains("Login"), "the scan found nothing: is the root right?")
    #expect(
      folders.subtracting(Self.ranks.keys).sorted() == [], "a new folder needs a rank here and in ARCHITECTURE.md")
  }

  @Test func noFolderOfCoreNamesATypeOfAFolderAboveIt() throws {
    #expect(try Self.violations(try Self.coreFiles()).map(\.description) == [])
  }

  /// The scan finds what it is for, and only that: an upward reference (System naming HTTP's
  /// `WebURL`) and a sideways one (Git naming ToolHelpers), not a downward one, a nested type's
  /// name, or a name in a comment or string.
  @Test func theScanFindsAnUpwardReferenceAndOnlyThat() throws {
    let files: [(folder: String, name: String, text: String)] = [
      ("HTTP", "WebURL.swift", "package struct WebURL {\n  enum Kind { case a }\n}"),
      ("ToolHelpers", "Answer.swift", "package enum Answer {}"),
      ("System", "Browser.swift", "func open(_ url: WebURL) {}\n// a WebURL in a comment\nlet s = \"WebURL\""),
      ("Login", "Plan.swift", "let u: WebURL? = nil\nlet k: Kind? = nil"),
      ("Git", "Request.swift", "let a: Answer? = nil"),
    ]
    #expect(
      try Self.violations(files).map(\.description) == [
        "Git/Request.swift names Answer (ToolHelpers/)", "System/Browser.swift names WebURL (HTTP/)",
      ])
  }
}
