import GHLoginCore
import Testing

/// A browser that records what it was asked to open.
package final class RecordingBrowser: BrowserOpener, @unchecked Sendable {
  package private(set) var opened: [WebURL] = []
  package init() {}
  package func open(_ url: WebURL, environment: EnvironmentVariables) throws { opened.append(url) }
}

/// A transport that fails the test run loudly if anything tries the network.
package struct NoNetwork: HTTPTransport {
  package init() {}
  package func send(_ request: HTTPRequest, timeout: Double) throws -> HTTPResponse {
    Issue.recordNoNetwork(request)
    throw SystemError(call: "connect", errno: 111)
  }
}

extension Issue {
  package static func recordNoNetwork(_ request: HTTPRequest) {
    Issue.record("unexpected network request: \(request.method) \(request.url)")
  }
}

extension Result {
  /// The failure, or nil on success.
  package var error: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

/// The port of `redirect_uri` and the `state` in an authorize URL.
package func redirectPortAndState(of url: WebURL) -> (Int, String) {
  let query = url.pathAndQuery.split(separator: "?", maxSplits: 1).last ?? ""
  let pairs = (try? FormEncoding.decode(query)) ?? []
  let redirect = pairs.first { $0.name == "redirect_uri" }?.value ?? ""
  let port = (try? WebURL(parsing: redirect))?.port ?? 0
  return (port, pairs.first { $0.name == "state" }?.value ?? "")
}
