import GHLoginKit
import Synchronization

/// A ``GitHubLoginBrowser`` that plays the user: it follows the authorize URL to the loopback
/// redirect as GitHub would after an approval (`code` and `state`) or a denial, or never does.
///
/// ```swift
/// let browser = ScriptedBrowser.approving(code: "code-1")
/// ```
///
/// The visit to `http://127.0.0.1:PORT/callback` is a real HTTP request to the library's
/// listener, made on a thread of its own once the page was "opened"; ``pagesShown()`` has the
/// pages the listener answered with.
public final class ScriptedBrowser: GitHubLoginBrowser {
  /// What the user does on the authorization page.
  public enum Answer: Sendable, Hashable {
    /// Approves: the browser is redirected with `code` and the request's `state`.
    case approve(code: String)
    /// Denies: the browser is redirected with `error` (GitHub's is `access_denied`) and the
    /// request's `state`.
    case deny(error: String)
    /// Never comes back: nothing reaches the loopback listener.
    case never
  }

  /// What the loopback listener answered a visit with.
  public struct Page: Sendable, Hashable {
    /// The HTTP status (200 for the page that says the login is done).
    public let status: Int
    /// The page's body.
    public let body: String
  }

  /// What the user does.
  public let answer: Answer
  private let onOpen: (@Sendable (String) -> Void)?
  private let record = Record()

  /// What the browser did, shared with its visits' threads (which never hold the browser).
  private final class Record: Sendable {
    let state = Mutex<(opened: [String], pages: [Page], visits: [PosixThread])>(([], [], []))
  }

  /// A browser whose user gives `answer`; `onOpen` is called with each URL opened, before the
  /// visit (say, to move an ``InstantClock`` forward while the user reads the page).
  public init(_ answer: Answer, onOpen: (@Sendable (String) -> Void)? = nil) {
    self.answer = answer
    self.onOpen = onOpen
  }

  /// A user who approves the app: the login gets `code` to exchange.
  public static func approving(code: String = "test-code") -> ScriptedBrowser { ScriptedBrowser(.approve(code: code)) }

  /// A user who denies the app (GitHub's `error=access_denied`).
  public static func denying() -> ScriptedBrowser { ScriptedBrowser(.deny(error: "access_denied")) }

  /// A user who walks away. The login waits until its clock passes the timeout: move the
  /// test's clock in `onOpen`, for example `{ _ in clock.advance(by: 3600) }`.
  public static func neverAnswering(onOpen: (@Sendable (String) -> Void)? = nil) -> ScriptedBrowser {
    ScriptedBrowser(.never, onOpen: onOpen)
  }

  /// Waits for the visits nobody asked ``pagesShown()`` about, so no thread is left unjoined.
  deinit { _ = pagesShown() }

  /// Every URL opened, in order.
  public var openedURLs: [String] { record.state.withLock { $0.opened } }

  /// The pages the loopback listener answered the visits with, in order, once every visit
  /// started so far has finished (a visit gives up after 10 seconds without an answer).
  public func pagesShown() -> [Page] {
    let visits = record.state.withLock { state in
      defer { state.visits = [] }
      return state.visits
    }
    for visit in visits { visit.join() }
    return record.state.withLock { $0.pages }
  }

  /// Records `url`, calls `onOpen`, and unless the user never answers, visits the redirect
  /// URL the authorize URL names. Throws ``NotAnAuthorizeURL`` when `url` has no loopback
  /// `redirect_uri` and `state`.
  public func open(_ url: String) throws {
    record.state.withLock { $0.opened.append(url) }
    onOpen?(url)
    let query: String
    switch answer {
    case .never: return
    case .approve(let code): query = "code=" + Self.encoded(code)
    case .deny(let error): query = "error=" + Self.encoded(error)
    }
    let parameters = Self.queryParameters(url)
    guard let redirect = parameters["redirect_uri"], let requestState = parameters["state"],
      let target = LoopbackTarget(redirect)
    else { throw NotAnAuthorizeURL(url: url) }
    let request =
      "GET \(target.path)?\(query)&state=\(Self.encoded(requestState)) HTTP/1.1\r\n"
      + "Host: \(target.hostAndPort)\r\nUser-Agent: GHLoginKitTesting\r\nConnection: close\r\n\r\n"
    let record = record
    let visit = try PosixThread {
      let page = target.exchange(Array(request.utf8))
      record.state.withLock { $0.pages.append(page) }
    }
    record.state.withLock { $0.visits.append(visit) }
  }

  /// An opened URL that is not an authorize URL with a loopback redirect.
  public struct NotAnAuthorizeURL: Error, Sendable, CustomStringConvertible {
    /// The URL.
    public let url: String
    /// Says that the URL has no loopback `redirect_uri` and `state`.
    public var description: String { "not an authorize URL with a loopback redirect_uri and a state: \(url)" }
  }

  /// The query of `url`, decoded (`+` is a space); the first value of each name.
  static func queryParameters(_ url: String) -> [String: String] {
    guard let mark = url.firstIndex(of: "?") else { return [:] }
    let query = url[url.index(after: mark)...].split(separator: "#", maxSplits: 1).first ?? ""
    var parameters: [String: String] = [:]
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = decoded(parts[0])
      if parameters[name] == nil { parameters[name] = parts.count > 1 ? decoded(parts[1]) : "" }
    }
    return parameters
  }

  static func decoded(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `text` percent-encoded for a query value (RFC 3986 unreserved characters kept).
  static func encoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" : "") + hex
      }
    }
    return out
  }
}

/// `http://127.0.0.1:PORT/PATH`: where a visit goes (IPv4 loopback literals only, as the
/// library's listener binds). The socket, the thread and the waits are Core's (System/), so this
/// target calls no C library function itself.
struct LoopbackTarget: Sendable {
  let address: SocketAddress
  let hostAndPort: String
  let path: String

  /// How long a visit waits for the listener, from the connection to the end of the answer.
  static let timeout = 10.0

  init?(_ url: String) {
    guard url.hasPrefix("http://") else { return nil }
    let rest = url.dropFirst("http://".count)
    let authority = rest.prefix { $0 != "/" }
    path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
    let parts = authority.split(separator: ":")
    guard parts.count == 2, let port = UInt16(parts[1]), let ip = IPAddress.parse(String(parts[0])), ip.count == 4,
      let address = SocketAddress(ip: ip, port: Int(port))
    else { return nil }
    self.address = address
    hostAndPort = String(authority)
  }

  /// Sends `request` on a new connection and reads the answer to its end (10 s at most).
  func exchange(_ request: [UInt8]) -> ScriptedBrowser.Page {
    let clock = SystemClock()
    let deadline = clock.monotonic() + Self.timeout
    let socket: Socket
    do {
      socket = try Socket.connect(to: address, deadline: deadline, clock: clock)
    } catch {
      return ScriptedBrowser.Page(status: 0, body: "connect failed: \(error)")
    }
    defer { socket.close() }
    let stream = SocketStream(socket: socket, clock: clock)
    do {
      try stream.writeAll(request, deadline: deadline)
    } catch {
      return ScriptedBrowser.Page(status: 0, body: "send failed: \(error)")
    }
    var answer: [UInt8] = []
    while let chunk = try? stream.read(count: 16_384, deadline: deadline), !chunk.isEmpty {
      answer += chunk
    }
    return Self.page(answer)
  }

  /// The status and body of a raw HTTP response (status 0 when it is not one).
  static func page(_ answer: [UInt8]) -> ScriptedBrowser.Page {
    let separator: [UInt8] = [13, 10, 13, 10]
    let end = answer.indices.first { answer[$0...].starts(with: separator) }
    let head = String(decoding: answer[..<(end ?? answer.endIndex)], as: UTF8.self)
    let statusLine = head.prefix { $0 != "\r" && $0 != "\n" }.split(separator: " ")
    let status = statusLine.count >= 2 && statusLine[0].hasPrefix("HTTP/") ? Int(statusLine[1]) ?? 0 : 0
    let body = end.map { String(decoding: answer[($0 + 4)...], as: UTF8.self) } ?? ""
    return ScriptedBrowser.Page(status: status, body: body)
  }
}
