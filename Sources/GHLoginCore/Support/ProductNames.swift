/// The names that must stay `ghlogin` whoever uses Core: identifiers that other programs, files
/// already on disk, or other versions find things by. This is the one file in Core that spells
/// the product's name (`CoreVoiceTests` fails on the name anywhere else in `Sources/GHLoginCore`):
/// messages never name a command; their remedies are data (``Remedy``) that the command line
/// renders as `ghlogin` commands and a library tool in its own words.
enum ProductNames {
  /// The keyring items' `application` attribute, by which every item is found and cleared (R101).
  static let keyringApplication = "ghlogin"
  /// The start of a keyring item's label, as seahorse and `secret-tool` show it.
  static let keyringLabelPrefix = "ghlogin: "
  /// The directory of the config and credentials files under `$XDG_CONFIG_HOME` (or
  /// `~/.config`) and of the system config under each `$XDG_CONFIG_DIRS` entry.
  package static let configDirectory = "ghlogin"
  /// The product in the `User-Agent` header (`ghlogin/VERSION`).
  static let userAgentProduct = "ghlogin"
  /// The docker credential helper's name: docker runs `docker-credential-NAME`.
  static let dockerHelper = "ghlogin"
  /// How a git `credential.helper` value that runs the command ends (`!'/path/ghlogin' git-credential`),
  /// so `setup-git` recognises its own entry after the binary moved.
  static let gitHelperSuffix = "ghlogin' git-credential"
  /// The program's name when the process's `argv[0]` is unknown (tests, the library).
  package static let defaultProgramName = "ghlogin"
  /// The git config key naming the account for a repository (`git config ghlogin.account
  /// alice-work`, issue 33 §2): users' git config files hold it.
  package static let gitAccountKey = "ghlogin.account"
  /// The key of the agent protocol's version line (`ghlogin-agent=1`, doc/agent.md).
  package static let agentProtocolKey = "ghlogin-agent"
  /// The agent socket's directory under `/tmp` when there is no runtime directory (`ghlogin-UID`).
  package static let agentTemporaryPrefix = "ghlogin-"
}
