import Testing

import GHLoginTestSupport

@testable import GHLoginCore

struct HTTPWriterTests {
  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func postWithFormBody() throws {
    let url = try WebURL(parsing: "https://github.test:8443/login/oauth/access_token")
    var headers = HTTPHeaders([("Accept", "application/json"), ("Content-Type", "application/x-www-form-urlencoded")])
    headers.add("Host", "evil.test")
    headers.add("Connection", "keep-alive")
    headers.add("Content-Length", "99")
    let request = HTTPRequest(method: "POST", url: url, headers: headers, body: Array("a=b".utf8))
    let bytes = try HTTPWriter.request(request, userAgent: "ghlogin/0.1.0")
    #expect(
      text(bytes)
        == "POST /login/oauth/access_token HTTP/1.1\r\nHost: github.test:8443\r\nAccept: application/json\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\nUser-Agent: ghlogin/0.1.0\r\nContent-Length: 3\r\n"
        + "Connection: close\r\n\r\na=b")
  }

  @Test func getHasNoContentLengthAndKeepsCallerUserAgent() throws {
    let url = try WebURL(parsing: "https://api.github.com/user?x=1")
    let request = HTTPRequest(method: "GET", url: url, headers: HTTPHeaders([("User-Agent", "custom")]))
    #expect(
      text(try HTTPWriter.request(request, userAgent: "ghlogin/0.1.0"))
        == "GET /user?x=1 HTTP/1.1\r\nHost: api.github.com\r\nUser-Agent: custom\r\nConnection: close\r\n\r\n")
  }

  @Test func emptyPostSendsContentLengthZero() throws {
    let request = HTTPRequest(method: "POST", url: try WebURL(parsing: "https://h.test/x"))
    #expect(text(try HTTPWriter.request(request)).contains("\r\nContent-Length: 0\r\n"))
    let delete = HTTPRequest(method: "DELETE", url: try WebURL(parsing: "https://h.test/x"), body: [1])
    #expect(text(try HTTPWriter.request(delete)).contains("\r\nContent-Length: 1\r\n"))
  }

  @Test(arguments: [
    ("Authorization", "Bearer abc\r\nX-Evil: 1"),
    ("Authorization", "Bearer abc\nX"),
    ("Authorization", "Bearer abc\rX"),
    ("Authorization", "Bearer abc\0"),
    ("Authorization", "Bearer \u{1B}[0m"),
    ("X-Bad\r\nName", "v"),
    ("X Bad", "v"),
    ("", "v"),
  ])
  func refusesControlCharacters(_ name: String, _ value: String) throws {
    let request = HTTPRequest(
      method: "GET", url: try WebURL(parsing: "https://h.test/"), headers: HTTPHeaders([(name, value)]))
    #expect(throws: HTTPError.self) { try HTTPWriter.request(request) }
    do {
      _ = try HTTPWriter.request(request)
    } catch {
      #expect(!error.message.contains("abc"), "the message must not quote the value")
      #expect(!error.message.contains("\r"))
    }
  }

  @Test(arguments: ["/a b", "/a\r\nHost: x", "/\0", "nopath", ""])
  func refusesBadTargets(_ target: String) {
    let url = WebURL(scheme: .https, host: "h.test", pathAndQuery: target)
    #expect(throws: HTTPError.invalidRequest(reason: "the request target has a space or control character")) {
      try HTTPWriter.request(HTTPRequest(method: "GET", url: url))
    }
  }

  @Test func refusesBadHostAndMethod() {
    let host = WebURL(scheme: .https, host: "h.test\r\nX: y", pathAndQuery: "/")
    #expect(throws: HTTPError.invalidRequest(reason: "the host has a space or control character")) {
      try HTTPWriter.request(HTTPRequest(method: "GET", url: host))
    }
    let url = WebURL(scheme: .https, host: "h.test", pathAndQuery: "/")
    #expect(throws: HTTPError.invalidRequest(reason: "the method is not a token")) {
      try HTTPWriter.request(HTTPRequest(method: "GET /x HTTP/1.1\r\n", url: url))
    }
  }

  @Test func connectRequest() throws {
    let bytes = try HTTPWriter.connect(
      authority: "github.test:443", proxyAuthorization: "Basic dXNlcjpwdw==", userAgent: "ua")
    #expect(
      text(bytes)
        == "CONNECT github.test:443 HTTP/1.1\r\nHost: github.test:443\r\nUser-Agent: ua\r\n"
        + "Proxy-Authorization: Basic dXNlcjpwdw==\r\n\r\n")
    #expect(throws: HTTPError.self) {
      try HTTPWriter.connect(authority: "a\r\n:1", proxyAuthorization: nil, userAgent: nil)
    }
  }

  @Test func serverResponse() throws {
    let bytes = try HTTPWriter.response(
      status: 405, headers: HTTPHeaders([("Allow", "GET"), ("Connection", "keep-alive")]), body: Array("no".utf8))
    #expect(
      text(bytes) == "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno"
    )
    #expect(throws: HTTPError.self) {
      try HTTPWriter.response(status: 200, headers: HTTPHeaders([("X", "a\nb")]), body: [])
    }
    #expect(throws: HTTPError.self) { try HTTPWriter.response(status: 1000, headers: HTTPHeaders(), body: []) }
  }

  @Test func writtenResponsesParseBack() throws {
    let bytes = try HTTPWriter.response(
      status: 200, headers: HTTPHeaders([("Content-Type", "text/html")]), body: Array("<p>".utf8))
    let response = try parseResponse(bytes).get()
    #expect(response.status == 200)
    #expect(response.headers["content-type"] == "text/html")
    #expect(response.body == Array("<p>".utf8))
  }
}
