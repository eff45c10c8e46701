import Testing

import GHLoginTestSupport

@testable import GHLoginCore

func parseRequest(_ bytes: [UInt8], byteByByte: Bool = false) -> Result<HTTPRequestHead?, HTTPParseError> {
  var parser = HTTPRequestParser()
  do {
    for piece in byteByByte ? bytes.map({ [$0] }) : [bytes] {
      if case .complete(let head) = try parser.feed(piece) { return .success(head) }
    }
    return .success(nil)
  } catch {
    return .failure(error)
  }
}

func parseRequest(_ text: String) -> Result<HTTPRequestHead?, HTTPParseError> {
  let whole = parseRequest(Array(text.utf8))
  #expect(whole == parseRequest(Array(text.utf8), byteByByte: true), "byte by byte must agree")
  return whole
}

struct HTTPRequestParserTests {
  @Test func browserCallback() throws {
    let text =
      "GET /callback?code=abc&state=xyz HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nUser-Agent: Mozilla/5.0\r\n"
      + "Accept: text/html\r\n\r\n"
    let head = try #require(try parseRequest(text).get())
    #expect(head.method == "GET")
    #expect(head.target == "/callback?code=abc&state=xyz")
    #expect(head.minorVersion == 1)
    #expect(head.headers["host"] == "127.0.0.1:5000")
    #expect(head.hasBody == false)
  }

  @Test func incompleteHeadNeedsMore() throws {
    #expect(try parseRequest("GET / HTTP/1.1\r\nHost: x\r\n").get() == nil)
    #expect(try parseRequest("").get() == nil)
  }

  @Test(arguments: [
    ("POST /callback HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", true),
    ("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", true),
    ("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", false),
    ("GET / HTTP/1.0\r\n\r\n", false),
  ])
  func bodiesAreReported(_ text: String, hasBody: Bool) throws {
    #expect(try parseRequest(text).get()?.hasBody == hasBody)
  }

  @Test(arguments: [
    ("GET /\r\n\r\n", HTTPParseError.invalidStartLine),
    ("GET  / HTTP/1.1\r\n\r\n", .invalidStartLine),
    ("GET / HTTP/1.1 extra\r\n\r\n", .invalidStartLine),
    ("GET /a\u{7F} HTTP/1.1\r\n\r\n", .invalidStartLine),
    ("GET /\u{C3}\u{A9} HTTP/1.1\r\n\r\n", .invalidStartLine),
    ("G(T / HTTP/1.1\r\n\r\n", .invalidStartLine),
    (" GET / HTTP/1.1\r\n\r\n", .invalidStartLine),
    ("\r\nGET / HTTP/1.1\r\n\r\n", .invalidStartLine),
    ("GET / HTTP/2.0\r\n\r\n", .unsupportedVersion),
    ("GET / HTTP/1.1\nHost: x\n\n", .bareLineEnding),
    ("GET / HTTP/1.1\r\nHost: x\rY\r\n\r\n", .bareLineEnding),
    ("GET / HTTP/1.1\r\nHost: \0\r\n\r\n", .nulByte),
    ("GET / HTTP/1.1\r\nHost: x\r\n y\r\n\r\n", .obsoleteLineFolding),
    ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", .invalidHeaderName),
    ("GET / HTTP/1.1\r\nHost: \u{1B}[31m\r\n\r\n", .invalidHeaderValue),
    ("GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .conflictingContentLength),
    ("GET / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", .contentLengthWithTransferEncoding),
    ("GET / HTTP/1.1\r\nTransfer-Encoding: xchunked\r\n\r\n", .unsupportedTransferEncoding),
    ("GET / HTTP/1.1\r\nContent-Length: abc\r\n\r\n", .invalidContentLength),
  ])
  func rejected(_ text: String, expected: HTTPParseError) {
    let result = parseRequest(text)
    #expect(result == .failure(expected), "\(text.debugDescription) → \(result)")
  }

  @Test func headLimitIs8KiB() throws {
    let prefix = "GET / HTTP/1.1\r\nX: "
    let fill = 8 * 1024 - prefix.utf8.count - 4
    #expect(try parseRequest(prefix + String(repeating: "a", count: fill) + "\r\n\r\n").get() != nil)
    #expect(
      parseRequest(prefix + String(repeating: "a", count: fill + 1) + "\r\n\r\n")
        == .failure(.headersTooLarge(limit: 8192)))
    let huge = Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 100 * 1024)).utf8)
    #expect(parseRequest(huge) == .failure(.headersTooLarge(limit: 8192)))
    let longTarget = "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n"
    #expect(parseRequest(longTarget) == .failure(.headersTooLarge(limit: 8192)))
  }

  @Test func headerCountIsLimited() throws {
    let ok = "GET / HTTP/1.1\r\n" + (0..<100).map { "X\($0): v\r\n" }.joined() + "\r\n"
    #expect(try parseRequest(ok).get() != nil)
    let tooMany = "GET / HTTP/1.1\r\n" + (0...100).map { "X\($0): v\r\n" }.joined() + "\r\n"
    #expect(parseRequest(tooMany) == .failure(.tooManyHeaders(limit: 100)))
  }

  @Test func feedingMoreAfterCompletionKeepsTheHead() throws {
    var parser = HTTPRequestParser()
    guard case .complete(let first) = try parser.feed(Array("GET /a HTTP/1.1\r\n\r\nGARBAGE".utf8)) else {
      Issue.record("expected a head")
      return
    }
    guard case .complete(let again) = try parser.feed(Array("more".utf8)) else {
      Issue.record("expected the same head")
      return
    }
    #expect(first == again)
  }

  @Test func randomBytesNeverCrash() {
    var generator = SeededGenerator(seed: 42)
    let seed = Array("GET /callback?code=1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n".utf8)
    for round in 0..<3000 {
      var bytes = seed
      if round % 2 == 0 {
        bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
        }
      } else {
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
      }
      #expect(parseRequest(bytes) == parseRequest(bytes, byteByByte: true))
    }
  }
}
