import Foundation

/// Where the harness finds its pieces: the package root (from this file's path), the Python
/// fake, `python3`, and the built `ghlogin` binary.
enum HarnessPaths {
  /// The package root: this file is `<root>/Tests/EndToEndTests/Support/HarnessPaths.swift`.
  static let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
  }()

  /// `<root>/Tests/FakeGitHub`.
  static var fakeGitHubDirectory: String { packageRoot + "/Tests/FakeGitHub" }

  /// The first executable `python3` on `PATH` (else `/usr/bin/python3`).
  static let python3: String = findOnPath("python3") ?? "/usr/bin/python3"

  /// The first executable `bash` on `PATH` (else `/bin/bash`).
  static let bash: String = findOnPath("bash") ?? "/bin/bash"

  /// The built `ghlogin`: `$GHLOGIN_BINARY` if set; else `ghlogin` next to the running test
  /// executable or in one of its parent directories (`.build/<triple>/debug/` holds both);
  /// else `<root>/.build/debug/ghlogin`.
  static func ghloginBinary() throws -> String {
    let fm = FileManager.default
    if let override = ProcessInfo.processInfo.environment["GHLOGIN_BINARY"], !override.isEmpty {
      guard fm.isExecutableFile(atPath: override) else {
        throw HarnessError("GHLOGIN_BINARY=\(override) is not an executable file")
      }
      return override
    }
    if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
      while dir.path != "/" {
        for candidate in [dir.path + "/ghlogin", dir.path + "/.build/debug/ghlogin"]
        where fm.isExecutableFile(atPath: candidate) && !isDirectory(candidate) {
          return candidate
        }
        dir.deleteLastPathComponent()
      }
    }
    let fallback = packageRoot + "/.build/debug/ghlogin"
    guard fm.isExecutableFile(atPath: fallback) else {
      throw HarnessError(
        "cannot find the built ghlogin (run `swift build` first, or set GHLOGIN_BINARY)")
    }
    return fallback
  }

  private static func isDirectory(_ path: String) -> Bool {
    var flag: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
  }

  static func findOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
