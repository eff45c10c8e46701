import GHLoginCore

/// A tool's voice: remedies in words, or with the login command the tool says it has
/// (``GitHubLogin/loginCommand``), and settings by their ``GitHubLoginConfiguration``
/// property names. A tool's users may not have the `ghlogin` command at all.
struct LibraryVoice: RemedyVoice {
  var loginCommand: String?

  func command(for remedy: Remedy) -> String? { nil }

  func option(for choice: LoginChoice) -> String? { nil }

  func name(of setting: Setting) -> String { setting.propertyName }

  func variable(for setting: Setting) -> String? { nil }

  var programName: String? { nil }
}

extension Remedies {
  /// A tool's remedies, logging in with `loginCommand` (nil: said in words).
  static func tool(loginCommand: String?) -> Remedies { Remedies(LibraryVoice(loginCommand: loginCommand)) }
}
