import GHLoginCore

/// `ghlogin setup-docker [--host H] [--unset]`: names ghlogin as the credential helper for the
/// registries of a GitHub host in docker's `config.json` (`credHelpers`), which docker, podman,
/// skopeo and buildah read (containers-auth.json(5)).
struct SetupDockerCommand: Command {
  static let configuration = CommandConfiguration(
    name: "setup-docker", abstract: "use ghlogin as the credential helper for a host's container registries",
    discussion: """
      Sets credHelpers."REGISTRY": "ghlogin" in $DOCKER_CONFIG/config.json (else
      ~/.docker/config.json) for each registry of the host: ghcr.io and docker.pkg.github.com for
      github.com, containers.HOST and docker.HOST for an Enterprise HOST, and the config's
      container_registries. Every other key of the file is kept; a symlinked config.json stays a
      link (its target is rewritten). No token is written anywhere: docker, podman, skopeo and
      buildah run docker-credential-ghlogin (installed by scripts/install.sh) each time.
      Warns when a copy of a token for one of them is left in config.json's auths or in
      containers' auth.json (podman and skopeo read that first), and when the login lacks
      read:packages. --unset removes the entries again; run it before uninstalling ghlogin (an
      entry naming a missing helper breaks even pulls of public images); it never removes an
      entry naming another helper. An entry naming another helper (such as "pass") is replaced
      only with --force, which says what it replaced. A file that belongs to another user (root
      running it with that user's HOME) is never rewritten.
      """,
    options: [
      .host, .flag("unset", help: "Remove ghlogin's credHelpers entries instead"),
      .flag("force", help: "Replace an entry that names another credential helper"),
    ])

  var host: String?
  var unset: Bool
  var force: Bool

  init(_ arguments: ParsedArguments) {
    host = arguments.value("host")
    unset = arguments.flag("unset")
    force = arguments.flag("force")
  }

  /// The most bytes read from a docker or containers config file.
  static let maximumFileSize = 1 << 20

  func run(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment, unknownConfigKeys: .lenient)
    let credentials = try workspace.store.load()
    let githubHost = try workspace.host(host, credentials: credentials)
    let map = RegistryMap(config: workspace.config, loggedIn: Array(credentials.hosts.keys))
    let registries = map.registries(for: githubHost.name)
    guard !registries.isEmpty else {
      throw UsageError(
        "no container registry maps to \(githubHost); add one with "
          + "'ghlogin config set --host \(githubHost) container_registries REGISTRY'")
    }
    let file = try Self.configFile(environment.variables)
    // A symlinked config.json stays a link: the file it points to is rewritten.
    let target = Self.linkTarget(file) ?? file
    var document = JSONObject()
    var existed = false
    if let bytes = try Self.read(target) {
      guard let object = (try? JSON.parse(bytes))?.objectValue else {
        throw SetupDockerError(
          "\(target) is not a JSON object; nothing was changed. Fix or move it, then run 'ghlogin setup-docker' again")
      }
      document = object
      existed = true
    }
    let replaced = unset ? [] : DockerConfigEdit.otherHelpers(in: document, registries: registries)
    if !replaced.isEmpty && !force {
      let rerun = "ghlogin setup-docker" + (host != nil ? " --host \(githubHost.name)" : "") + " --force"
      throw RefusedEdit(
        "\(target): \(Self.describe(replaced)); nothing was changed. "
          + "To replace \(replaced.count == 1 ? "it" : "them") with ghlogin, run '\(rerun)'")
    }
    let edited = DockerConfigEdit.apply(to: document, registries: registries, unset: unset)
    let names = registries.joined(separator: ", ")
    if edited == document && existed {
      environment.stderr.write(
        "\(target) already \(unset ? "names no ghlogin entry for" : "uses ghlogin for") \(names).\n")
    } else if !(unset && !existed) {
      try OtherUsersFile.check(target, command: "ghlogin setup-docker" + (unset ? " --unset" : ""))
      let directory = FilePath.directory(of: target)
      if directory != "." && directory != "/" { try SafeDirectory.create(directory) }
      try AtomicFile.write(
        Array((JSON.serialize(.object(edited), pretty: true) + "\n").utf8), to: target, faults: StoreFaults())
      environment.stderr.write(
        unset
          ? "Removed ghlogin as the credential helper for \(names) from \(target).\n"
          : "Set ghlogin as the credential helper for \(names) in \(target).\n")
      if !replaced.isEmpty { environment.stderr.write("Replaced: \(Self.describe(replaced)).\n") }
    }
    if unset { return .success }
    for warning in warnings(
      document: edited, registries: registries, host: githubHost, credentials: credentials, workspace: workspace)
    {
      environment.stderr.write("ghlogin: warning: \(warning)\n")
    }
    return .success
  }

  /// What may still stand between a client and the helper's answer.
  private func warnings(
    document: JSONObject, registries: [String], host: GitHubHost, credentials: Credentials, workspace: Workspace
  ) -> [String] {
    var warnings: [String] = []
    for registry in DockerConfigEdit.registries(in: document["auths"], among: registries) {
      warnings.append(
        "the auths of docker's config.json hold a copy of a token for \(registry) (from 'docker login'); "
          + "docker uses the helper, but the copy stays there: remove it with 'docker logout \(registry)'")
    }
    let variables = workspace.environment.variables
    var authFiles: [String] = []
    if let runtime = variables["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      authFiles.append(FilePath.join(runtime, "containers/auth.json"))
    }
    if let home = variables["HOME"], home.hasPrefix("/") {
      authFiles.append(FilePath.join(home, ".config/containers/auth.json"))
    }
    for file in authFiles {
      guard let bytes = try? Self.read(file), let object = (try? JSON.parse(bytes))?.objectValue else { continue }
      for registry in DockerConfigEdit.registries(in: object["auths"], among: registries) {
        warnings.append(
          "\(file) holds credentials for \(registry); podman and skopeo read it before docker's config.json, "
            + "so they do not ask ghlogin: remove them with 'podman logout \(registry)'")
      }
    }
    guard let account = try? workspace.account(on: host, user: nil, in: credentials) else {
      let scopes = (workspace.config.settings(for: host.name).scopes ?? Workspace.defaultScopes) + ["read:packages"]
      warnings.append(
        "not logged in to \(host); run '\(CommandHint.auth(host: host.name)) --scopes \(scopes.joined(separator: ","))'"
      )
      return warnings
    }
    if !DockerConfigEdit.canReadPackages(account.scopes) {
      warnings.append(
        "the login of \(Sanitize.terminal(account.login)) on \(host) lacks read:packages, which registries need; "
          + "run '\(CommandHint.auth(host: host.name)) --add-scopes read:packages'")
    }
    if let kind = DockerConfigEdit.tokenKindWarning(token: account.token) {
      warnings.append(
        "the login on \(host) holds \(kind), which GitHub Packages may not accept "
          + "(it documents classic personal access tokens; OAuth app tokens with read:packages work)")
    }
    return warnings
  }

  /// `credHelpers."ghcr.io" is "pass" (docker-credential-pass), another program's credential
  /// helper`, for each entry, joined.
  static func describe(_ entries: [(registry: String, value: JSONValue)]) -> String {
    let each = entries.map { entry -> String in
      let value = Sanitize.terminal(JSON.serialize(entry.value, pretty: false), maxCharacters: 200)
      let program = entry.value.stringValue.map { " (docker-credential-\(Sanitize.terminal($0, maxCharacters: 200)))" }
      return "credHelpers.\"\(entry.registry)\" is \(value)\(program ?? "")"
    }
    let noun = entries.count == 1 ? "another program's credential helper" : "other programs' credential helpers"
    return each.joined(separator: ", ") + ", " + noun
  }

  /// `$DOCKER_CONFIG/config.json`, else `$HOME/.docker/config.json`.
  static func configFile(_ variables: EnvironmentVariables) throws(SetupDockerError) -> String {
    if let directory = variables["DOCKER_CONFIG"], !directory.isEmpty { return FilePath.join(directory, "config.json") }
    guard let home = variables["HOME"], home.hasPrefix("/") else {
      throw SetupDockerError("HOME is not set to an absolute path; set DOCKER_CONFIG to docker's config directory")
    }
    return FilePath.join(home, ".docker/config.json")
  }

  /// Where the symbolic link `path` points (relative targets resolved from its directory),
  /// or nil when `path` is not a link.
  static func linkTarget(_ path: String) -> String? {
    guard let info = try? FileSystem.linkStatus(path), info.kind == .symbolicLink,
      let target = FileSystem.readLink(path)
    else { return nil }
    return target.hasPrefix("/") ? target : FilePath.join(FilePath.directory(of: path), target)
  }

  /// The bytes of the regular file `path`, or nil when there is none.
  static func read(_ path: String) throws(SetupDockerError) -> [UInt8]? {
    do {
      return try SecureFile.readRegularFile(path, limit: maximumFileSize).bytes
    } catch {
      switch error {
      case .missing: return nil
      case .symbolicLink: throw SetupDockerError("\(path) is a link to a link; nothing was changed")
      case .notRegularFile: throw SetupDockerError("\(path) is not a regular file; nothing was changed")
      case .tooLarge: throw SetupDockerError("\(path) is larger than 1 MiB; nothing was changed")
      case .system(let error): throw SetupDockerError("cannot read \(path): \(error); nothing was changed")
      }
    }
  }
}

/// `setup-docker` could not read or use docker's config file: exit 1, nothing changed.
struct SetupDockerError: ReportableError, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
  var exitStatus: ExitStatus { .failure }
  var errorKind: ErrorKind { .system }
}
