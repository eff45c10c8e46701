import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// `.verifiesFakes` can fail: a scope whose fake keeps an unused stub, or gets a request no stub
/// matches, records exactly that issue; a stub that says it may go unused records none.
@Suite(.verifiesFakes) struct FakeTransportVerificationTests {
  static let url = "https://api.github.com/user"

  /// Runs `body` in a fresh `.verifiesFakes` scope, as the trait runs a test body.
  func inVerifyingScope(_ body: @escaping @Sendable () throws -> Void) async throws {
    let test = try #require(Test.current)
    try await VerifiesFakesTrait().provideScope(for: test, testCase: Test.Case.current) { try body() }
  }

  @Test func aStubLeftUnusedFailsTheTest() async throws {
    try await withKnownIssue {
      try await inVerifyingScope {
        FakeTransport().on("GET", Self.url, respond: .json("{}"))
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["stub never used: GET \(Self.url)"]
    }
  }

  @Test func anUnexpectedRequestFailsTheTest() async throws {
    try await withKnownIssue {
      try await inVerifyingScope {
        let transport = FakeTransport()
        let request = HTTPRequest(method: "POST", url: try WebURL(parsing: Self.url))
        #expect(throws: FakeTransport.UnexpectedRequest(method: "POST", url: Self.url)) {
          try transport.send(request, timeout: 5)
        }
      }
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["unexpected request POST \(Self.url)"]
    }
  }

  /// A fake made where no `.verifiesFakes` scope runs (its suite lacks the trait) is an issue
  /// itself: its stubs would go unchecked.
  @Test func aFakeOutsideAVerifyingScopeFailsTheTest() {
    withKnownIssue {
      FakeRegistry.$current.withValue(nil) { _ = FakeTransport() }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        "FakeTransport made in a test whose suite is not marked @Suite(.verifiesFakes)"
      ]
    }
  }

  @Test func aStubThatMayGoUnusedPasses() async throws {
    try await inVerifyingScope {
      FakeTransport().on("GET", Self.url, mayGoUnused: "this test checks the trait itself") { _ in .json("{}") }
    }
  }

  @Test func aUsedStubPasses() async throws {
    try await inVerifyingScope {
      let transport = FakeTransport()
      transport.on("GET", Self.url, respond: .json("{}"))
      let response = try transport.send(HTTPRequest(method: "GET", url: try WebURL(parsing: Self.url)), timeout: 5)
      #expect(response.status == 200)
    }
  }
}
