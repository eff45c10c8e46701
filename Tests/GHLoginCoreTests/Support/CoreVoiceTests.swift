import Foundation
import GHLoginTestSupport
import Testing

@testable import GHLoginCore

/// Issue 31 §2: Core speaks no command. No string literal in `Sources/GHLoginCore` names
/// `ghlogin` (the command, or a `ghlogin:` prefix) or one of the command line's options, except
/// the names that must stay, all in `Support/ProductNames.swift`. Remedies are data (``Remedy``)
/// the command line renders.
@Suite struct CoreVoiceTests {
  /// Each string literal of Core that speaks as the command line, with its file.
  static func findings(in files: [(path: String, text: String)]) -> [String] {
    files.flatMap { file in
      VoiceCheck.stringLiterals(in: file.text).flatMap { literal in
        VoiceCheck.commandLineWords(inCoreLiteral: literal).map { "\(file.path): \($0) in \"\(literal)\"" }
      }
    }
  }

  /// Every Swift file under `root`, by its path below it.
  static func swiftFiles(under root: String) throws -> [(path: String, text: String)] {
    let enumerator = FileManager.default.enumerator(atPath: root)
    var files: [(path: String, text: String)] = []
    while let path = enumerator?.nextObject() as? String {
      guard path.hasSuffix(".swift") else { continue }
      files.append((path, try String(contentsOfFile: root + "/" + path, encoding: .utf8)))
    }
    return files.sorted { $0.path < $1.path }
  }

  @Test func noLiteralOutsideProductNamesSpeaksAsTheCommandLine() throws {
    let files = try Self.swiftFiles(under: repositoryRoot + "/Sources/GHLoginCore")
    #expect(files.count > 100, "the scan reads Core")
    #expect(files.contains { $0.path == "Support/ProductNames.swift" })
    let scanned = files.filter { $0.path != "Support/ProductNames.swift" }
    #expect(Self.findings(in: scanned) == [])
    // The allowed names are found in their own file: the scan would see them anywhere else.
    let allowed = files.filter { $0.path == "Support/ProductNames.swift" }
    #expect(Self.findings(in: allowed).count >= 5)
  }

  /// The scan finds a planted literal anywhere in a copy of Core's tree, and only there.
  @Test(arguments: [
    #"let hint = "run 'ghlogin auth' again""#,
    #"let prefix = "ghlogin: warning: ""#,
    #"let hint = "pass --device for the device flow""#,
    "let text = \"\"\"\n  then run:\n    ghlogin config set client_id ID\n  \"\"\"",
    #"let hint = "try \(again) with --with-token""#,
  ])
  func aPlantedLiteralIsFound(_ line: String) throws {
    let copy = try TemporaryDirectory()
    let root = repositoryRoot + "/Sources/GHLoginCore"
    let files = try Self.swiftFiles(under: root).filter { $0.path != "Support/ProductNames.swift" }
    for file in files {
      let target = copy.at(file.path)
      try FileManager.default.createDirectory(
        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      let planted = file.path == "OAuth/TokenError.swift" ? file.text + "\n" + line + "\n" : file.text
      try planted.write(toFile: target, atomically: true, encoding: .utf8)
    }
    let found = Self.findings(in: try Self.swiftFiles(under: copy.path))
    #expect(found.count == 1, "\(found)")
    #expect(found.first?.hasPrefix("OAuth/TokenError.swift: ") == true)
  }

  /// Comments, other programs' options and words that are not options are not findings.
  @Test func commentsAndOtherProgramsOptionsAreNotFindings() {
    let source = """
      /// Run `ghlogin auth --host H` to log in.
      // ghlogin: a comment
      let git = ["config", "--global", "--add", key]
      let tool = "secret-tool search --all application"
      let dash = "a -- b, 2--3"
      """
    #expect(Self.findings(in: [("Sample.swift", source)]) == [])
  }
}
