import GHLoginCore

/// `docker-credential-ghlogin get|store|erase|list|version` (also the hidden `ghlogin
/// docker-credential ACTION`): the credential helper container tools run for the registries
/// `setup-docker` names in `credHelpers` (``DockerCredentialAnswer``).
///
/// `get` answers as `token` does (``Workspace/usableCredential(_:in:)``), only for a registry
/// the exact table maps to a GitHub host (``RegistryMap``, R104). Every failure prints exactly
/// ``DockerCredentialAnswer/notFound`` and exits 1, the reason on stderr, so clients go on
/// without credentials. It never prompts and never changes a login (R105).
struct DockerCredentialCommand: Command {
  /// The name of the link `scripts/install.sh` makes; run under it, ghlogin is this command.
  static let linkName = "docker-credential-ghlogin"

  static let configuration = CommandConfiguration(
    name: "docker-credential", abstract: "the container registries' credential helper (configured by setup-docker)",
    discussion: """
      docker, podman, skopeo and buildah run this as docker-credential-ghlogin ACTION.
        get      reads a registry on standard input and answers {"ServerURL","Username","Secret"}
                 with the login of the GitHub host it maps to (ghcr.io and docker.pkg.github.com:
                 github.com; containers.HOST and docker.HOST: an Enterprise HOST; and the config's
                 container_registries); anything else: 'credentials not found in native keychain'
        store    accepts only what get would answer (docker login), and stores nothing
        erase    changes nothing (run 'ghlogin logout' to remove a login)
        list     the mapped registries with a login, and the login (never a token)
        version  one line
      """,
    arguments: [ArgumentSpec("action", help: "get, store, erase, list or version")],
    isHidden: true)

  var action: String

  init(_ arguments: ParsedArguments) { action = arguments.positionals.first ?? "" }

  func run(in environment: Environment) throws -> ExitStatus {
    switch action {
    case "get": return get(in: environment)
    case "store": return store(in: environment)
    case "erase":
      _ = readInput(environment)
      environment.stderr.write(
        "ghlogin: docker-credential-ghlogin erase: nothing was changed; the GitHub login stays. "
          + "Run 'ghlogin logout' to remove it.\n")
      return .success
    case "list": return list(in: environment)
    case "version":
      environment.stdout.write("\(Self.linkName) (ghlogin) \(Release.version)\n")
      return .success
    default:
      environment.stdout.write("unknown credential action; use get, store, erase, list or version\n")
      return .failure
    }
  }

  /// Standard input, at most 64 KiB; nil when it is a terminal (nothing waits on a person) or longer.
  private func readInput(_ environment: Environment) -> [UInt8]? {
    guard !environment.stdin.isTerminal else { return nil }
    return environment.stdin.readAll(limit: RegistryAddress.maximumInputSize)
  }

  /// A reason `get` gives no credentials, and the command that fixes it.
  struct Failure: Error {
    var reason: String
    var fix: String?
  }

  /// The account `get` answers with for `registry` (normalised), refreshed when due.
  static func account(
    for registry: String, in workspace: Workspace, refreshing: Bool
  ) throws(Failure) -> (host: String, credential: Credential) {
    let credentials: Credentials
    var lookup: RegistryMap.Lookup?
    do {
      // The file alone (the keyring items of the one login answered are read when it is
      // chosen), and only the entry of the registry's host is decoded: another host's does not fail it.
      credentials = try workspace.store.loadFile(choosingHost: { names in
        let found = RegistryMap(config: workspace.config, loggedIn: names).lookup(registry)
        lookup = found
        guard case .host(let name) = found else { return nil }
        return name
      })
    } catch {
      throw failure(error, host: nil)
    }
    let host: String
    // No file: the lookup with no logins, as before.
    switch lookup ?? RegistryMap(config: workspace.config, loggedIn: []).lookup(registry) {
    case .host(let name): host = name
    case .unmapped:
      throw Failure(
        reason: "\(registry) is not a registry ghlogin answers for (only ghcr.io, docker.pkg.github.com, "
          + "an Enterprise host's containers.HOST and docker.HOST, and container_registries in \(workspace.paths.configFile))",
        fix: "to use a GitHub login there, run 'ghlogin config set [--host HOST] container_registries \(registry)'")
    case .ambiguous(let hosts):
      throw Failure(
        reason: "\(registry) is in container_registries for several hosts (\(hosts.joined(separator: ", "))); "
          + "ghlogin answers for none of them",
        fix: "keep it for one host only: edit \(workspace.paths.configFile)")
    }
    do {
      // Inside `ghlogin run`: the run's token for the run's host, nothing else (issue 34 §1).
      if let run = workspace.environment.variables["GHLOGIN_RUN"] {
        let runToken = try workspace.runToken(id: run, host: host)
        return (host, Credential(login: runToken.login, userID: 0, token: runToken.token, createdAt: 0))
      }
      if refreshing {
        let (_, credential) = try workspace.usableCredential(AccountSelection(host: host), in: credentials)
        return (host, credential)
      }
      let githubHost = try GitHubHost(validating: host)
      let account = try workspace.account(on: githubHost, user: nil, in: credentials)
      return (host, try workspace.store.resolvedSecrets(of: account, on: host))
    } catch let error as NotLoggedIn where error.chosenBy != nil {
      // A rule named an account that is not logged in (R112): that login, never another.
      throw Failure(reason: error.cliMessage, fix: nil)
    } catch is NotLoggedIn {
      throw Failure(
        reason: "\(registry) needs a \(host) login with read:packages, and there is none",
        fix: "run '\(CommandHint.auth(host: host)) --scopes \(scopes(for: host, in: workspace))'")
    } catch {
      throw failure(error, host: host)
    }
  }

  /// The scopes a new login for registries should ask for: the configured ones (or the
  /// defaults) and `read:packages`.
  private static func scopes(for host: String, in workspace: Workspace) -> String {
    let base = workspace.config.settings(for: host).scopes ?? Workspace.defaultScopes
    return (base + (base.contains("read:packages") ? [] : ["read:packages"])).joined(separator: ",")
  }

  /// Any other error (a config that cannot be used, an unreadable store, a locked keyring, a
  /// refresh that failed) as a ``Failure``: its own message, which names its fix.
  private static func failure(_ error: any Error, host: String?) -> Failure {
    let message = (error as? any ReportableError)?.cliMessage ?? "\(error)"
    let fix =
      host.map { "run 'ghlogin status --host \($0)' to see the login's state" }
      ?? "run 'ghlogin status' to see what is wrong"
    return Failure(reason: message, fix: fix)
  }

  /// `get`: the answer, or ``DockerCredentialAnswer/notFound`` with the reason on stderr (exit 1).
  private func get(in environment: Environment) -> ExitStatus {
    func notFound(_ failure: Failure) -> ExitStatus {
      environment.stdout.write(DockerCredentialAnswer.notFound)
      environment.stderr.write("ghlogin: \(Self.linkName): \(failure.reason)\n")
      if let fix = failure.fix { environment.stderr.write("ghlogin: \(fix)\n") }
      return .failure
    }
    guard !environment.stdin.isTerminal else {
      return notFound(Failure(reason: "the registry is read from standard input, which is a terminal", fix: nil))
    }
    guard let input = environment.stdin.readAll(limit: RegistryAddress.maximumInputSize) else {
      return notFound(Failure(reason: "the input is longer than \(RegistryAddress.maximumInputSize) bytes", fix: nil))
    }
    guard let registry = RegistryAddress.normalize(input) else {
      return notFound(
        Failure(
          reason: "the input is not a registry host name (it is empty, or has user info, whitespace, "
            + "a control or non-ASCII character, or a scheme other than https://)", fix: nil))
    }
    do {
      let workspace: Workspace
      do { workspace = try Workspace(environment, quiet: true, unknownConfigKeys: .lenient) } catch {
        throw Self.failure(error, host: nil)
      }
      let (host, account) = try Self.account(for: registry, in: workspace, refreshing: true)
      let serverURL = String(decoding: RegistryAddress.trimmed(input), as: UTF8.self)
      guard
        let answer = DockerCredentialAnswer.credentials(
          serverURL: serverURL, username: account.login, secret: account.token)
      else {
        throw Failure(
          reason: "the stored login for \(host) cannot be given to a registry",
          fix: "run '\(CommandHint.auth(host: host))'")
      }
      environment.stdout.write(answer)
      return .success
    } catch let failure as Failure {
      return notFound(failure)
    } catch {
      return notFound(Self.failure(error, host: nil))
    }
  }

  /// `store`: exit 0, writing nothing, when the input is what `get` would answer (docker does
  /// this after `docker login`); anything else is refused, quoting none of it (R105).
  private func store(in environment: Environment) -> ExitStatus {
    func refuse() -> ExitStatus {
      environment.stdout.write("ghlogin stores no registry credentials; it answers from its GitHub login\n")
      environment.stderr.write(
        "ghlogin: \(Self.linkName) store: refusing to store a registry credential; nothing was written. "
          + "ghlogin answers with the GitHub login of 'ghlogin auth'; remove the credential from the tool "
          + "that tried to store it (for docker: 'docker logout REGISTRY').\n")
      return .failure
    }
    guard let input = readInput(environment), let stored = DockerCredentialAnswer.parseStored(input),
      let registry = RegistryAddress.normalize(stored.serverURL),
      let workspace = try? Workspace(environment, quiet: true, unknownConfigKeys: .lenient),
      let (_, account) = try? Self.account(for: registry, in: workspace, refreshing: false),
      stored.username == account.login, CredentialHostMatch.constantTimeEqual(stored.secret, account.token)
    else { return refuse() }
    return .success
  }

  /// `list`: registry → login for each mapped registry with a login; `{}` otherwise.
  private func list(in environment: Environment) -> ExitStatus {
    guard let workspace = try? Workspace(environment, quiet: true, unknownConfigKeys: .lenient),
      let credentials = try? workspace.store.load()
    else {
      environment.stdout.write("{}\n")
      environment.stderr.write("ghlogin: \(Self.linkName) list: cannot read the logins; run 'ghlogin status'\n")
      return .failure
    }
    let map = RegistryMap(config: workspace.config, loggedIn: Array(credentials.hosts.keys))
    var entries: [(registry: String, username: String)] = []
    for (registry, host) in map.unambiguous {
      guard let githubHost = try? GitHubHost(validating: host),
        let account = try? workspace.account(on: githubHost, user: nil, in: credentials)
      else { continue }
      entries.append((registry, account.login))
    }
    environment.stdout.write(DockerCredentialAnswer.list(entries))
    return .success
  }
}
