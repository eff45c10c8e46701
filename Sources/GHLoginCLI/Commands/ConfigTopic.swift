import GHLoginCore

/// `ghlogin help config`: where the files are (as resolved for this environment), every config
/// key and environment variable with its meaning, and an example. The man page's FILES,
/// CONFIGURATION and ENVIRONMENT sections come from the same tables.
enum ConfigTopic {
  /// Each config key and what it does, in the order the help lists them.
  static let keys: [(name: String, meaning: String)] = [
    (
      "client_id",
      "The OAuth app's client ID. Needed to log in (or GHLOGIN_CLIENT_ID). At the top level (as "
        + "GHLOGIN_CLIENT_ID) it is the default host's app only: another host needs its own in hosts."
    ),
    (
      "client_secret",
      "The app's client secret: the browser flow and revocation need it. Leave it out (or empty) "
        + "for a public client; the device flow never sends it. Set it with "
        + "'ghlogin config set client_secret -', which reads it from stdin."
    ),
    ("scopes", "The scopes to ask for, a list such as [\"repo\", \"read:org\"] (default: repo, read:org, gist)."),
    ("host", "The host commands use when neither --host nor GH_HOST says (default: github.com)."),
    ("store", "Where tokens are kept: file (the 0600 credentials file, the default) or keyring (the Secret Service)."),
    ("ca_file", "A PEM file of CA certificates trusted on top of the system store (a private CA)."),
    ("authorize_url", "The authorization endpoint (default: https://HOST/login/oauth/authorize)."),
    ("token_url", "The token endpoint (default: https://HOST/login/oauth/access_token)."),
    ("device_code_url", "The device-code endpoint (default: https://HOST/login/device/code)."),
    ("api_url", "The REST API (default: https://api.github.com, or https://HOST/api/v3)."),
    (
      "revocation_url",
      "An RFC 7009 revocation endpoint, for an OAuth server that is not GitHub: logout revokes the "
        + "refresh token, then the access token there (default: none; GitHub hosts use GitHub's own revocation)."
    ),
    (
      "container_registries",
      "Container registries (host[:port]) whose credential helper, docker-credential-ghlogin, answers "
        + "with this host's login, on top of the built-in ghcr.io and docker.pkg.github.com (github.com) and "
        + "containers.HOST, docker.HOST (an Enterprise host); at the top level for the config's host. "
        + "Example: ghlogin config set --host ghe.example.com container_registries registry.example.com:5000"
    ),
    (
      "account_rules",
      "Which account to use where, a list (top level only) such as [{\"dir\": \"~/work\", \"account\": "
        + "\"alice-work\"}, {\"host\": \"github.com\", \"owner\": \"acme\", \"account\": \"alice-work\"}]: each rule has "
        + "exactly one of dir (this directory or below) and owner (the repository's owner in git's path, "
        + "with credential.useHttpPath), an account, and optionally a host. The first that matches wins, after "
        + "--user, GHLOGIN_USER and the repository's git config; see doc/accounts.md."
    ),
    (
      "hosts",
      "Per-host blocks, {\"HOST\": {...}}, holding any of the keys above except host, store and hosts; "
        + "a block's client_id comes with its own client_secret."
    ),
  ]

  /// Each environment variable ghlogin reads and what it does.
  static let variables: [(name: String, meaning: String)] = [
    ("GHLOGIN_CONFIG", "The config file to use instead of the default; it must exist."),
    ("GHLOGIN_CREDENTIALS", "The credentials file to use instead of the default."),
    (
      "GHLOGIN_CLIENT_ID",
      "The default host's client ID, over the config's (its client_secret is then not used); other hosts "
        + "keep their own hosts.HOST app."
    ),
    (
      "GHLOGIN_CLIENT_SECRET",
      "The client secret of GHLOGIN_CLIENT_ID's app; ignored, with a warning, without GHLOGIN_CLIENT_ID "
        + "(a secret is only sent with the client ID of its own layer)."
    ),
    ("GHLOGIN_USER", "The account to use, over the repository's git config, account_rules and the active one."),
    ("GH_HOST", "The host to use when --host is not given."),
    ("XDG_CONFIG_HOME", "The directory holding ghlogin/ (default: ~/.config)."),
    (
      "XDG_CONFIG_DIRS",
      "Directories searched for the system file ghlogin/config.json, colon-separated (default: /etc/xdg); "
        + "the first that has one is the layer below the user's file."
    ),
    ("https_proxy, HTTPS_PROXY", "A proxy for HTTPS (http://[user:password@]proxy:port); lower case wins."),
    ("no_proxy, NO_PROXY", "Hosts, domains, addresses and CIDR ranges not to reach through the proxy."),
    ("SSL_CERT_FILE, SSL_CERT_DIR", "CA certificates to trust instead of the system's (OpenSSL's variables)."),
    ("BROWSER", "The browser to open (default: xdg-open)."),
    ("NO_COLOR, CLICOLOR=0, TERM=dumb", "No colour or emphasis on the terminal."),
  ]

  /// A config file for github.com and one GitHub Enterprise Server.
  static let example = """
    {
      "client_id": "Ov23liEXAMPLE",
      "scopes": ["repo", "read:org"],
      "hosts": {
        "ghe.example.com": {"client_id": "Ov23liENTERPRISE", "ca_file": "/etc/ssl/corp-ca.pem"}
      }
    }
    """

  /// The default locations, for the man page (no environment at hand).
  static let defaultPaths = """
    config: $GHLOGIN_CONFIG, else $XDG_CONFIG_HOME/ghlogin/config.json, else ~/.config/ghlogin/config.json
    system config (below it): the first $XDG_CONFIG_DIRS/ghlogin/config.json (default /etc/xdg/ghlogin/config.json)
    credentials: $GHLOGIN_CREDENTIALS, else $XDG_CONFIG_HOME/ghlogin/credentials.json, else ~/.config/ghlogin/credentials.json
    """

  /// The whole topic, with the paths resolved from `variables` (or why they cannot be).
  static func text(variables environment: EnvironmentVariables) -> String {
    var text = "Configuration\n\nFiles (as resolved now):\n"
    do {
      let paths = try ConfigPaths.resolve(environment)
      text += "  config       \(Sanitize.terminal(paths.configFile))\n"
      text += "  credentials  \(Sanitize.terminal(paths.credentialsFile))\n"
    } catch {
      text += "  (cannot be resolved: \(error.cliMessage))\n"
    }
    text += layers(variables: environment)
    text += """

      The config is JSON; ghlogin never writes it except through 'ghlogin config set' and the guided
      set-up of 'ghlogin auth', which write only the user's file. Keys:

      """
    text += table(keys)
    text += "\nEnvironment variables:\n" + table(Self.variables)
    text += """

      Example:
      \(example.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

      Edit it without an editor (atomically, checked as on load, other keys kept):
        ghlogin config set client_id Ov23liEXAMPLE
        ghlogin config set client_secret -           (reads the secret from stdin)
        ghlogin config set scopes repo,read:org
        ghlogin config set --host ghe.example.com client_id Ov23liENTERPRISE
        ghlogin config get client_id
        ghlogin config unset scopes
        ghlogin config path

      """
    return text
  }

  /// The layers as resolved now, lowest first, and each key set with the layer that set it.
  static func layers(variables: EnvironmentVariables) -> String {
    var text = "\nLayers (lowest first; a higher one wins key by key, but client_id and client_secret come\n"
    text += "from the same layer; GHLOGIN_CONFIG leaves only its file and the built-in app):\n"
    text += "  built-in     \(BuiltInApp.summary(BuiltInApp.compiled))\n"
    let config: Config
    do {
      let paths = try ConfigPaths.resolve(variables)
      config = try Config.load(paths: paths, variables: variables, unknownKeys: .lenient)
    } catch {
      return text + "  (cannot be read: \(Sanitize.terminal(error.cliMessage)))\n"
    }
    let candidates = ConfigPaths.systemConfigCandidates(variables)
    if let system = config.system {
      text += "  system       \(Sanitize.terminal(system.file))\n"
    } else if candidates.isEmpty {
      text += "  system       not read (GHLOGIN_CONFIG names the only file)\n"
    } else {
      let list = candidates.map { Sanitize.terminal($0) }.joined(separator: ", ")
      text += "  system       none (looked for \(list); set by XDG_CONFIG_DIRS, default /etc/xdg)\n"
    }
    text += "  user         \(Sanitize.terminal(config.file))\(config.fileExisted ? "" : " (none yet)")\n"
    text += "  environment  GHLOGIN_CLIENT_ID, GHLOGIN_CLIENT_SECRET\n"
    let entries = config.entries
    guard !entries.isEmpty else { return text + "\nNo key is set in any layer.\n" }
    text += "\nKeys set now, and the layer that set each:\n"
    let width = (entries.map { Sanitize.terminal($0.path).count }.max() ?? 0) + 2
    for entry in entries {
      let named = entry.source.layer != .environment
      let place = named ? " (\(Sanitize.terminal(entry.source.location)))" : ""
      let note = entry.inEffect ? "" : " (not used: a higher layer sets it, or its client_id is another layer's)"
      text += "  " + Sanitize.terminal(entry.path).padded(to: width) + entry.source.layer.name + place + note + "\n"
    }
    return text
  }

  /// `  name  meaning` rows, the meaning wrapped at 100 columns under itself.
  private static func table(_ rows: [(name: String, meaning: String)]) -> String {
    let width = (rows.map(\.name.count).max() ?? 0) + 2
    var text = ""
    for row in rows {
      let lines = wrap(row.meaning, width: 100 - 2 - width)
      text += "  " + row.name.padded(to: width) + (lines.first ?? "") + "\n"
      for line in lines.dropFirst() { text += String(repeating: " ", count: 2 + width) + line + "\n" }
    }
    return text
  }

  /// `text` split into lines of at most `width` characters, at spaces.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
