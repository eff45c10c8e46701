import Foundation
import GHLoginTestSupport
import Testing

/// A real Secret Service for one test: a private D-Bus session bus (`dbus-daemon` with its own
/// config: no service activation, so nothing else starts on it) and `gnome-keyring-daemon`
/// on it, its login collection created and unlocked with a test password given on stdin.
/// Both run in a private `HOME`, never touching the developer's own keyring, and are killed
/// when the object goes away.
final class KeyringSession: @unchecked Sendable {
  static let password = "ghlogin-test-password"
  static let tools = ["dbus-daemon", "gnome-keyring-daemon", "secret-tool", "dbus-send"]

  /// Why the keyring tests cannot run here, or nil when they can. Under CI (`CI=true`) the
  /// tools are required: the tests then run and fail rather than being skipped.
  static let unavailableReason: String? = {
    let missing = tools.filter { path(of: $0) == nil }
    guard !missing.isEmpty else { return nil }
    if ProcessInfo.processInfo.environment["CI"] == "true" { return nil }
    return "keyring tests skipped: \(missing.joined(separator: ", ")) not installed "
      + "(apt-get install dbus gnome-keyring libsecret-tools)"
  }()

  static var isAvailable: Bool { unavailableReason == nil }

  /// The session's directory (bus socket, runtime directory, `HOME`), removed with the session.
  private let root: TemporaryDirectory
  var directory: String { root.path }
  let busAddress: String
  private let bus: ChildProcess
  private let keyring: ChildProcess

  init() throws {
    root = try TemporaryDirectory(prefix: "ghlogin-keyring")
    let directory = root.path
    let runtime = directory + "/run"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    let socket = directory + "/bus"
    let config = """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>session</type>
        <listen>unix:path=\(socket)</listen>
        <auth>EXTERNAL</auth>
        <policy context="default">
          <allow send_destination="*" eavesdrop="true"/>
          <allow eavesdrop="true"/>
          <allow own="*"/>
        </policy>
      </busconfig>
      """
    try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
    busAddress = "unix:path=" + socket
    let base = Self.baseEnvironment(home: directory, runtime: runtime)
    bus = try ChildProcess(
      executable: try Self.require("dbus-daemon"),
      arguments: ["--config-file=" + directory + "/bus.conf", "--nofork", "--print-address=1"], environment: base,
      stdin: "")
    _ = try bus.waitForLine(.stdout, timeout: 20) { $0.hasPrefix("unix:") }
    var keyringEnvironment = base
    keyringEnvironment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
    keyring = try ChildProcess(
      executable: try Self.require("gnome-keyring-daemon"),
      arguments: ["--foreground", "--unlock", "--components=secrets"], environment: keyringEnvironment,
      stdin: Self.password)
    try waitUntilServing()
  }

  /// Stops the daemon (SIGSTOP): the bus still takes calls for it, which nothing answers.
  func pause() { keyring.send(signal: SIGSTOP) }

  /// Lets a paused daemon go on (SIGCONT).
  func resume() { keyring.send(signal: SIGCONT) }

  deinit {
    keyring.send(signal: SIGCONT)
    keyring.send(signal: SIGTERM, group: true)
    bus.send(signal: SIGTERM, group: true)
  }

  /// The variables a client of this keyring needs: the bus, and a `HOME` of the session's.
  var environment: [String: String] {
    ["DBUS_SESSION_BUS_ADDRESS": busAddress, "XDG_RUNTIME_DIR": directory + "/run"]
  }

  /// Runs `secret-tool` with `arguments` on this session's bus.
  @discardableResult
  func secretTool(_ arguments: [String], stdin: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
    let child = try ChildProcess(
      executable: try Self.require("secret-tool"), arguments: arguments,
      environment: Self.baseEnvironment(home: directory, runtime: directory + "/run").merging(environment) { $1 },
      stdin: stdin)
    return try child.finish(timeout: 30)
  }

  /// The secret of the ghlogin item with these attributes (and `client_id` when given), via
  /// `secret-tool lookup`; nil when none.
  func lookup(host: String, login: String, userID: Int, kind: String, clientID: String? = nil) throws -> String? {
    let result = try secretTool(
      [
        "lookup", "application", "ghlogin", "host", host, "login", login, "user_id", String(userID), "kind", kind,
      ] + (clientID.map { ["client_id", $0] } ?? []))
    return result.status == 0 ? result.stdout : nil
  }

  /// Stores an item as another program would (`secret-tool store`), with `attributes` (name,
  /// value, name, value, ...) and `secret`, in `collection` (an alias or object path; the
  /// default collection when nil).
  func plant(_ secret: String, attributes: [String], collection: String? = nil) throws {
    let options = ["store", "--label=planted"] + (collection.map { ["--collection=" + $0] } ?? [])
    let result = try secretTool(options + attributes, stdin: secret)
    guard result.status == 0 else { throw HarnessError("secret-tool store failed: \(result.stderr)") }
  }

  /// Makes the daemon read its keyring file again before the next request, as it does after a
  /// restart: it reloads `login.keyring` when the file's or its directory's modification time
  /// changes, compared to the second, so both are set 5 s ahead. An item another program
  /// stored then loses what the daemon kept only in memory (its schema, which the file does not
  /// hold: a reloaded item's is `org.freedesktop.Secret.Generic`).
  func reloadFromDisk() throws {
    let keyrings = directory + "/data/keyrings"
    let later: [FileAttributeKey: Any] = [.modificationDate: Date(timeIntervalSinceNow: 5)]
    try FileManager.default.setAttributes(later, ofItemAtPath: keyrings + "/login.keyring")
    try FileManager.default.setAttributes(later, ofItemAtPath: keyrings)
  }

  /// The secrets of every ghlogin item, in every collection, sorted (`secret-tool search --all`,
  /// which prints each as `secret = ...`).
  func allSecrets() throws -> [String] {
    let result = try secretTool(["search", "--all", "--unlock", "application", "ghlogin"])
    return result.stdout.split(separator: "\n").compactMap { line in
      line.hasPrefix("secret = ") ? String(line.dropFirst("secret = ".count)) : nil
    }.sorted()
  }

  /// How many ghlogin items the keyring holds (`secret-tool search --all`).
  func itemCount() throws -> Int {
    let result = try secretTool(["search", "--all", "application", "ghlogin"])
    return result.stdout.split(separator: "\n").filter { $0.hasPrefix("[") }.count
  }

  /// The attributes of the one ghlogin item of `kind` (`secret-tool search`, which prints
  /// them on stderr); nil unless there is exactly one.
  func attributes(kind: String) throws -> [String: String]? {
    let result = try secretTool(["search", "--all", "application", "ghlogin", "kind", kind])
    guard result.stdout.split(separator: "\n").filter({ $0.hasPrefix("[") }).count == 1 else { return nil }
    var attributes: [String: String] = [:]
    for line in result.stderr.split(separator: "\n") where line.hasPrefix("attribute.") {
      let parts = line.dropFirst("attribute.".count).split(separator: " = ", maxSplits: 1).map(String.init)
      if parts.count == 2 { attributes[parts[0]] = parts[1] }
    }
    return attributes
  }

  /// Locks the login collection (`org.freedesktop.Secret.Service.Lock`): the next read asks for
  /// an unlock prompt, which cannot be shown here and so counts as dismissed.
  func lock() throws {
    let child = try ChildProcess(
      executable: try Self.require("dbus-send"),
      arguments: [
        "--session", "--dest=org.freedesktop.secrets", "--print-reply", "/org/freedesktop/secrets",
        "org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/collection/login",
      ],
      environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }, stdin: "")
    let result = try child.finish(timeout: 30)
    guard result.status == 0 else { throw HarnessError("could not lock the keyring: \(result.stderr)") }
  }

  /// Waits until the daemon answers on the bus (a search succeeds).
  private func waitUntilServing() throws {
    let deadline = Date(timeIntervalSinceNow: 20)
    while Date() < deadline {
      if (try? secretTool(["search", "application", "ghlogin-probe"]))?.stderr.isEmpty == true { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw HarnessError("gnome-keyring-daemon did not come up: \(keyring.text(.stderr))")
  }

  private static func baseEnvironment(home: String, runtime: String) -> [String: String] {
    [
      "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_RUNTIME_DIR": runtime,
      "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
    ]
  }

  private static func path(of tool: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + tool }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  private static func require(_ tool: String) throws -> String {
    guard let path = path(of: tool) else { throw HarnessError("\(tool) is not installed") }
    return path
  }
}
