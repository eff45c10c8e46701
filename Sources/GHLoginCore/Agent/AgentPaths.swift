/// Where the agent listens (doc/agent.md, "Starting the agent"): `agent.sock` in a private
/// directory, `$GHLOGIN_AGENT_DIR`, else `$XDG_RUNTIME_DIR/ghlogin`, else `/tmp/ghlogin-UID`.
package struct AgentPaths: Sendable, Equatable {
  /// The variable that points clients at an agent's socket.
  package static let socketVariable = "GHLOGIN_AGENT_SOCK"
  /// The variable naming another directory for the agent's sockets.
  package static let directoryVariable = "GHLOGIN_AGENT_DIR"

  /// The private directory (mode 0700, the user's).
  package var directory: String
  /// The main socket in it.
  package var socket: String { directory + "/agent.sock" }

  package init(directory: String) { self.directory = directory }

  /// The standard directory for `variables`. A relative `XDG_RUNTIME_DIR` is ignored, as the
  /// XDG specification says.
  package static func standard(_ variables: EnvironmentVariables) -> AgentPaths {
    if let directory = variables[directoryVariable], !directory.isEmpty {
      return AgentPaths(directory: SafeDirectory.absolute(directory))
    }
    if let runtime = variables["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      return AgentPaths(directory: FilePath.join(runtime, ProductNames.configDirectory))
    }
    return AgentPaths(directory: "/tmp/" + ProductNames.agentTemporaryPrefix + String(ProcessState.userID))
  }

  /// Creates the directory when missing (0700) and checks it as the credentials directory is
  /// checked (R62: a real directory the user owns, no group or other write, safe parents).
  package func prepare() throws(StoreError) {
    try SafeDirectory.create(directory)
    try SafeDirectory.check(directory, home: nil)
  }
}
