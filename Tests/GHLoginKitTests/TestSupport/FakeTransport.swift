import Synchronization
import Testing

@testable import GHLoginKit

/// An ``HTTPTransport`` that answers from registered stubs and records every request.
///
/// Each stub matches a method and exact URL and answers once (pass `times:` for more).
/// A request no stub matches is recorded and answered with an error; ``verify()``
/// records an issue for it and for every stub left unused.
final class FakeTransport: HTTPTransport {
  /// What an unexpected request gets.
  struct UnexpectedRequest: Error, Equatable {
    var method: String
    var url: String
  }

  private struct Stub: Sendable {
    var method: String
    var url: String
    var remaining: Int
    var respond: @Sendable (HTTPRequest) throws -> HTTPResponse
  }

  private struct State {
    var stubs: [Stub] = []
    var requests: [HTTPRequest] = []
    var timeouts: [Double] = []
    var unexpected: [UnexpectedRequest] = []
  }

  private let state = Mutex(State())

  init() {}

  /// Answers `method url` with `response`, `times` times.
  func on(_ method: String, _ url: String, times: Int = 1, respond response: HTTPResponse) {
    on(method, url, times: times) { _ in response }
  }

  /// Answers `method url` by calling `respond` (which may throw, like a failed connection).
  func on(
    _ method: String, _ url: String, times: Int = 1, respond: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
  ) {
    state.withLock { $0.stubs.append(Stub(method: method, url: url, remaining: times, respond: respond)) }
  }

  func send(_ request: HTTPRequest, timeout: Double) throws -> HTTPResponse {
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
  var requests: [HTTPRequest] { state.withLock { $0.requests } }
  /// The timeout passed with each request, in order.
  var timeoutsSent: [Double] { state.withLock { $0.timeouts } }
  /// Requests no stub matched.
  var unexpected: [UnexpectedRequest] { state.withLock { $0.unexpected } }
  /// Stubs with answers left, as `METHOD URL`.
  var unused: [String] { state.withLock { $0.stubs.filter { $0.remaining > 0 }.map { "\($0.method) \($0.url)" } } }

  /// Records an issue for each unexpected request and each stub left unused.
  func verify(sourceLocation: SourceLocation = #_sourceLocation) {
    for request in unexpected {
      Issue.record("unexpected request \(request.method) \(request.url)", sourceLocation: sourceLocation)
    }
    for stub in unused { Issue.record("stub never used: \(stub)", sourceLocation: sourceLocation) }
  }
}

extension HTTPResponse {
  /// A response with `Content-Type: application/json; charset=utf-8` and `body`.
  static func json(_ body: String, status: Int = 200, headers: [(String, String)] = []) -> HTTPResponse {
    var fields = HTTPHeaders([("Content-Type", "application/json; charset=utf-8")])
    for (name, value) in headers { fields.add(name, value) }
    return HTTPResponse(status: status, headers: fields, body: Array(body.utf8))
  }

  /// A response with `content-type` `type` (or none) and `body`.
  static func typed(_ type: String?, _ body: String, status: Int = 200, headers: [(String, String)] = [])
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
  var formParameters: [(name: String, value: String)] {
    (try? FormEncoding.decode(Substring(String(decoding: body, as: UTF8.self)))) ?? []
  }
}
