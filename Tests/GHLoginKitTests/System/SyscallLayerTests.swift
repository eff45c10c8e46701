import Foundation
import Testing

/// One syscall layer (issue 13): only `Sources/GHLoginKit/System/` imports Glibc; everything
/// else reaches the C library through System/'s typed wrappers.
@Suite struct SyscallLayerTests {
  /// Files outside System/ that still import Glibc, until their calls move behind System/.
  /// This list may only shrink: a file listed here that no longer imports Glibc fails too.
  static let notYetMoved: Set<String> = [
    "Store/AtomicFile.swift", "Store/Config.swift", "Store/CredentialStore.swift", "Store/FileLock.swift",
    "Store/SafeDirectory.swift", "Store/SecureFile.swift",
  ]

  /// The Swift files of the kit (paths relative to Sources/GHLoginKit) whose lines import Glibc.
  static func filesImportingGlibc() throws -> Set<String> {
    let root = repositoryRoot + "/Sources/GHLoginKit"
    let enumerator = try #require(FileManager.default.enumerator(atPath: root))
    var found: Set<String> = []
    while let relative = enumerator.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
      let imports = text.split(separator: "\n").contains { line in
        let words = line.split(separator: " ")
        return words.firstIndex(of: "import").map { $0 + 1 < words.count && words[$0 + 1] == "Glibc" } ?? false
      }
      if imports { found.insert(relative) }
    }
    return found
  }

  @Test func glibcIsImportedOnlyInSystem() throws {
    let found = try Self.filesImportingGlibc()
    #expect(found.contains("System/FileDescriptor.swift"), "the scan found nothing: is the root right?")
    let outside = found.filter { !$0.hasPrefix("System/") }
    #expect(outside.subtracting(Self.notYetMoved).sorted() == [], "import Glibc outside System/")
    #expect(Self.notYetMoved.subtracting(outside).sorted() == [], "no longer imports Glibc: drop from the list")
  }
}
