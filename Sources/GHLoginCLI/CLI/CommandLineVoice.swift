import GHLoginCore

/// The command line's voice: every remedy is the `ghlogin` command that does it, every setting its
/// config-file key. Core's errors and notices carry remedies as data (``Remedy``); this is the one
/// place they become `ghlogin …` lines.
struct CommandLineVoice: RemedyVoice {
  func command(for remedy: Remedy) -> String? {
    switch remedy {
    case .logIn(let host, let user, let way):
      let option: [String] =
        switch way {
        case .browser: ["--web"]
        case .device: ["--device"]
        case nil: []
        }
      return ([CommandHint.auth(host: host ?? DefaultHost.name, user: user)] + option).joined(separator: " ")
    case .storeToken(let host):
      return CommandHint.line(["ghlogin", "auth", "--with-token", "--host", host])
    case .moveTokensToFile:
      return "ghlogin migrate --to file"
    case .forgetLogin(let host, let user):
      return CommandHint.line(["ghlogin", "logout", "--host", host, "--user", user, "--local-only"])
    case .setConfig(let setting, let host, let value):
      return CommandHint.line(
        ["ghlogin", "config", "set"] + (host.map { ["--host", $0] } ?? []) + [setting.configKey])
        + " " + value
    case .chooseHost(let command):
      return "ghlogin \(command) --host HOST"
    case .readAboutSettings:
      return "ghlogin help config"
    }
  }

  func option(for choice: LoginChoice) -> String? {
    switch choice {
    case .browserFlow: "--web"
    case .deviceFlow: "--device"
    case .scopes: "--scopes"
    }
  }

  var loginCommand: String? { nil }

  func name(of setting: Setting) -> String { setting.configKey }

  func variable(for setting: Setting) -> String? {
    switch setting {
    case .clientID: "GHLOGIN_CLIENT_ID"
    case .clientSecret: "GHLOGIN_CLIENT_SECRET"
    default: nil
    }
  }

  var programName: String? { "ghlogin" }
}

extension Remedies {
  /// The `ghlogin` command line's remedies.
  static let ghlogin = Remedies(CommandLineVoice())
}

extension CommandHint {
  /// `ghlogin auth`, with `--host HOST` unless the host is github.com and `--user LOGIN` when given.
  static func auth(host: String, user: String? = nil) -> String {
    var words = ["ghlogin", "auth"]
    if host != DefaultHost.name { words += ["--host", host] }
    if let user { words += ["--user", user] }
    return line(words)
  }
}

extension ReportableError {
  /// The message as the command line shows it: remedies as `ghlogin` commands.
  var cliMessage: String { message(.ghlogin) }
}

extension ConfigNotice {
  /// The line the command line prints: `ghlogin: warning: TEXT` (or `ghlogin: note: TEXT`) and a
  /// newline.
  var cliLine: String { "ghlogin: \(isWarning ? "warning" : "note"): \(text(.ghlogin))\n" }
}

extension [ConfigNotice] {
  /// The lines the command line prints, joined; nil when there are none.
  var cliLines: String? { isEmpty ? nil : map(\.cliLine).joined() }
}

extension ConfigSettingError {
  /// The command line's message, naming `configFile`.
  func message(configFile: String?) -> String { message(configFile: configFile, remedies: .ghlogin) }
}
