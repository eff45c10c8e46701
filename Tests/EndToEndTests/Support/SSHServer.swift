import Foundation
import GHLoginTestSupport

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Debian's OpenSSH server (`/usr/sbin/sshd`, package `openssh-server`, which `.ci/run`
/// installs) on 127.0.0.1 for the `ghlogin ssh` tests (issue 35 §4): its own host key, its own
/// config (Debian's default `AcceptEnv LANG LC_*`, `AllowStreamLocalForwarding yes`,
/// `StreamLocalBindMask 0177`), a free port, started with `-D -e` and stopped (SIGTERM, then
/// the process group killed) when the last reference goes. The remote side is a second user,
/// ``remoteUser``, with a home directory of its own, created when missing: the tests run as root,
/// and the local store lives outside the remote side's HOME and `/tmp` files it can read.
final class SSHServer: @unchecked Sendable {
  /// The user the client logs in as.
  static let remoteUser = "ghlogin-remote"
  static let sshd = "/usr/sbin/sshd"

  /// Why the sshd tests cannot run here, or nil. Under CI nothing is a reason: a missing piece
  /// fails the test instead.
  static var unavailableReason: String? {
    if !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty { return nil }
    if geteuid() != 0 { return "needs root to log in over ssh as a second user" }
    if !FileManager.default.isExecutableFile(atPath: sshd) { return "openssh-server is not installed (.ci/run)" }
    if HarnessPaths.findOnPath("ssh") == nil { return "openssh-client is not installed (.ci/run)" }
    return nil
  }

  static var isAvailable: Bool { unavailableReason == nil }

  /// One server at a time in this process: each sets the one remote user's login shell, and
  /// suites run in parallel. Held from the start of `init` until the server is released (also
  /// when `init` throws: an initialized stored property is destroyed then).
  private final class Turn: @unchecked Sendable {
    static let semaphore = DispatchSemaphore(value: 1)
    init() { Self.semaphore.wait() }
    deinit { Self.semaphore.signal() }
  }

  private let turn: Turn
  /// Host key, config, client key, known_hosts and authorized_keys (0700, root's).
  let directory: TemporaryDirectory
  let port: Int
  let process: ChildProcess
  /// The remote user's home directory.
  let remoteHome: String

  /// Starts sshd; the remote user logs in with `shell` as its login shell.
  init(shell: String = "/bin/bash") throws {
    turn = Turn()
    guard geteuid() == 0 else { throw HarnessError("the sshd tests need root (a second user logs in)") }
    guard FileManager.default.isExecutableFile(atPath: Self.sshd) else {
      throw HarnessError("\(Self.sshd) is missing: install openssh-server (.ci/run does)")
    }
    remoteHome = try Self.prepareRemoteUser(shell: shell)
    directory = try TemporaryDirectory(prefix: "ghlogin-sshd")
    let keygen = try Self.program("ssh-keygen")
    for key in ["host_key", "client_key"] {
      try Self.check(keygen, ["-q", "-t", "ed25519", "-N", "", "-C", key, "-f", directory.at(key)])
    }
    try FileManager.default.copyItem(atPath: directory.at("client_key.pub"), toPath: directory.at("authorized_keys"))
    chmod(directory.at("authorized_keys"), 0o644)
    // sshd drops to the user to read authorized_keys: it must reach the file.
    chmod(directory.path, 0o711)
    // Privilege separation needs /run/sshd (the package's service makes it at boot).
    if !FileManager.default.fileExists(atPath: "/run/sshd") {
      try FileManager.default.createDirectory(
        atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }
    var started: (ChildProcess, Int)?
    var lastError = ""
    for _ in 0..<5 where started == nil {
      let port = try Self.freePort()
      let config = """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(directory.at("host_key"))
        PidFile \(directory.at("sshd.pid"))
        AuthorizedKeysFile \(directory.at("authorized_keys"))
        StrictModes no
        UsePAM no
        PubkeyAuthentication yes
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        PermitRootLogin no
        AllowUsers \(Self.remoteUser)
        AcceptEnv LANG LC_*
        AllowStreamLocalForwarding yes
        StreamLocalBindMask 0177
        PrintMotd no
        LogLevel VERBOSE

        """
      try writeFile(directory.at("sshd_config"), config, mode: 0o600)
      let child = try ChildProcess(
        executable: Self.sshd, arguments: ["-D", "-e", "-f", directory.at("sshd_config")],
        environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
      // sshd ends its log lines with CR LF: wait for the port to answer instead.
      if Self.waitUntilListening(port, child, timeout: 20) {
        started = (child, port)
      } else {
        lastError = child.text(.stderr)
        child.send(signal: SIGKILL, group: true)
      }
    }
    guard let started else { throw HarnessError("sshd did not start: \(lastError)") }
    (process, port) = started
    let hostKey = try String(contentsOfFile: directory.at("host_key.pub"), encoding: .utf8)
    let fields = hostKey.split(separator: " ")
    try writeFile(directory.at("known_hosts"), "[127.0.0.1]:\(port) \(fields[0]) \(fields[1])\n")
  }

  deinit {
    process.send(signal: SIGTERM)
    _ = try? process.finish(timeout: 10)
    // `turn` is released after this, with the other stored properties.
  }

  /// What sshd logged so far.
  var log: String { process.text(.stderr) }

  /// The ssh options that reach this server as ``remoteUser`` with the test's keys and nothing
  /// from root's own configuration (before DESTINATION).
  var clientOptions: [String] {
    [
      "-F", "/dev/null", "-i", directory.at("client_key"), "-o", "IdentitiesOnly=yes", "-o",
      "UserKnownHostsFile=\(directory.at("known_hosts"))", "-o", "GlobalKnownHostsFile=/dev/null", "-o",
      "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-p", String(port),
    ]
  }

  /// `user@127.0.0.1`.
  var destination: String { "\(Self.remoteUser)@127.0.0.1" }

  /// Runs `ssh OPTIONS DESTINATION COMMAND` (the command one string, as the remote shell reads it).
  func ssh(_ extra: [String] = [], command: String, timeout: Double = 60) throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    try ChildProcess(
      executable: try Self.program("ssh"), arguments: clientOptions + extra + [destination, command],
      environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": directory.path, "LANG": "C.UTF-8"], stdin: ""
    ).finish(timeout: timeout)
  }

  /// Creates ``remoteUser`` (a home directory, an unlocked account with no password: sshd
  /// without PAM refuses a locked one) when missing, and sets its login shell. Its home.
  static func prepareRemoteUser(shell: String) throws -> String {
    if getpwnam(remoteUser) == nil {
      try check(
        try program("useradd"), ["--create-home", "--shell", shell, "--password", "*", remoteUser])
    }
    try check(try program("usermod"), ["--shell", shell, "--password", "*", remoteUser])
    guard let entry = getpwnam(remoteUser), let home = entry.pointee.pw_dir else {
      throw HarnessError("\(remoteUser) has no passwd entry")
    }
    return String(cString: home)
  }

  /// The remote user's uid and gid.
  static var remoteIDs: (uid: uid_t, gid: gid_t)? {
    guard let entry = getpwnam(remoteUser) else { return nil }
    return (entry.pointee.pw_uid, entry.pointee.pw_gid)
  }

  /// Whether something accepts connections on 127.0.0.1:`port` within `timeout` seconds,
  /// while `child` runs.
  static func waitUntilListening(_ port: Int, _ child: ChildProcess, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline && !child.hasExited {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      close(fd)
      if connected == 0 { return true }
      usleep(50_000)
    }
    return false
  }

  /// A TCP port nothing listens on now (bound to port 0, then closed).
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw HarnessError("bind: \(errno)") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  static func program(_ name: String) throws -> String {
    for directory in ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"] {
      let path = directory + "/" + name
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw HarnessError("\(name) is not installed")
  }

  private static func check(_ executable: String, _ arguments: [String]) throws {
    let result = try ChildProcess(executable: executable, arguments: arguments, environment: nil, stdin: "")
      .finish(timeout: 60)
    guard result.status == 0 else {
      throw HarnessError("\(executable) \(arguments.joined(separator: " ")): \(result.stderr)")
    }
  }
}
