/// A step of the atomic write (R63), where a test can make it fail.
package enum WriteStep: String, Sendable, CaseIterable {
  /// Creating the temp file.
  case open
  /// Writing the contents (the fault strikes after half of them are written).
  case write
  /// `fsync` of the temp file.
  case fsync
  /// Renaming the temp file over the credentials file.
  case rename
  /// `fsync` of the directory, after the rename.
  case directoryFsync = "directory-fsync"
}

/// Faults to inject into the credential store's writes, for tests; ``none`` in production.
package struct StoreFaults: Sendable, Equatable {
  /// The step that fails with `EIO`, if any.
  var failAt: WriteStep?
  /// Kill the process with `SIGKILL` just before the rename (R63: a crash between write and
  /// rename leaves the old file and a stray temp file, nothing else).
  var killBeforeRename: Bool
  /// Kill the process with `SIGKILL` once the file is written, before keyring items it no
  /// longer points to are deleted (a migration to the file interrupted at its last step).
  var killAfterFile: Bool

  package init(failAt: WriteStep? = nil, killBeforeRename: Bool = false, killAfterFile: Bool = false) {
    self.failAt = failAt
    self.killBeforeRename = killBeforeRename
    self.killAfterFile = killAfterFile
  }

  /// No faults.
  package static let none = StoreFaults()

  /// Faults named by `GHLOGIN_TEST_FAULT` (`open`, `write`, `fsync`, `rename`,
  /// `directory-fsync`, `kill-before-rename` or `kill-after-file`), for end-to-end tests of the built binary.
  /// Only debug builds honour it; release builds always return ``none``.
  package static func fromEnvironment(_ variables: EnvironmentVariables) -> StoreFaults {
    #if DEBUG
      guard let name = variables["GHLOGIN_TEST_FAULT"] else { return .none }
      if name == "kill-before-rename" { return StoreFaults(killBeforeRename: true) }
      if name == "kill-after-file" { return StoreFaults(killAfterFile: true) }
      return StoreFaults(failAt: WriteStep(rawValue: name))
    #else
      return .none
    #endif
  }

  /// Throws the injected `EIO` when `step` is the one to fail.
  package func check(_ step: WriteStep, call: String) throws(SystemError) {
    if failAt == step { throw SystemError.inputOutput(call: call) }
  }
}
