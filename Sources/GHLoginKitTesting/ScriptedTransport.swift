import GHLoginKit
import Synchronization

/// A ``GitHubLoginTransport`` that answers from a script: each request gets the next response
/// in the queue, and every request is recorded, in order, for the test to check.
///
/// ```swift
/// let transport = ScriptedTransport([.accessToken("gho_test"), .user(login: "octocat")])
/// ```
///
/// A request that finds the queue empty fails as a network failure naming it
/// (``Unscripted``), so a test that forgot an answer says which one.
public final class ScriptedTransport: GitHubLoginTransport {
  private let state: Mutex<(queue: [Step], requests: [GitHubLoginRequest])>

  private enum Step {
    case respond(GitHubLoginResponse)
    case fail(any Error & Sendable)
  }

  /// A transport that gives `responses` to the next requests, in order.
  public init(_ responses: [GitHubLoginResponse] = []) {
    state = Mutex((responses.map(Step.respond), []))
  }

  /// Adds `responses` to the end of the queue.
  public func enqueue(_ responses: GitHubLoginResponse...) {
    state.withLock { $0.queue += responses.map(Step.respond) }
  }

  /// Adds a request that cannot be sent (the network is down): it throws `error`, which the
  /// library reports as a network failure.
  public func enqueueFailure(_ error: any Error & Sendable) {
    state.withLock { $0.queue.append(.fail(error)) }
  }

  /// Every request sent so far, in order.
  public var requests: [GitHubLoginRequest] { state.withLock { $0.requests } }

  /// How many queued answers no request has taken yet.
  public var remaining: Int { state.withLock { $0.queue.count } }

  /// Records `request` and answers it with the next queued response (or throws the queued
  /// error, or ``Unscripted`` when the queue is empty).
  public func send(_ request: GitHubLoginRequest) throws -> GitHubLoginResponse {
    let step = state.withLock { state -> Step? in
      state.requests.append(request)
      return state.queue.isEmpty ? nil : state.queue.removeFirst()
    }
    switch step {
    case .respond(let response): return response
    case .fail(let error): throw error
    case nil: throw Unscripted(method: request.method, url: request.url)
    }
  }

  /// A request the script had no answer for.
  public struct Unscripted: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request's method.
    public let method: String
    /// The request's URL.
    public let url: String
    /// `no scripted response for METHOD URL`.
    public var description: String { "no scripted response for \(method) \(url)" }
  }
}
