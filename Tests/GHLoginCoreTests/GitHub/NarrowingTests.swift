import Testing

import GHLoginTestSupport

@testable import GHLoginCore

@Suite struct NarrowingTests {
  @Test func repositoriesOfOneOwnerAndPermissions() throws {
    let narrowing = try Narrowing(
      repositories: ["acme/api", "acme/web.site", "ACME/api"], permissions: ["contents:read", "pull_requests:write"])
    #expect(narrowing.owner == "acme")
    #expect(narrowing.repositories == ["api", "web.site"])
    #expect(narrowing.permissions == ["contents": "read", "pull_requests": "write"])
    #expect(narrowing.permissionsDescription == "contents:read,pull_requests:write")
  }

  @Test func withoutPermissionsKeepsTheLogins() throws {
    let narrowing = try Narrowing(repositories: ["octo-cat/x_y"], permissions: [])
    #expect(narrowing.permissions.isEmpty)
    #expect(narrowing.permissionsDescription == "the login's own")
  }

  @Test(arguments: [
    ([String](), NarrowingError.noRepository),
    (["acme"], .notOwnerSlashName("acme")),
    (["acme/api/x"], .notOwnerSlashName("acme/api/x")),
    (["-acme/api"], .badOwner("-acme/api")),
    (["ac.me/api"], .badOwner("ac.me/api")),
    (["/api"], .badOwner("/api")),
    ([String(repeating: "a", count: 40) + "/api"], .badOwner(String(repeating: "a", count: 40) + "/api")),
    (["acme/.."], .badRepository("acme/..")),
    (["acme/"], .badRepository("acme/")),
    (["acme/a b"], .badRepository("acme/a b")),
    (["acme/" + String(repeating: "r", count: 101)], .badRepository("acme/" + String(repeating: "r", count: 101))),
    (["acme/api", "other/web"], .severalOwners("acme", "other")),
  ])
  func refusesRepositories(_ repositories: [String], _ expected: NarrowingError) {
    #expect(throws: expected) { try Narrowing(repositories: repositories, permissions: []) }
    #expect(expected.exitStatus == .usage)
  }

  @Test func atMost500Repositories() throws {
    let names = (1...501).map { "acme/r\($0)" }
    #expect(throws: NarrowingError.tooManyRepositories(501)) {
      try Narrowing(repositories: names, permissions: [])
    }
    #expect(try Narrowing(repositories: Array(names.prefix(500)), permissions: []).repositories.count == 500)
    #expect(
      NarrowingError.tooManyRepositories(501).message == "at most 500 repositories, not 501")
  }

  @Test(arguments: [
    ("contents", NarrowingError.notNameColonLevel("contents")),
    ("contents:", .notNameColonLevel("contents:")),
    ("contents:read:x", .notNameColonLevel("contents:read:x")),
    ("content:read", .unknownPermission("content", suggestion: "contents")),
    ("zzzz:read", .unknownPermission("zzzz", suggestion: nil)),
    ("contents:admin", .levelNotAccepted("contents", "admin", allowed: ["read", "write"])),
    ("workflows:read", .levelNotAccepted("workflows", "read", allowed: ["write"])),
    ("organization_plan:write", .levelNotAccepted("organization_plan", "write", allowed: ["read"])),
    ("contents:Read", .levelNotAccepted("contents", "Read", allowed: ["read", "write"])),
  ])
  func refusesPermissions(_ permission: String, _ expected: NarrowingError) {
    #expect(throws: expected) { try Narrowing(repositories: ["acme/api"], permissions: [permission]) }
  }

  @Test func levelsAsGitHubDocumentsThem() throws {
    #expect(AppPermissions.levels["repository_projects"] == ["read", "write", "admin"])
    #expect(AppPermissions.levels["metadata"] == ["read", "write"])
    #expect(AppPermissions.levels.count == 55)
    let narrowing = try Narrowing(
      repositories: ["acme/api"], permissions: ["repository_projects:admin", "workflows:write"])
    #expect(narrowing.permissions == ["repository_projects": "admin", "workflows": "write"])
  }

  @Test func aPermissionTwice() throws {
    #expect(throws: NarrowingError.permissionTwice("contents", "read", "write")) {
      try Narrowing(repositories: ["acme/api"], permissions: ["contents:read", "contents:write"])
    }
    #expect(
      try Narrowing(repositories: ["acme/api"], permissions: ["contents:read", "contents:read"]).permissions.count == 1)
  }

  @Test func messages() {
    #expect(
      NarrowingError.unknownPermission("content", suggestion: "contents").message
        == "'content' is not a GitHub App permission; did you mean 'contents'? "
        + "(the list known here is GitHub's of 2026-12-05; GitHub may have added names since)")
    #expect(
      NarrowingError.levelNotAccepted("contents", "admin", allowed: ["read", "write"]).message
        == "the permission contents: GitHub accepts read or write, not 'admin'")
    #expect(
      NarrowingError.severalOwners("acme", "other").message
        == "every repository must have the same owner (the token's target), not both 'acme' and 'other'")
    #expect(NarrowingError.notOwnerSlashName("acme").message == "the repository 'acme' is not OWNER/NAME")
    #expect(
      NarrowingError.notOwnerSlashName("a\u{1b}[31m").message
        == "the repository '\(Sanitize.terminal("a\u{1b}[31m"))' is not OWNER/NAME")
  }
}
