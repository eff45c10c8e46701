import Foundation
import GHLoginTestSupport
import Testing

/// One syscall layer: only `Sources/GHLoginCore/System/` imports Glibc; everything
/// else (the rest of Core, GHLoginKit, GHLoginCLI) reaches the C library through System/'s typed
/// wrappers. Targets cannot forbid an import, so this scan holds the rule; `main.swift` is the one
/// exception (it re-raises the signal that ended the command). `GHLoginKitTesting`'s browser opens
/// its socket and thread through System/ too (`Socket`, `PosixThread`, reached through GHLoginKit).
@Suite struct SyscallLayerTests {
  /// The Swift files of the library targets (paths relative to Sources/) whose lines import Glibc
  /// (`import Glibc`, `@preconcurrency import Glibc`, or one declaration: `import func Glibc.open`).
  static func filesImportingGlibc() throws -> Set<String> {
    let root = repositoryRoot + "/Sources"
    let enumerator = try #require(FileManager.default.enumerator(atPath: root))
    var found: Set<String> = []
    while let relative = enumerator.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
      let imports = text.split(separator: "\n").contains { line in
        let words = line.split(separator: " ")
        guard let keyword = words.firstIndex(of: "import") else { return false }
        return words[(keyword + 1)...].prefix(2).contains { $0 == "Glibc" || $0.hasPrefix("Glibc.") }
      }
      if imports { found.insert(relative) }
    }
    return found
  }

  @Test func glibcIsImportedOnlyInSystem() throws {
    let found = try Self.filesImportingGlibc()
    #expect(
      found.contains("GHLoginCore/System/Syscalls/FileDescriptor.swift"), "the scan found nothing: is the root right?")
    let outside = found.filter {
      !$0.hasPrefix("GHLoginCore/System/") && $0 != "ghlogin/main.swift"
    }
    #expect(outside.sorted() == [], "import Glibc outside System/")
  }
}
