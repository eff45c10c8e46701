/// An error whose fix is a setting in the config file. It names the config keys to check; the
/// layer that knows which file was read (the command's error reporting, the refresher) names the
/// file, so no config path travels through `OAuth/` only to decorate a message.
package protocol ConfigSettingError: ReportableError {
  /// The config keys to check (`client_id`, `client_secret`, `authorize_url`, ...); empty when
  /// this particular error is not a configuration problem.
  var configKeys: [String] { get }
  /// The message, naming `configFile` (or "the config file" when nil), its remedies for
  /// `remedies`.
  func message(configFile: String?, remedies: Remedies) -> String
}

extension ConfigSettingError {
  package var message: String { message(configFile: nil, remedies: .words) }
  package func message(_ remedies: Remedies) -> String { message(configFile: nil, remedies: remedies) }

  /// `file` as a message shows it: sanitised and bounded, or "the config file".
  package static func shown(_ file: String?) -> String {
    file.map { Sanitize.terminal($0, maxCharacters: 200) } ?? "the config file"
  }
}

/// A ``ConfigSettingError`` with the config file it names, quoted in another error's message (a
/// refresh failure's) and rendered, like it, in the voice of whoever shows it.
package struct ConfigSettingInFile: ReportableError {
  package var error: any ConfigSettingError
  package var configFile: String?

  package init(_ error: any ConfigSettingError, configFile: String?) {
    self.error = error
    self.configFile = configFile
  }

  package var message: String { message(.words) }
  package func message(_ remedies: Remedies) -> String { error.message(configFile: configFile, remedies: remedies) }
  package var exitStatus: ExitStatus { error.exitStatus }
  package var errorKind: ErrorKind { error.errorKind }
}
