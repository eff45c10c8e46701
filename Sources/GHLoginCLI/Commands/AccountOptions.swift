import GHLoginCore

/// `--host` and `--user`, shared by the commands that work on one account.
extension AccountSelection {
  /// The selection the command line made.
  init(_ arguments: ParsedArguments) {
    self.init(host: arguments.value("host"), user: arguments.value("user"))
  }
}

extension OptionSpec {
  static let host = OptionSpec.option(
    "host", short: "h", value: "HOST",
    help: "The GitHub host (default: GH_HOST, then the config's host, then github.com)",
    aliases: ["hostname"])
  static let user = OptionSpec.option(
    "user", value: "LOGIN", help: "The account on that host (default: GHLOGIN_USER, then the active account)")
}
