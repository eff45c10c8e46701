/// GitHub's `app-permissions` schema: every permission a GitHub App token may be given, and the
/// levels GitHub accepts for each (issue 34 §2).
///
/// Copied from the `app-permissions` object of GitHub's REST API description
/// (`components.schemas.app-permissions` in github/rest-api-description, the body of
/// "Create a scoped access token", `POST /applications/{client_id}/token/scoped`, and of
/// "Create an installation access token"), as of ``asOf``. GitHub adds permissions over time:
/// a name missing here is refused with a note that this list may be older than GitHub's.
package enum AppPermissions {
  /// When this copy was taken.
  package static let asOf = "2026-12-05"

  /// Every permission name and the levels GitHub accepts for it, least to most.
  package static let levels: [String: [String]] = {
    var table: [String: [String]] = [:]
    for name in readOrWrite { table[name] = ["read", "write"] }
    for name in readWriteOrAdmin { table[name] = ["read", "write", "admin"] }
    for name in readOnly { table[name] = ["read"] }
    for name in writeOnly { table[name] = ["write"] }
    return table
  }()

  /// Every known name, sorted (for suggestions and help).
  package static let names: [String] = levels.keys.sorted()

  static let readOrWrite = [
    "actions", "administration", "artifact_metadata", "attestations", "checks", "code_quality", "codespaces",
    "contents", "custom_properties_for_organizations", "dependabot_secrets", "deployments", "discussions",
    "email_addresses", "environments", "followers", "git_ssh_keys", "gpg_keys", "interaction_limits", "issues",
    "members", "merge_queues", "metadata", "organization_administration", "organization_announcement_banners",
    "organization_copilot_agent_settings", "organization_copilot_seat_management", "organization_custom_org_roles",
    "organization_custom_roles", "organization_hooks", "organization_packages",
    "organization_personal_access_token_requests", "organization_personal_access_tokens", "organization_secrets",
    "organization_self_hosted_runners", "organization_user_blocking", "packages", "pages", "pull_requests",
    "repository_custom_properties", "repository_hooks", "secret_scanning_alerts", "secrets", "security_events",
    "single_file", "starring", "statuses", "vulnerability_alerts",
  ]
  static let readWriteOrAdmin = [
    "enterprise_custom_properties_for_organizations", "organization_custom_properties", "organization_projects",
    "repository_projects",
  ]
  static let readOnly = ["organization_events", "organization_plan"]
  static let writeOnly = ["profile", "workflows"]

  /// The rank of a level, for "not above" comparisons: none 0, read 1, write 2, admin 3.
  package static func rank(_ level: String) -> Int {
    switch level {
    case "read": 1
    case "write": 2
    case "admin": 3
    default: 0
    }
  }
}
