import GHLoginCore

/// `ghlogin config get|set|unset|path`: read and edit the config file without an editor
/// (gh has `gh config`). Edits keep every other key, are checked exactly as a load checks the
/// file (the same trust check first, R93), and replace it atomically under the config's lock
/// (R99); a client secret is read from stdin, never from argv.
struct ConfigCommand: Command {
  static let configuration = CommandConfiguration(
    name: "config", abstract: "read or change a setting in the config file",
    discussion: """
      list prints every key set in the config file, one per line as KEY=VALUE and the file it
      comes from (a host's keys as hosts.HOST.KEY; the client secret only as "set").
      get KEY prints the value of KEY as the file holds it (a list comma-separated); when the
      file does not set it, exit 1 with stdout empty and stderr saying how to set it (or which
      other layer sets it). The client secret is never printed. set KEY VALUE sets it, unset KEY removes
      it, path prints where the config file is. A list (scopes) is given comma-separated:
      repo,read:org. With --host, the key is read or written in that host's block under "hosts".

      The client secret is read from stdin, never from the command line, where ps and your
      shell's history would keep it: 'ghlogin config set client_secret -' (on a terminal, the
      input is not shown). Given on the command line, it is refused and nothing is written.

      Every key and environment variable, with the files as resolved now: ghlogin help config
      """,
    options: [
      .option(
        "host", short: "h", value: "HOST", help: "Read or write the key in this host's block (default: the top level)",
        aliases: ["hostname"])
    ],
    arguments: [
      ArgumentSpec(
        "ACTION", help: "list, get, set, unset or path", choices: ["list", "get", "set", "unset", "path"]),
      ArgumentSpec("KEY", help: "A config key (see 'ghlogin help config')", isOptional: true),
      ArgumentSpec("VALUE", help: "The new value; - reads it from stdin", isOptional: true),
    ])

  /// What was asked.
  enum Action: Equatable {
    case get(String)
    case set(String, String)
    case unset(String)
    case path
    case list
  }

  var action: Action
  var host: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    host = arguments.value("host")
    let words = arguments.positionals
    let expected = ["get": 2, "set": 3, "unset": 2, "path": 1, "list": 1][words[0]] ?? 0
    guard words.count == expected else {
      switch words[0] {
      case "set" where words.count == 2: throw UsageError("missing argument VALUE (or - to read it from stdin)")
      case "path", "list": throw UsageError("unexpected argument '\(words[1])'")
      default:
        throw UsageError(words.count < expected ? "missing argument KEY" : "unexpected argument '\(words[expected])'")
      }
    }
    if host != nil && (words[0] == "path" || words[0] == "list") {
      throw UsageError("--host is for get, set and unset")
    }
    switch words[0] {
    case "get": action = .get(words[1])
    case "set": action = .set(words[1], words[2])
    case "unset": action = .unset(words[1])
    case "list": action = .list
    default: action = .path
    }
    if let key = action.key { try Self.checkKey(key, host: host) }
    if case .set("client_secret", let value) = action, value != "-" {
      throw UsageError(
        "refusing to take client_secret from the command line (ps and shell history see it); nothing was written. "
          + "Run: ghlogin config set\(host.map { " --host \(ShellQuoting.quote($0, for: .sh))" } ?? "") client_secret -"
      )
    }
  }

  /// The keys `config` reads and writes: the top-level ones but `hosts`, or a block's.
  static func keys(host: String?) -> [String] {
    host == nil ? ConfigTopic.keys.map(\.name).filter { $0 != "hosts" } : ConfigDecoder.hostKeys
  }

  private static func checkKey(_ key: String, host: String?) throws(UsageError) {
    let known = keys(host: host)
    guard known.contains(key) else {
      let shown = Sanitize.escaped(key)
      if key == "hosts" { throw UsageError("to change a host's block, give --host HOST and one of its keys") }
      if host != nil, ConfigTopic.keys.contains(where: { $0.name == key }) {
        throw UsageError("\(shown) is a top-level key; leave out --host")
      }
      let hint = nearestCandidate(to: key, among: known).map { "; did you mean \($0)?" } ?? ""
      throw UsageError("unknown key \(shown)\(hint) (the keys: \(known.joined(separator: ", ")))")
    }
  }

  func run(in environment: Environment) throws -> ExitStatus {
    let paths = try ConfigPaths.resolve(environment.variables)
    if case .path = action {
      environment.stdout.write(paths.configFile + "\n")
      return .success
    }
    // Read (and judged, R93) before anything is asked or locked; an edit reads it again under the lock (R99).
    let current = try ConfigEditor(file: paths.configFile)
    switch action {
    case .list:
      environment.stdout.write(Self.listing(current.document, file: paths.configFile))
    case .get(let key):
      guard let value = current.value(key, host: host) else {
        environment.stderr.write(Self.notSet(key, host: host, file: paths.configFile, variables: environment.variables))
        return .failure
      }
      if key == "client_secret" {
        environment.stderr.write("client_secret is set in \(paths.configFile) (never printed)\n")
        return .success
      }
      environment.stdout.write(Self.text(of: value) + "\n")
    case .set(let key, let given):
      let text = given == "-" ? try Self.readValue(key, in: environment) : given
      let value = key == "account_rules" ? try Self.rules(text) : Self.value(text, for: key)
      try ConfigEditor.edit(file: paths.configFile) { editor in
        editor.set(key, to: value, host: host)
        return true
      }
      if key == "client_secret" {
        environment.stderr.write(
          "client_secret\(host.map { " for \(Sanitize.terminal($0))" } ?? "") written to \(paths.configFile)\n")
      }
    case .unset(let key):
      guard current.value(key, host: host) != nil else { return .success }
      try ConfigEditor.edit(file: paths.configFile) { editor in
        guard editor.value(key, host: host) != nil else { return false }
        editor.set(key, to: nil, host: host)
        return true
      }
    case .path:
      break
    }
    return .success
  }

  /// Why `get KEY` printed nothing (exit 1): the command that sets it, or, when another layer
  /// (the system file, the environment, the built-in app) sets it, that layer.
  static func notSet(_ key: String, host: String?, file: String, variables: EnvironmentVariables) -> String {
    let path = host.map { "hosts.\($0).\(key)" } ?? key
    let config = try? Config.load(paths: ConfigPaths.resolve(variables), variables: variables, unknownKeys: .lenient)
    var others = config?.entries.filter { $0.path == path && $0.source.layer != .user } ?? []
    if key == "client_id" || key == "client_secret" {
      let variable = key == "client_id" ? "GHLOGIN_CLIENT_ID" : "GHLOGIN_CLIENT_SECRET"
      others += config?.entries.filter { $0.path == variable } ?? []
    }
    let shownHost = host.map { " --host \(CommandHint.word($0))" } ?? ""
    if let other = others.last {
      return "\(key) is not set in \(Sanitize.terminal(file)); the \(other.source.layer.name) layer sets it "
        + "(\(Sanitize.terminal(other.source.location))): see 'ghlogin help config'\n"
    }
    let value = key == "client_secret" ? "-" : "VALUE"
    return "\(key) is not set; set it with: ghlogin config set\(shownHost) \(key) \(value)\n"
  }

  /// `config list`: each key set in `document` as `KEY=VALUE  (FILE)`, a host block's as
  /// `hosts.HOST.KEY`, the client secret as `set`.
  static func listing(_ document: JSONObject, file: String) -> String {
    func line(_ name: String, _ key: String, _ value: JSONValue) -> String {
      let shown = key == "client_secret" ? "set" : Self.text(of: value)
      return "\(Sanitize.terminal(name))=\(shown)  (\(file))\n"
    }
    var lines = ""
    for (key, value) in document.entries where key != "hosts" { lines += line(key, key, value) }
    for (host, block) in (document["hosts"]?.objectValue ?? JSONObject()).entries {
      for (key, value) in (block.objectValue ?? JSONObject()).entries {
        lines += line("hosts.\(host).\(key)", key, value)
      }
    }
    return lines
  }

  /// `scopes` and `container_registries` as lists (split at commas and spaces), everything
  /// else as a string.
  static func value(_ text: String, for key: String) -> JSONValue {
    guard key == "scopes" || key == "container_registries" else { return .string(text) }
    let names = text.split(whereSeparator: { $0 == "," || $0 == " " }).map { JSONValue.string(String($0)) }
    return .array(names)
  }

  /// `account_rules` as given to `set`: a JSON list, which replaces the file's whole (checked
  /// rule by rule when the edited file is checked, so a bad rule writes nothing).
  static func rules(_ text: String) throws(UsageError) -> JSONValue {
    guard let value = try? JSON.parse(Array(text.utf8)) else {
      throw UsageError(
        "account_rules must be a JSON list such as '[{\"dir\": \"~/work\", \"account\": \"LOGIN\"}]'; "
          + "nothing was written")
    }
    return value
  }

  /// A value as `get` prints it: a string as it is, a list comma-separated, anything else as JSON.
  static func text(of value: JSONValue) -> String {
    if let string = value.stringValue { return Sanitize.terminal(string) }
    if let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) {
      return Sanitize.terminal(list.compactMap(\.stringValue).joined(separator: ","))
    }
    return Sanitize.terminal(JSON.serialize(value))
  }

  /// The value for `set KEY -`: one line from stdin (on a terminal, read with echo off after a
  /// prompt on stderr), without its line ending.
  private static func readValue(_ key: String, in environment: Environment) throws -> String {
    var text: String
    if environment.stdin.isTerminal, let fd = environment.stdin.descriptor {
      environment.stderr.write("Paste the value of \(key) and press Enter (it is not shown): ")
      do {
        text = try HiddenInput.readLine(fd: fd, stopFD: environment.interruptDescriptor())
        environment.stderr.write("\n")
      } catch .interrupted {
        environment.stderr.write("\n")
        throw InterruptedInput()
      } catch {
        environment.stderr.write("\n")
        throw UsageError("no value was given on stdin; nothing was written")
      }
    } else {
      guard var bytes = environment.stdin.readAll(limit: 65_536) else {
        throw UsageError("the value on stdin is larger than 64 KiB; nothing was written")
      }
      if bytes.last == 0x0A { bytes.removeLast() }
      if bytes.last == 0x0D { bytes.removeLast() }
      text = String(decoding: bytes, as: UTF8.self)
    }
    guard !text.isEmpty else { throw UsageError("no value was given on stdin; nothing was written") }
    return text
  }
}

extension ConfigCommand.Action {
  /// The key the action names, if any.
  var key: String? {
    switch self {
    case .get(let key), .set(let key, _), .unset(let key): key
    case .path, .list: nil
    }
  }
}

/// Ctrl-C while a value was being typed: exit 130, nothing written.
struct InterruptedInput: ReportableError {
  var message: String { "interrupted; nothing was written" }
  var exitStatus: ExitStatus { .interrupted }
  var errorKind: ErrorKind { .cancelled }
}
