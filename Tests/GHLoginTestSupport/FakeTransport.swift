import Synchronization
import Testing

import GHLoginCore

/// An ``HTTPTransport`` that answers from registered stubs and records every request.
///
/// Each stub matches a method and exact URL and answers once (pass `times:` for more).
/// A request no stub matches is recorded and answered with an error. Every fake made in a test
/// of a suite marked `@Suite(.verifiesFakes)` verifies itself when the test ends: an issue for
/// each unexpected request and each stub left unused (see ``VerifiesFakesTrait``). A fake whose
/// stub may deliberately go unused says so: `on(..., mayGoUnused: "why")`.
package final class FakeTransport: HTTPTransport {
  /// What an unexpected request gets.
  package struct UnexpectedRequest: Error, Equatable {
    package var method: String
    package var url: String
    package init(method: String, url: String) {
      self.method = method
      self.url = url
    }
  }

  private struct Stub: Sendable {
    var method: String
    var url: String
    var remaining: Int
    var optional: Bool
    var respond: @Sendable (HTTPRequest) throws -> HTTPResponse
  }

  private struct State {
    var stubs: [Stub] = []
    var requests: [HTTPRequest] = []
    var timeouts: [Double] = []
    var unexpected: [UnexpectedRequest] = []
  }

  private let state = TestLock(State())
  /// Where the fake was made: where its verification issues point.
  package let sourceLocation: SourceLocation

  /// A fake with no stubs, registered with the running test's ``VerifiesFakesTrait`` scope.
  /// A test that makes one outside such a scope gets an issue (its fakes would go unchecked);
  /// a fake made on a thread that is not the test's (no test is current there) is not checked.
  package init(sourceLocation: SourceLocation = #_sourceLocation) {
    self.sourceLocation = sourceLocation
    if let registry = FakeRegistry.current {
      registry.add(self)
    } else if Test.current != nil {
      Issue.record(
        "FakeTransport made in a test whose suite is not marked @Suite(.verifiesFakes)",
        sourceLocation: sourceLocation)
    }
  }

  /// Answers `method url` with `response`, `times` times.
  package func on(_ method: String, _ url: String, times: Int = 1, respond response: HTTPResponse) {
    on(method, url, times: times) { _ in response }
  }

  /// Answers `method url` by calling `respond` (which may throw, like a failed connection).
  /// `mayGoUnused` says why answers left over at the end are not a failure (a scripted
  /// sequence the code may stop reading early, whose test counts the requests itself).
  package func on(
    _ method: String, _ url: String, times: Int = 1, mayGoUnused: Comment? = nil,
    respond: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
  ) {
    state.withLock {
      $0.stubs.append(
        Stub(method: method, url: url, remaining: times, optional: mayGoUnused != nil, respond: respond))
    }
  }

  package func send(_ request: HTTPRequest, timeout: Double) throws -> HTTPResponse {
    let respond: (@Sendable (HTTPRequest) throws -> HTTPResponse)? = state.withLock { state in
      state.requests.append(request)
      state.timeouts.append(timeout)
      guard
        let index = state.stubs.firstIndex(where: {
          $0.remaining > 0 && $0.method == request.method && $0.url == request.url.description
        })
      else {
        state.unexpected.append(UnexpectedRequest(method: request.method, url: request.url.description))
        return nil
      }
      state.stubs[index].remaining -= 1
      return state.stubs[index].respond
    }
    guard let respond else { throw UnexpectedRequest(method: request.method, url: request.url.description) }
    return try respond(request)
  }

  /// Every request sent, in order.
  package var requests: [HTTPRequest] { state.withLock { $0.requests } }
  /// The timeout passed with each request, in order.
  package var timeoutsSent: [Double] { state.withLock { $0.timeouts } }
  /// Requests no stub matched.
  package var unexpected: [UnexpectedRequest] { state.withLock { $0.unexpected } }
  /// Stubs with answers left, as `METHOD URL` (not those marked `mayGoUnused`).
  package var unused: [String] {
    state.withLock { $0.stubs.filter { $0.remaining > 0 && !$0.optional }.map { "\($0.method) \($0.url)" } }
  }

  /// Records an issue for each unexpected request and each stub left unused (but those marked
  /// `mayGoUnused`). ``VerifiesFakesTrait`` calls it after each test.
  package func verify() {
    for request in unexpected {
      Issue.record("unexpected request \(request.method) \(request.url)", sourceLocation: sourceLocation)
    }
    for stub in unused { Issue.record("stub never used: \(stub)", sourceLocation: sourceLocation) }
  }
}

/// The fakes made while one test runs under ``VerifiesFakesTrait``.
package final class FakeRegistry: Sendable {
  @TaskLocal package static var current: FakeRegistry?

  private let fakes = TestLock<[FakeTransport]>([])

  package func add(_ fake: FakeTransport) { fakes.withLock { $0.append(fake) } }
  package var all: [FakeTransport] { fakes.withLock { $0 } }
}

/// A Swift Testing scope (SE-0457) that, after each test (each case of a parameterized one),
/// verifies every ``FakeTransport`` the test made: an unused stub or an unexpected request
/// fails the test. Apply it to the suite: `@Suite(.verifiesFakes)`. A test that throws is
/// not verified further (it has already failed).
package struct VerifiesFakesTrait: SuiteTrait, TestTrait, TestScoping {
  package init() {}
  package var isRecursive: Bool { true }

  package func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let registry = FakeRegistry()
    try await FakeRegistry.$current.withValue(registry) { try await function() }
    for fake in registry.all { fake.verify() }
  }
}

extension Trait where Self == VerifiesFakesTrait {
  /// Every ``FakeTransport`` made in the test verifies itself when the test ends.
  package static var verifiesFakes: Self { Self() }
}

extension HTTPResponse {
  /// A response with `Content-Type: application/json; charset=utf-8` and `body`.
  package static func json(_ body: String, status: Int = 200, headers: [(String, String)] = []) -> HTTPResponse {
    var fields = HTTPHeaders([("Content-Type", "application/json; charset=utf-8")])
    for (name, value) in headers { fields.add(name, value) }
    return HTTPResponse(status: status, headers: fields, body: Array(body.utf8))
  }

  /// A response with `content-type` `type` (or none) and `body`.
  package static func typed(_ type: String?, _ body: String, status: Int = 200, headers: [(String, String)] = [])
    -> HTTPResponse
  {
    var fields = HTTPHeaders()
    if let type { fields.add("Content-Type", type) }
    for (name, value) in headers { fields.add(name, value) }
    return HTTPResponse(status: status, headers: fields, body: Array(body.utf8))
  }
}

extension HTTPRequest {
  /// The body decoded as form data, in order (empty when it does not decode).
  package var formParameters: [(name: String, value: String)] {
    (try? FormEncoding.decode(Substring(String(decoding: body, as: UTF8.self)))) ?? []
  }
}
