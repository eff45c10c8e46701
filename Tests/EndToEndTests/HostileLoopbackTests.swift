import Foundation
import Testing
import GHLoginTestSupport

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The loopback listener under attack (R7–R11): while `ghlogin auth --no-browser`
/// waits, 50 connections stall (25 silent, 25 sending one byte a second), 20 forged callbacks
/// carry the real code with a wrong, missing or duplicated state, 10 requests carry the real
/// code and state with a foreign or malformed `Host`, and 1,000 connections send junk. The real
/// callback, sent while the flood is still running, must complete the login within 2 s, with
/// the right account stored and the code exchanged exactly once. The process's peak memory
/// (VmHWM) is sampled throughout and must stay under ``peakMemoryBound``.
@Suite(.serialized) struct HostileLoopbackTests {
  /// The bound on ghlogin's peak resident memory during the attack. Measured at
  /// about 18 MiB (SECURITY.md); the bound leaves a wide margin for other machines.
  static let peakMemoryBound = 64 * 1024 * 1024
  /// The most the real callback may take, from connect to the end of the page (token exchange and
  /// `GET /user` included); 10 s under a sanitizer (scripts/sanitizers.sh).
  static let callbackBound = sanitizer == nil ? 2.0 : 10.0
  /// The sanitizer the binary was built with, from scripts/sanitizers.sh; its RSS is not bounded.
  static let sanitizer = ProcessInfo.processInfo.environment["GHLOGIN_SANITIZER"]

  @Test func realCallbackWinsUnderAttack() throws {
    raiseDescriptorLimit(to: 4096)
    let fake = try FakeGitHub.start()
    let sandbox = try Sandbox(fake: fake)
    try sandbox.writeConfig()
    let child = try startGHLogin(["auth", "--no-browser", "--timeout", "120"], env: sandbox.environment())
    let memory = PeakMemorySampler(pid: child.pid)
    defer { memory.stop() }

    let url = try child.waitForLine(.stderr, timeout: 30) { $0.hasPrefix("https://") }
    let port = try #require(Self.loopbackPort(inAuthorizeURL: url), "no redirect_uri port in \(url)")
    // The browser's half of the login, up to GitHub's redirect: the fake issues the real code.
    let browser = try runBrowser(url: url, fake: fake, extraArgs: ["--no-follow"])
    let location = try #require(browser.location, "no Location from authorize: \(browser.report)")
    let prefix = "http://127.0.0.1:\(port)"
    #expect(location.hasPrefix(prefix + "/callback?"))
    let target = String(location.dropFirst(prefix.count))
    let query = try #require(URLComponents(string: location)?.queryItems)
    let code = try #require(query.first { $0.name == "code" }?.value)
    let state = try #require(query.first { $0.name == "state" }?.value)
    let host = "127.0.0.1:\(port)"

    // 1. Stallers: opened first, so they are the oldest connections throughout.
    let stalled = Stallers(port: port, silent: 25, trickling: 25)
    defer { stalled.stop() }
    let stalledSince = Date()

    // 2. Forged callbacks with the real code and a bad state: each refused with 400.
    let forged = Self.forgedCallbacks(code: code, state: state).map { forgedTarget in
      exchange(port: port, "GET \(forgedTarget) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
    }
    #expect(forged.count == 20)
    #expect(forged.allSatisfy { $0 == 400 }, "forged callbacks answered \(forged)")

    // 3. The real code and state, addressed to another host: each refused with 400 (R10).
    let foreign = Self.foreignHostHeads(port: port).map { headers in
      exchange(port: port, "GET \(target) HTTP/1.1\r\n\(headers)\r\n")
    }
    #expect(foreign.allSatisfy { $0 == 400 }, "foreign Host requests answered \(foreign)")
    #expect(!child.hasExited, "the login ended before the real callback:\n\(child.text(.stderr))")

    // 4. The junk flood: 1,000 connections from 4 threads, up to 100 open at once. The real
    // callback goes out once all of them have connected and sent their junk, while the last
    // batches still wait for their answers.
    let flood = JunkFlood(port: port, connections: 1000, threads: 4)
    #expect(flood.waitUntilSent(atLeast: 1000, timeout: 60))
    let stallersOpen = stalled.openCount()
    let stalledFor = Date().timeIntervalSince(stalledSince)

    // 5. The real callback, as the browser would send it.
    let started = Date()
    let (status, page) = request(
      port: port, "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: Mozilla/5.0\r\n\r\n")
    let took = Date().timeIntervalSince(started)
    let answeredAtCallback = flood.answered
    flood.wait()
    let result = try child.finish(timeout: 30)
    memory.stop()

    #expect(status == 200, "real callback answered \(status.map(String.init) ?? "nothing"): \(page)")
    #expect(took < Self.callbackBound, "the real callback took \(took) s")
    #expect(result.status == 0, "ghlogin said:\n\(result.stderr)")
    #expect(result.stderr.contains("Logged in to github.test as octocat"))
    if stalledFor < 8 { #expect(stallersOpen == 50, "stallers still open at the callback: \(stallersOpen)") }

    // The junk never reached the handler as a valid request: every answer is a 4xx, and every
    // client that finished before the real callback went out had one. (Clients still waiting
    // when the login ended are closed without an answer, which is right.)
    let outcomes = flood.outcomes()
    #expect(outcomes.count == 1000)
    #expect(outcomes.allSatisfy { $0.status == nil || (400...499).contains($0.status ?? 0) })
    let before = outcomes.filter { $0.ended < started }
    #expect(before.allSatisfy { $0.status != nil }, "junk left unanswered before the callback")
    var statuses: [String: Int] = [:]
    for outcome in outcomes { statuses[outcome.status.map(String.init) ?? "none", default: 0] += 1 }

    // Exactly one token request: no forged or foreign request was exchanged (R8, R10, R22).
    let tokenRequests = try fake.requests(path: "/login/oauth/access_token")
    #expect(tokenRequests.count == 1)
    #expect(tokenRequests.first?.formValue("code") == code)
    let stored = try #require(sandbox.credentialsJSON()?["hosts"] as? [String: Any])
    let accounts = stored.values.compactMap { ($0 as? [String: Any])?["accounts"] as? [[String: Any]] }.joined()
    #expect(accounts.map { $0["login"] as? String } == ["octocat"])
    let issued = try #require(try fake.state()["tokens"] as? [Any]).count
    #expect(issued >= 1)

    let peak = memory.peakBytes
    #expect(peak > 0, "VmHWM was never read")
    if Self.sanitizer == nil { #expect(peak < Self.peakMemoryBound, "peak memory \(peak) bytes") }
    print(
      "hostile-loopback: callback in \(String(format: "%.3f", took)) s with 1000 junk sent, "
        + "\(answeredAtCallback) answered (\(before.count) before it), "
        + "\(stallersOpen)/50 stallers open after \(String(format: "%.1f", stalledFor)) s, "
        + "20 forged + \(foreign.count) foreign-Host refused, peak memory (VmHWM) \(peak / 1024) KiB, "
        + "junk answers \(statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))"
    )
  }

  /// The listener's port, from the authorize URL's `redirect_uri`.
  static func loopbackPort(inAuthorizeURL url: String) -> Int? {
    guard let redirect = URLComponents(string: url)?.queryItems?.first(where: { $0.name == "redirect_uri" })?.value,
      let port = URLComponents(string: redirect)?.port
    else { return nil }
    return port
  }

  /// Twenty callback targets that carry the real code but must not be accepted.
  static func forgedCallbacks(code: String, state: String) -> [String] {
    let flipped = String(state.dropLast()) + (state.hasSuffix("A") ? "B" : "A")
    let states = [
      "WRONG", "", flipped, state + "x", String(state.dropLast()),
      state.uppercased() == state ? state.lowercased() : state.uppercased(),
      "%zz", String(repeating: "A", count: state.count), state + "%00", "x" + state,
    ]
    var targets = states.map { "/callback?code=\(code)&state=\($0)" }
    targets += [
      "/callback?code=\(code)",
      "/callback?code=\(code)&state=\(state)&state=WRONG",
      "/callback?code=\(code)&state=WRONG&state=\(state)",
      "/callback?code=\(code)&state=\(state)&state=\(state)",
      "/callback?error=access_denied&state=WRONG",
      "/callback?error=access_denied",
      "/callback?code=\(code)&code=\(code)&state=WRONG",
      "/callback?code=\(code)&STATE=\(state)",
      "/callback?code=\(code)&state%3D\(state)",
      "/callback?code=\(code)&state=\(state.dropFirst())",
    ]
    return targets
  }

  /// Header blocks (CRLF-terminated lines) naming a host other than `127.0.0.1:PORT`.
  static func foreignHostHeads(port: Int) -> [String] {
    [
      "Host: evil.test\r\n", "Host: evil.test:\(port)\r\n", "Host: localhost:\(port)\r\n",
      "Host: 127.0.0.1\r\n", "Host: 127.0.0.1:\(port + 1)\r\n", "Host: [::1]:\(port)\r\n",
      "Host: 127.0.0.1:0\(port)\r\n", "", "Host: 127.0.0.1:\(port)\r\nHost: evil.test\r\n",
      "Host: 127.000.000.001:\(port)\r\n",
    ]
  }
}

// MARK: - Raw clients

/// A blocking TCP connection to 127.0.0.1 with 10 s send and receive timeouts, or nil.
private func connectLoopback(port: Int) -> Int32? {
  let fd = LoopbackSocket.connect(port: port, timeout: 10)
  return fd >= 0 ? fd : nil
}

/// The status code of an HTTP response, or nil when no status line came back.
private func statusCode(_ response: [UInt8]) -> Int? {
  guard response.count >= 12, response.starts(with: Array("HTTP/1.".utf8)) else { return nil }
  return Int(String(decoding: response[9..<12], as: UTF8.self))
}

/// One request on a fresh connection: the status and the whole response text.
private func request(port: Int, _ bytes: [UInt8]) -> (Int?, String) {
  guard let fd = connectLoopback(port: port) else { return (nil, "connect failed, errno \(errno)") }
  defer { close(fd) }
  LoopbackSocket.sendAll(fd, bytes)
  let response = LoopbackSocket.receiveAll(fd).bytes
  return (statusCode(response), String(decoding: response, as: UTF8.self))
}

private func request(port: Int, _ text: String) -> (Int?, String) { request(port: port, Array(text.utf8)) }

/// The status of one request on a fresh connection.
private func exchange(port: Int, _ text: String) -> Int? { request(port: port, text).0 }

/// Raises this process's soft `RLIMIT_NOFILE` (inherited by ghlogin) to `wanted`, within the hard limit.
private func raiseDescriptorLimit(to wanted: rlim_t) {
  var limit = rlimit()
  guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < wanted else { return }
  limit.rlim_cur = min(wanted, limit.rlim_max)
  setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

/// Connections that stall: `silent` send nothing; `trickling` send one byte of a request head
/// a second (slowloris) from a thread of their own, until ``stop()``.
private final class Stallers: @unchecked Sendable {
  private let lock = NSLock()
  private var fds: [Int32] = []
  private var trickling: [Int32] = []
  private var stopped = false

  init(port: Int, silent: Int, trickling count: Int) {
    for _ in 0..<(silent + count) {
      if let fd = connectLoopback(port: port) { fds.append(fd) }
    }
    trickling = Array(fds.suffix(count))
    let head = Array("GET /callback?code=slow&state=slow HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
    Thread { [self] in
      var index = 0
      while true {
        lock.lock()
        let done = stopped
        let targets = trickling
        lock.unlock()
        if done { return }
        for fd in targets { _ = send(fd, [head[index % head.count]], 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        index += 1
        Thread.sleep(forTimeInterval: 1)
      }
    }.start()
  }

  /// How many stalled connections the server has not closed (no EOF or error pending).
  func openCount() -> Int {
    lock.lock()
    defer { lock.unlock() }
    return fds.filter { fd in
      var byte: UInt8 = 0
      let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
      return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }.count
  }

  func stop() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    stopped = true
    for fd in fds { close(fd) }
  }
}

/// `connections` junk clients on `threads` threads. Each thread works in batches of 25: it
/// connects all of a batch and sends each its junk message, then reads every answer to EOF, so
/// up to `threads` × 25 junk connections are open at once. Records each client's answer status
/// (nil: none) and when it ended.
private final class JunkFlood: @unchecked Sendable {
  static let batch = 25
  private let condition = NSCondition()
  private var results: [(status: Int?, ended: Date)] = []
  private(set) var sent = 0
  private var running: Int

  init(port: Int, connections: Int, threads: Int) {
    running = threads
    for thread in 0..<threads {
      Thread { [self] in
        let mine = Array(stride(from: thread, to: connections, by: threads))
        for start in stride(from: 0, to: mine.count, by: Self.batch) {
          let open = mine[start..<min(mine.count, start + Self.batch)].map { index -> Int32? in
            guard let fd = connectLoopback(port: port) else { return nil }
            LoopbackSocket.sendAll(fd, Self.junk(index, port: port))
            return fd
          }
          condition.lock()
          sent += open.count
          condition.broadcast()
          condition.unlock()
          for fd in open {
            let status = fd.map { fd in
              defer { close(fd) }
              return statusCode(LoopbackSocket.receiveAll(fd).bytes)
            }
            condition.lock()
            results.append((status ?? nil, Date()))
            condition.unlock()
          }
        }
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
      }.start()
    }
  }

  /// Junk message number `index`: random bytes, wrong paths and methods, an oversized head,
  /// bare LFs, smuggling framings, a NUL, a TLS hello, an HTTP/2 preface, no Host.
  static func junk(_ index: Int, port: Int) -> [UInt8] {
    let host = "Host: 127.0.0.1:\(port)\r\n"
    switch index % 11 {
    case 0:
      var generator = SystemRandomNumberGenerator()
      return (0..<(1 + index % 200)).map { _ in UInt8.random(in: 0...255, using: &generator) } + Array("\r\n\r\n".utf8)
    case 1: return Array("GET / HTTP/1.1\r\n\(host)\r\n".utf8)
    case 2: return Array("GET /favicon.ico HTTP/1.1\r\n\(host)\r\n".utf8)
    case 3: return Array("POST /callback HTTP/1.1\r\n\(host)Content-Length: 5\r\n\r\nhello".utf8)
    case 4: return Array("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\n\(host)\r\n".utf8)
    case 5: return Array("GET /callback?code=a&state=b HTTP/1.1\nHost: 127.0.0.1:\(port)\n\n".utf8)
    case 6:
      return Array("GET /callback HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n".utf8)
    case 7: return Array("GET /callback?code=a\0&state=b HTTP/1.1\r\n\(host)\r\n".utf8)
    case 8: return [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + Array("\r\n\r\n".utf8)
    case 9: return Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    default: return Array("GET /callback?code=a&state=b HTTP/1.1\r\n\r\n".utf8)
    }
  }

  /// Waits until `count` clients have connected and sent their junk; false on timeout.
  func waitUntilSent(atLeast count: Int, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while sent < count { if !condition.wait(until: deadline) { return sent >= count } }
    return true
  }

  /// How many clients have their answer (or EOF) so far.
  var answered: Int {
    condition.lock()
    defer { condition.unlock() }
    return results.count
  }

  /// Waits for every thread to finish.
  func wait() {
    condition.lock()
    defer { condition.unlock() }
    while running > 0 { condition.wait() }
  }

  /// Every client's answer status and end time.
  func outcomes() -> [(status: Int?, ended: Date)] {
    condition.lock()
    defer { condition.unlock() }
    return results
  }
}

/// Samples `VmHWM` (peak resident set) from `/proc/PID/status` every 10 ms on a thread of its
/// own, until ``stop()`` or the process is gone; ``peakBytes`` is the largest value read.
private final class PeakMemorySampler: @unchecked Sendable {
  private let lock = NSLock()
  private var peak = 0
  private var stopped = false

  init(pid: pid_t) {
    Thread { [self] in
      while true {
        lock.lock()
        let done = stopped
        lock.unlock()
        guard !done, let status = readProcFile("/proc/\(pid)/status") else { return }
        if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kib = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).dropLast(3))
        {
          lock.lock()
          peak = max(peak, kib * 1024)
          lock.unlock()
        }
        Thread.sleep(forTimeInterval: 0.01)
      }
    }.start()
  }

  var peakBytes: Int {
    lock.lock()
    defer { lock.unlock() }
    return peak
  }

  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
  }
}
