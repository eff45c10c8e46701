import GHLoginCore

/// `--repo` and `--permission`, shared by `token` and `env` (issue 34 §1).
extension OptionSpec {
  static let repo = OptionSpec.list(
    "repo", value: "OWNER/NAME[,...]",
    help: "Print a new token narrowed to these repositories, all of one owner (repeatable)")
  static let permission = OptionSpec.list(
    "permission", value: "NAME:LEVEL[,...]",
    help: "With --repo: only these GitHub App permissions, e.g. contents:read (repeatable)")
}

extension Narrowing {
  /// The narrowing `--repo` and `--permission` ask for; nil without `--repo`. A value Core
  /// refuses is a usage error naming its option.
  static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Narrowing? {
    let repositories = arguments.list("repo")
    let permissions = arguments.list("permission")
    if repositories.isEmpty {
      if arguments.lists["repo"] != nil { throw UsageError("--repo needs at least one OWNER/NAME") }
      if arguments.lists["permission"] != nil { throw UsageError("--permission narrows a token only with --repo") }
      return nil
    }
    do {
      return try Narrowing(repositories: repositories, permissions: permissions)
    } catch {
      throw UsageError((error.isAboutPermissions ? "--permission: " : "--repo: ") + error.message)
    }
  }
}
