import GHLoginCore

/// `ghlogin container-args [forward options] [--selinux] [--podman-keep-id] [--devcontainer]`
/// (issue 35 §3): makes an agent forward and prints the `docker run`/`podman run` arguments that
/// mount it and the ghlogin binary into a container, one per line, or the matching
/// `devcontainer.json` lines. The agent's main socket is never handed out.
struct ContainerArgsCommand: Command {
  static let configuration = CommandConfiguration(
    name: "container-args", abstract: "make an agent forward and print docker/podman run arguments for it",
    discussion: """
      Asks the agent (GHLOGIN_AGENT_SOCK, else the standard socket) for a forward with the
      policy the options give, and prints, one argument per line:
        -v FORWARD:/run/ghlogin/agent.sock
        -v BINARY:/usr/local/bin/ghlogin:ro
        -v BINARY:/usr/local/bin/docker-credential-ghlogin:ro
        -e GHLOGIN_AGENT_SOCK=/run/ghlogin/agent.sock
        -e GIT_CONFIG_COUNT=3, and credential.helper= (drops the image's own helpers),
           credential.helper=!ghlogin git-credential, credential.useHttpPath=true
      One value holds a space, so split the output at newlines only:
        mapfile -t args < <(ghlogin container-args --repo acme/api --ttl 8h)
        docker run "${args[@]}" IMAGE
      or, in any POSIX shell: (IFS='
      '; docker run $(ghlogin container-args --repo acme/api --ttl 8h) IMAGE)
      The forward lives until its --ttl, 'ghlogin agent revoke', or 'ghlogin agent stop'.
      See doc/agent.md.
      """,
    options: ForwardOptions.specs + [
      .flag("selinux", help: "Add :z to the mounts (SELinux relabelling)"),
      .flag("podman-keep-id", help: "Add --userns=keep-id (rootless podman: your uid inside)"),
      .flag("devcontainer", help: "Print devcontainer.json lines instead of run arguments"),
    ])

  /// Where the forward is mounted in the container.
  static let containerSocket = "/run/ghlogin/agent.sock"

  var policy: ForwardPolicy
  var selinux: Bool
  var keepID: Bool
  var devcontainer: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    policy = try ForwardOptions.parse(arguments)
    selinux = arguments.flag("selinux")
    keepID = arguments.flag("podman-keep-id")
    devcontainer = arguments.flag("devcontainer")
  }

  /// The main socket was answered as a forward's path: never handed out (R115).
  struct MainSocketRefused: ReportableError, Equatable {
    var message: String {
      "the agent answered with its main socket, which is never mounted into a container; use a forward"
    }
    var exitStatus: ExitStatus { .failure }
    var errorKind: ErrorKind { .configuration }
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let main = AgentClient.mainSocket(in: environment)
    let (id, path) = try AgentClient.createForward(policy, watching: nil, in: environment)
    guard path != main, !path.hasSuffix("/agent.sock") else {
      try? AgentClient.endForward(id: id, in: environment)
      throw MainSocketRefused()
    }
    if policy.unscoped { environment.stderr.write("ghlogin: warning: \(ForwardPolicy.unscopedWarning)\n") }
    let lines =
      devcontainer
      ? Self.devcontainerLines(forward: path, binary: environment.executablePath, selinux: selinux, keepID: keepID)
      : Self.runArguments(forward: path, binary: environment.executablePath, selinux: selinux, keepID: keepID)
    environment.stdout.write(lines.map { $0 + "\n" }.joined())
    return .success
  }

  /// The git settings that make git in the container ask ghlogin only, with the path.
  static let gitSettings = [
    ("credential.helper", ""), ("credential.helper", "!ghlogin git-credential"), ("credential.useHttpPath", "true"),
  ]

  /// The environment the container gets.
  static var containerEnvironment: [(String, String)] {
    var variables = [(AgentPaths.socketVariable, containerSocket), ("GIT_CONFIG_COUNT", String(gitSettings.count))]
    for (index, (key, value)) in gitSettings.enumerated() {
      variables.append(("GIT_CONFIG_KEY_\(index)", key))
      variables.append(("GIT_CONFIG_VALUE_\(index)", value))
    }
    return variables
  }

  /// The mounts: (host path, container path, read-only).
  static func mounts(forward: String, binary: String) -> [(String, String, Bool)] {
    [
      (forward, containerSocket, false), (binary, "/usr/local/bin/ghlogin", true),
      (binary, "/usr/local/bin/" + DockerCredentialCommand.linkName, true),
    ]
  }

  /// `docker run` arguments, one per element.
  static func runArguments(forward: String, binary: String, selinux: Bool, keepID: Bool) -> [String] {
    var arguments: [String] = []
    for (source, target, readOnly) in mounts(forward: forward, binary: binary) {
      let flags = (readOnly ? ["ro"] : []) + (selinux ? ["z"] : [])
      arguments += ["-v", "\(source):\(target)" + (flags.isEmpty ? "" : ":" + flags.joined(separator: ","))]
    }
    for (name, value) in containerEnvironment { arguments += ["-e", "\(name)=\(value)"] }
    if keepID { arguments.append("--userns=keep-id") }
    return arguments
  }

  /// The `devcontainer.json` members that do the same.
  static func devcontainerLines(forward: String, binary: String, selinux: Bool, keepID: Bool) -> [String] {
    func quoted(_ text: String) -> String {
      var out = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20:
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
      }
      return out + "\""
    }
    let mounts = mounts(forward: forward, binary: binary).map { source, target, readOnly in
      quoted("source=\(source),target=\(target),type=bind" + (readOnly ? ",readonly" : ""))
    }
    var lines = ["\"mounts\": [" + mounts.joined(separator: ", ") + "],"]
    let variables = containerEnvironment.map { "\(quoted($0.0)): \(quoted($0.1))" }
    lines.append("\"containerEnv\": {" + variables.joined(separator: ", ") + "},")
    let runArgs = (keepID ? ["--userns=keep-id"] : []) + (selinux ? ["--security-opt", "label=disable"] : [])
    if !runArgs.isEmpty { lines.append("\"runArgs\": [" + runArgs.map(quoted).joined(separator: ", ") + "],") }
    return lines
  }
}
