import Testing

import GHLoginTestSupport

@testable import GHLoginCore

struct HTTPErrorTests {
  @Test(arguments: [
    (
      HTTPError.insecureURL(host: "github.test"),
      "refusing plain http:// to github.test: only literal loopback addresses (127.0.0.0/8 as four plain decimal numbers such as 127.0.0.1, or [::1]) may use http, not the name localhost; use an https:// URL",
      GHLoginCore.ExitStatus.usage, false
    ),
    (
      .invalidRequest(reason: "the method is not a token"), "refusing to send the request: the method is not a token",
      .failure, false
    ),
    (
      .resolve(host: "github.test", reason: "Name or service not known"),
      "could not resolve github.test: Name or service not known", .failure, false
    ),
    (
      .connect(host: "api.github.com", port: 443, reason: "Connection refused"),
      "could not connect to api.github.com:443: Connection refused", .failure, false
    ),
    (
      .timedOut(host: "api.github.com:443", phase: .connect), "timed out connecting to api.github.com:443", .failure,
      false
    ),
    (
      .timedOut(host: "github.test", phase: .tlsHandshake), "timed out the TLS handshake with github.test", .failure,
      false
    ),
    (
      .timedOut(host: "github.test", phase: .proxyTunnel),
      "timed out opening a tunnel through the proxy to github.test", .failure, false
    ),
    (.timedOut(host: "github.test", phase: .send), "timed out sending the request to github.test", .failure, true),
    (
      .timedOut(host: "github.test", phase: .response), "timed out waiting for the response from github.test", .failure,
      true
    ),
    (
      .tls(host: "github.test", reason: "certificate verify failed: hostname mismatch"),
      "TLS connection to github.test failed: certificate verify failed: hostname mismatch", .failure, false
    ),
    (
      .tls(host: "github.test", reason: "certificate verify failed: unable to get local issuer certificate"),
      "TLS connection to github.test failed: certificate verify failed: unable to get local issuer certificate (if the server uses a private CA, point SSL_CERT_FILE at its PEM bundle)",
      .failure, false
    ),
    (
      .io(host: "github.test", reason: "Connection reset by peer"),
      "connection to github.test failed: Connection reset by peer", .failure, true
    ),
    (
      .badResponse(host: "github.test", .truncated),
      "truncated response from github.test: the connection closed before the message was complete", .failure, true
    ),
    (
      .badResponse(host: "github.test", .noResponse),
      "no response from github.test: the connection closed without a response", .failure, true
    ),
    (
      .badResponse(host: "github.test", .bodyTooLarge(limit: 10)),
      "response from github.test is too large: the body is larger than 10 bytes", .failure, true
    ),
    (
      .badResponse(host: "github.test", .invalidChunkSize),
      "malformed response from github.test: an invalid chunk size", .failure, true
    ),
    (
      .invalidProxy(reason: "the URL must not have a path"),
      "cannot use the proxy from https_proxy/HTTPS_PROXY: the URL must not have a path", .usage, false
    ),
    (
      .proxyAuthenticationRequired(proxy: "p:3128"),
      "proxy authentication required by p:3128 (put user:password in the https_proxy URL)", .failure, false
    ),
    (
      .proxyRefused(proxy: "p:3128", target: "github.test:443", status: 502),
      "proxy p:3128 refused CONNECT to github.test:443: 502", .failure, false
    ),
    (
      .caFile(path: "/tmp/ca\u{1B}[31m.pem\n", reason: "no certificates found"),
      "could not load the CA file /tmp/ca[31m.pem: no certificates found", .usage, false
    ),
    (
      .listen(port: 8080, reason: "Address already in use", inUse: true),
      "port 8080 on 127.0.0.1 is in use; choose another port or stop the program using it", .failure, false
    ),
    (
      .listen(port: 8080, reason: "Permission denied", inUse: false),
      "could not listen on 127.0.0.1:8080: Permission denied", .failure, false
    ),
    (.interrupted, "interrupted", .interrupted, true),
  ])
  func messages(_ error: HTTPError, _ message: String, _ status: GHLoginCore.ExitStatus, _ maySend: Bool) {
    #expect(error.message == message)
    #expect(error.description == message)
    #expect(error.exitStatus == status)
    #expect(error.requestMayHaveBeenSent == maySend)
  }

  @Test func caFileErrorsAreReported() throws {
    let client = HTTPClient(
      variables: ["GHLOGIN_TEST_RESOLVE": "github.test:1:127.0.0.1"], caFile: "/nonexistent/ca.pem", userAgent: "ua")
    let listener = try LoopbackServer()
    defer { listener.close() }
    let url = WebURL(scheme: .https, host: "github.test", port: listener.port)
    let mapped = HTTPClient(
      variables: ["GHLOGIN_TEST_RESOLVE": "github.test:\(listener.port):127.0.0.1"], caFile: client.caFile,
      userAgent: "ua")
    let result = Result { () throws(HTTPError) in try mapped.perform(HTTPRequest(method: "GET", url: url), timeout: 5) }
    guard case .caFile(let path, _) = result.error else {
      Issue.record("expected a CA file error, got \(result)")
      return
    }
    #expect(path == "/nonexistent/ca.pem")
  }
}
