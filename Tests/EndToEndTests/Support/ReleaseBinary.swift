import Foundation

/// The `ghlogin` the README builds (`scripts/build-release.sh`: release, `--static-swift-stdlib`,
/// `--disable-local-rpath`, the `Linker/` scripts, OpenSSL loaded at run time), which
/// ``ReleaseEndToEndTests`` runs end to end, as opposed to the debug build every other
/// end-to-end test runs.
///
/// Where it comes from:
/// - `$GHLOGIN_RELEASE_BINARY` when set (`.ci/run` builds the binary with the README's command
///   and sets it): it must be an executable file, else the tests fail;
/// - else `<root>/.build/release/ghlogin` when it is newer than every file under `Sources/`,
///   `Linker/` and `Package.swift` (a stale build would test other code);
/// - else none. Then the tests fail when `$CI` is set (CI must run them) and are skipped
///   otherwise, with the command to build it in the reason.
enum ReleaseBinary {
  /// The README's build command.
  static let buildCommand = "scripts/build-release.sh"

  /// The binary's path, or why there is none (`required`: the tests must fail, not skip).
  static let lookup: Result<String, HarnessError> = {
    let environment = ProcessInfo.processInfo.environment
    let fm = FileManager.default
    if let given = environment["GHLOGIN_RELEASE_BINARY"], !given.isEmpty {
      return fm.isExecutableFile(atPath: given)
        ? .success(given) : .failure(HarnessError("GHLOGIN_RELEASE_BINARY=\(given) is not an executable file"))
    }
    let built = HarnessPaths.packageRoot + "/.build/release/ghlogin"
    guard let builtAt = modificationTime(built), fm.isExecutableFile(atPath: built) else {
      return .failure(HarnessError("no release build at \(built): run `\(buildCommand)` first"))
    }
    let root = HarnessPaths.packageRoot
    if let newer = newestSource(under: [root + "/Sources", root + "/Linker", root + "/Package.swift"]),
      newer.time > builtAt
    {
      return .failure(HarnessError("\(built) is older than \(newer.path): run `\(buildCommand)` again"))
    }
    return .success(built)
  }()

  /// Whether the tests must run: a binary was named, or CI is running them.
  static var required: Bool {
    let environment = ProcessInfo.processInfo.environment
    return !(environment["GHLOGIN_RELEASE_BINARY"] ?? "").isEmpty || !(environment["CI"] ?? "").isEmpty
  }

  /// Whether to run the tests: there is a binary, or it is required (and its absence fails them).
  static var shouldRun: Bool {
    if case .success = lookup { return true }
    return required
  }

  /// The binary, or the reason there is none as the error.
  static func path() throws -> String { try lookup.get() }

  private static func modificationTime(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
  }

  /// The most recently modified file under `paths` (files or directories).
  private static func newestSource(under paths: [String]) -> (path: String, time: Date)? {
    var newest: (path: String, time: Date)?
    func consider(_ path: String) {
      if let time = modificationTime(path), newest.map({ time > $0.time }) ?? true { newest = (path, time) }
    }
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
      guard isDirectory.boolValue else {
        consider(path)
        continue
      }
      // Files only: a directory's time changes when scripts/build-release.sh removes the file it
      // generates for a build with a default app, which changes no source.
      let entries = FileManager.default.enumerator(atPath: path)
      while let relative = entries?.nextObject() as? String {
        if (entries?.fileAttributes?[.type] as? FileAttributeType) != .typeDirectory { consider(path + "/" + relative) }
      }
    }
    return newest
  }
}

/// The release build with a packager's default app compiled in (`GHLOGIN_DEFAULT_CLIENT_ID` …
/// given to `scripts/build-release.sh --scratch-path .build/default-app`), which
/// `DefaultAppEndToEndTests` logs in with: `$GHLOGIN_DEFAULT_APP_BINARY` (`.ci/run` builds it and
/// sets it), else `<root>/.build/default-app/release/ghlogin` when it exists. Missing: the
/// tests fail under CI and are skipped otherwise.
enum DefaultAppBinary {
  static let buildCommand =
    "GHLOGIN_DEFAULT_CLIENT_ID=Ov23liCIBUILTIN0APP GHLOGIN_DEFAULT_APP_NAME='ghlogin CI' "
    + "scripts/build-release.sh --scratch-path .build/default-app"

  static let lookup: Result<String, HarnessError> = {
    let environment = ProcessInfo.processInfo.environment
    let fm = FileManager.default
    if let given = environment["GHLOGIN_DEFAULT_APP_BINARY"], !given.isEmpty {
      return fm.isExecutableFile(atPath: given)
        ? .success(given) : .failure(HarnessError("GHLOGIN_DEFAULT_APP_BINARY=\(given) is not an executable file"))
    }
    let built = HarnessPaths.packageRoot + "/.build/default-app/release/ghlogin"
    return fm.isExecutableFile(atPath: built)
      ? .success(built) : .failure(HarnessError("no build with a default app at \(built): run `\(buildCommand)`"))
  }()

  /// Whether to run the tests: there is a binary, or CI (or a named binary) requires it.
  static var shouldRun: Bool {
    if case .success = lookup { return true }
    let environment = ProcessInfo.processInfo.environment
    return !(environment["GHLOGIN_DEFAULT_APP_BINARY"] ?? "").isEmpty || !(environment["CI"] ?? "").isEmpty
  }

  static func path() throws -> String { try lookup.get() }
}
