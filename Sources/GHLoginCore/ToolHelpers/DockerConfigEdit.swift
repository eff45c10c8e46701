/// The edit `ghlogin setup-docker` makes to docker's `config.json`: only `credHelpers`, every
/// other key kept as it was (order included). Never `credsStore`, never a token.
package enum DockerConfigEdit {
  /// The helper name docker appends to `docker-credential-`.
  static let helperName = ProductNames.dockerHelper

  /// `document` with `credHelpers[registry] = "ghlogin"` for each of `registries`, or, when
  /// `unset`, without those of them that name ghlogin (an entry naming another helper is kept).
  /// A `credHelpers` left empty by `unset` is removed.
  package static func apply(to document: JSONObject, registries: [String], unset: Bool) -> JSONObject {
    var document = document
    var helpers = document["credHelpers"]?.objectValue ?? JSONObject()
    for registry in registries {
      if unset {
        if helpers[registry]?.stringValue == helperName { helpers[registry] = nil }
      } else {
        helpers[registry] = .string(helperName)
      }
    }
    document["credHelpers"] = unset && helpers.isEmpty ? nil : .object(helpers)
    return document
  }

  /// The entries of `credHelpers` for `registries` that name another helper than ghlogin, in
  /// the order of `registries`: what setting them would replace (R109).
  package static func otherHelpers(
    in document: JSONObject, registries: [String]
  ) -> [(registry: String, value: JSONValue)] {
    guard let helpers = document["credHelpers"]?.objectValue else { return [] }
    return registries.compactMap { registry in
      guard let value = helpers[registry], value.stringValue != helperName else { return nil }
      return (registry, value)
    }
  }

  /// The registries of `registries` that a JSON object of `auths` (docker's `config.json`,
  /// containers' `auth.json`) holds an entry for, its keys normalised as a helper's input is.
  package static func registries(in auths: JSONValue?, among registries: [String]) -> [String] {
    guard let keys = auths?.objectValue?.keys else { return [] }
    let held = Set(keys.compactMap { RegistryAddress.normalize($0) })
    return registries.filter(held.contains)
  }

  /// What may keep a login from working for GitHub Packages: nil when it looks fine.
  /// GitHub documents classic personal access tokens (`ghp_`); OAuth app tokens (`gho_`) with
  /// `read:packages` work too; fine-grained (`github_pat_`) and GitHub App (`ghu_`) tokens may not.
  package static func tokenKindWarning(token: String) -> String? {
    if token.hasPrefix("github_pat_") { return "a fine-grained personal access token" }
    if token.hasPrefix("ghu_") || token.hasPrefix("ghs_") { return "a GitHub App token" }
    return nil
  }

  /// Whether `scopes` let a token read packages (`write:packages` implies `read:packages`).
  package static func canReadPackages(_ scopes: [String]) -> Bool {
    scopes.contains("read:packages") || scopes.contains("write:packages")
  }
}
