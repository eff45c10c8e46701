/// What fixes a failure, as data. Core's messages name the remedy and leave its words to the voice
/// of whoever shows the message (``Remedies``): the command line shows a command to run, a tool
/// built on the library says it in words, or with the login command it says it has.
package enum Remedy: Hashable, Sendable {
  /// Log in to `host` (nil: the default host), as `user`, in `way` (nil: the usual way).
  case logIn(host: String?, user: String? = nil, way: LoginWay? = nil)
  /// Store a token the person made (such as a personal access token) as the login to `host`.
  case storeToken(host: String)
  /// Keep tokens in the credentials file instead of the keyring, moving the stored ones there.
  case moveTokensToFile
  /// Forget the login of `user` on `host` on this machine only, without revoking it.
  case forgetLogin(host: String, user: String)
  /// Set `setting` for `host` (nil: the default host) to `value` (a placeholder such as `ID`).
  case setConfig(Setting, host: String?, value: String)
  /// Name the host `command` is for, or set the default host.
  case chooseHost(command: String)
  /// Read about the settings.
  case readAboutSettings

  /// How a login is done.
  package enum LoginWay: Hashable, Sendable {
    case browser, device
  }
}

/// A choice a login can be given (the command line's option, `LoginOptions` in the library).
package enum LoginChoice: Hashable, Sendable {
  case browserFlow, deviceFlow, scopes

  /// The choice in words, for a voice that names no option ("set LoginOptions.flow to .browser").
  var inWords: String {
    switch self {
    case .browserFlow: "set LoginOptions.flow to .browser"
    case .deviceFlow: "set LoginOptions.flow to .device"
    case .scopes: "set LoginOptions.scopes"
    }
  }
}

/// A setting, as data: the command line names it by its config-file key (``configKey``), the
/// library by its `GitHubLoginConfiguration` property (``propertyName``).
package enum Setting: String, CaseIterable, Sendable {
  case host, clientID, clientSecret, scopes, authorizeURL, tokenURL, deviceCodeURL, apiURL, caFile, revocationURL
  case store

  /// The key in the config file.
  package var configKey: String {
    switch self {
    case .host: "host"
    case .clientID: "client_id"
    case .clientSecret: "client_secret"
    case .scopes: "scopes"
    case .authorizeURL: "authorize_url"
    case .tokenURL: "token_url"
    case .deviceCodeURL: "device_code_url"
    case .apiURL: "api_url"
    case .caFile: "ca_file"
    case .revocationURL: "revocation_url"
    case .store: "store"
    }
  }

  /// The `GitHubLoginConfiguration` property.
  package var propertyName: String {
    switch self {
    case .store: "tokenStore"
    default: rawValue
    }
  }
}

/// How the messages of one client say remedies and settings: the command line's voice (in
/// GHLoginCLI) shows commands and config keys; a library tool's (in GHLoginKit) says them in words
/// and names its configuration's properties.
package protocol RemedyVoice: Sendable {
  /// `remedy` as a command the person can run, or nil when this voice says it in words.
  func command(for remedy: Remedy) -> String?
  /// The option that makes `choice` on the command line, or nil when this voice has none.
  func option(for choice: LoginChoice) -> String?
  /// The command a tool's users log in with (`"mytool login"`), or nil.
  var loginCommand: String? { get }
  /// What this voice calls `setting`.
  func name(of setting: Setting) -> String
  /// The environment variable that sets `setting` in this voice, or nil when it names none.
  func variable(for setting: Setting) -> String?
  /// The name of the program that stores the logins, for prose ("another ghlogin is still using
  /// the credentials"), or nil when this voice does not name it (the sentence says "another
  /// program" or words of its own).
  var programName: String? { get }
}

/// The voice of a message: whose commands its remedies name (``RemedyVoice``).
///
/// Each error that names a remedy renders its message for one of these
/// (``ReportableError/message(_:)``); ``ReportableError/message`` uses ``words``.
package struct Remedies: Sendable {
  package let voice: any RemedyVoice

  package init(_ voice: any RemedyVoice) { self.voice = voice }

  /// Remedies in words, naming no command and settings by their config key: Core's own voice,
  /// for ``ReportableError/message``.
  package static let words = Remedies(WordsVoice())

  /// Whether this voice shows remedies as commands to run.
  var namesCommands: Bool { voice.command(for: .logIn(host: nil)) != nil }

  /// `remedy` as a command to show, or nil.
  package func command(_ remedy: Remedy) -> String? { voice.command(for: remedy) }

  /// What this voice calls `setting`.
  package func name(_ setting: Setting) -> String { voice.name(of: setting) }

  /// The environment variable that sets `setting`, or nil when this voice names none.
  package func variable(_ setting: Setting) -> String? { voice.variable(for: setting) }

  /// Whether this voice names settings by their config-file keys.
  var namesSettingsByKey: Bool { name(.clientID) == Setting.clientID.configKey }

  /// The setting at config-file `key` (a path such as `hosts.H.client_id` too) as this voice
  /// shows it: quoted as in the file (`"client_id"`), or the setting's own name (`clientID`).
  package func quoted(key: String) -> String {
    let last = key.split(separator: ".").last.map(String.init) ?? key
    guard !namesSettingsByKey, let setting = Setting.allCases.first(where: { $0.configKey == last }) else {
      return "\"\(key)\""
    }
    return name(setting)
  }

  /// The option for `choice`, or nil.
  package func option(_ choice: LoginChoice) -> String? { voice.option(for: choice) }

  /// How to make `choice`: "pass --web", or in words.
  package func pass(_ choice: LoginChoice) -> String { option(choice).map { "pass " + $0 } ?? choice.inWords }

  /// The name of the program that stores the logins, or nil when this voice does not name it.
  package var program: String? { voice.programName }

  /// "another NAME", or "another program" when this voice names no program.
  var anotherProgram: String { "another " + (program ?? "program") }

  /// The command that logs in to `host`, if this voice names one: the command line's, or the
  /// tool's login command.
  func logInCommand(host: String?, user: String? = nil, way: Remedy.LoginWay? = nil) -> String? {
    voice.command(for: .logIn(host: host, user: user, way: way)) ?? voice.loginCommand.map { Sanitize.terminal($0) }
  }

  /// What to do to log in: "run 'COMMAND'" or, naming no command, "log in again" (or "log in
  /// first" when `again` is false).
  package func logIn(host: String, user: String? = nil, way: Remedy.LoginWay? = nil, again: Bool = true) -> String {
    guard let command = logInCommand(host: host, user: user, way: way) else {
      return again ? "log in again" : "log in first"
    }
    return "run '\(command)'"
  }

  /// What to do to try the login again: "run 'COMMAND' again", or "log in again".
  package func retry(host: String) -> String {
    logInCommand(host: host).map { "run '\($0)' again" } ?? "log in again"
  }

  /// `remedy` starting a sentence: its first letter capitalised ("log in again" → "Log in again").
  static func sentence(_ remedy: String) -> String {
    remedy.prefix(1).uppercased() + remedy.dropFirst()
  }
}

/// Core's voice: no command, settings by config key.
private struct WordsVoice: RemedyVoice {
  func command(for remedy: Remedy) -> String? { nil }
  func option(for choice: LoginChoice) -> String? { nil }
  var loginCommand: String? { nil }
  func name(of setting: Setting) -> String { setting.configKey }
  func variable(for setting: Setting) -> String? { nil }
  var programName: String? { nil }
}

/// Commands shown in hints, written so that they can be copied and run as printed: each word
/// quoted for sh only when it has to be.
package enum CommandHint {
  /// `words` joined with spaces, each one sh-quoted when it holds anything but letters, digits
  /// and `._:/@%+=,-`.
  package static func line(_ words: [String]) -> String {
    words.map(word).joined(separator: " ")
  }

  /// One word, sh-quoted when needed (control characters are shown escaped, never raw).
  package static func word(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
          || "._:/@%+=,-".utf8.contains(byte)
      }
    return plain ? text : ShellQuoting.quote(Sanitize.terminal(text), for: .sh)
  }
}
