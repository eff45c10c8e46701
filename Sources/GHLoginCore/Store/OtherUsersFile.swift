/// R109: a command that edits another program's configuration (`setup-docker`, `setup-git`)
/// never rewrites a file that belongs to another user, as root with another user's `HOME`
/// (`sudo` keeping it) would: the file would become root's and the user's tool could no longer
/// change it.
package enum OtherUsersFile {
  /// Refuses (exit 2) when the file `path` (its target, when it is a link) belongs to another
  /// user than the one running ghlogin, or, when there is no file yet, when the directory it
  /// would be created in does. `command` is what to run as that user instead.
  package static func check(_ path: String, command: String) throws(RefusedEdit) {
    let user = ProcessState.userID
    for candidate in [path, FilePath.directory(of: path)] {
      guard let info = try? FileSystem.status(candidate) else { continue }
      guard info.owner != user else { return }
      throw RefusedEdit(
        "refusing to change \(candidate): it belongs to \(describe(info.owner)), not to you (\(ProcessState.userName(user).map { "\(Sanitize.terminal($0)), " } ?? "")uid \(user)); "
          + "nothing was changed. Run '\(command)' as \(ProcessState.userName(info.owner) ?? "that user"), "
          + "without sudo")
    }
  }

  /// `name (uid N)`, or `uid N` when the user database has no name for it.
  private static func describe(_ uid: UInt32) -> String {
    ProcessState.userName(uid).map { "\(Sanitize.terminal($0)) (uid \(uid))" } ?? "uid \(uid)"
  }
}

/// `setup-docker` or `setup-git` refused to change another program's configuration (R109):
/// exit 2, the file as it was.
package struct RefusedEdit: ReportableError, Equatable {
  package var message: String
  package init(_ message: String) { self.message = message }
  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }
}
