/// Why the configuration cannot be used. Every case exits with status 2 (usage or
/// configuration error): the user has to change the file or the environment.
///
/// Messages name the file and the key path (`hosts.ghe.example.com.client_id`), never a value
/// from the file, so a client secret cannot leak into them.
package enum ConfigError: ReportableError, Equatable, Sendable {
  /// Neither `HOME` nor `XDG_CONFIG_HOME` is an absolute path, and `GHLOGIN_CONFIG` and
  /// `GHLOGIN_CREDENTIALS` do not both name the files.
  case noHome
  /// The file is not valid JSON.
  case invalidJSON(file: String, JSONError)
  /// The top level of the file is not an object.
  case notAnObject(file: String)
  /// A key holds a value of the wrong JSON type; `expected` reads like "a string".
  case wrongType(file: String, key: String, expected: String)
  /// A key the config does not know, with the nearest known key when one is close.
  case unknownKey(file: String, key: String, suggestion: String?)
  /// A value of the right type that is still not acceptable.
  case invalidValue(file: String, key: String, reason: String)
  /// A URL that does not parse.
  case invalidURL(file: String, key: String, reason: String)
  /// A plain `http://` URL whose host is not a literal loopback address (`localhost` is not one).
  case insecureURL(file: String, key: String)
  /// The path is a symbolic link (the config is opened with `O_NOFOLLOW`).
  case symbolicLink(file: String)
  /// The path is not a regular file.
  case notRegularFile(file: String)
  /// The file belongs to another user than the one running ghlogin, and not to root (R93).
  case notOwned(file: String, owner: UInt32, user: UInt32)
  /// Group or others may write the file (R93): they could send the token anywhere.
  case writableByOthers(file: String, mode: UInt32)
  /// A directory above the file belongs to another user than the one running ghlogin and root,
  /// or group or others may write it without it being sticky and root's (R110, R94): they
  /// could replace the file.
  case unsafeDirectory(file: String, directory: String, writable: Bool)
  /// The file is larger than ``Config/maximumFileSize``.
  case tooLarge(file: String)
  /// The file could not be read.
  case unreadable(file: String, SystemError)
  /// `GHLOGIN_CONFIG` names a file that does not exist.
  case namedFileMissing(file: String)
  /// No `host`, and the top-level endpoints are not on one host (``EndpointHost``, R87);
  /// `endpoints` lists each setting with the host it names.
  case ambiguousHost(file: String, endpoints: [EndpointAuthority])
  /// An environment variable such as `GHLOGIN_CLIENT_ID` holds an unusable value.
  case invalidEnvironment(variable: String, reason: String)

  package var exitStatus: ExitStatus { .usage }
  package var errorKind: ErrorKind { .configuration }

  package var message: String { message(.words) }

  package func message(_ remedies: Remedies) -> String {
    switch self {
    case .noHome:
      "cannot find the config directory: HOME is not set to an absolute path; set HOME (or XDG_CONFIG_HOME, "
        + "or both GHLOGIN_CONFIG and GHLOGIN_CREDENTIALS)"
    case .invalidJSON(let file, let error):
      "\(file): invalid JSON at line \(error.line), column \(error.column): \(error.reason)"
    case .notAnObject(let file):
      "\(file): the top level must be a JSON object ({ ... })"
    case .wrongType(let file, let key, let expected):
      "\(file): \(remedies.quoted(key: key)) must be \(expected)"
    case .unknownKey(let file, let key, let suggestion?):
      "\(file): unknown key \"\(key)\"; did you mean \"\(suggestion)\"?"
    case .unknownKey(let file, let key, nil):
      "\(file): unknown key \"\(key)\""
    case .invalidValue(let file, let key, let reason):
      "\(file): \(remedies.quoted(key: key)) \(reason)"
    case .invalidURL(let file, let key, let reason):
      "\(file): \(remedies.quoted(key: key)) is not a valid URL: \(reason)"
    case .insecureURL(let file, let key):
      "\(file): \(remedies.quoted(key: key)) uses http://; https is required except for literal loopback addresses "
        + "(127.0.0.0/8 as four plain decimal numbers such as 127.0.0.1, or [::1]), not the name localhost, "
        + "which may resolve elsewhere"
    case .symbolicLink(let file):
      "refusing to use \(file): it is a symbolic link; replace it with the file itself"
    case .notOwned(let file, let owner, let user):
      "refusing to read \(file): it belongs to another user (uid \(owner)), who could decide where your token is sent; "
        + "run sudo chown \(user) \(file)"
    case .writableByOthers(let file, let mode):
      "refusing to read \(file): its permissions \(FileMode.octal(mode)) let group or others change it, and it "
        + "decides where your token is sent; run chmod go-w \(file)"
    case .unsafeDirectory(let file, let directory, writable: true):
      "refusing to read \(file): the directory \(directory) is writable by group or others, who could replace the "
        + "file, and it decides where your token is sent; run chmod go-w \(directory), or move the file"
    case .unsafeDirectory(let file, let directory, writable: false):
      "refusing to read \(file): the directory \(directory) belongs to another user, who could replace the file, "
        + "and it decides where your token is sent; move the file to a directory of yours"
    case .notRegularFile(let file):
      "\(file) is not a regular file"
    case .tooLarge(let file):
      "\(file) is larger than 1 MiB; it is not a \(remedies.program.map { $0 + " " } ?? "")config file"
    case .unreadable(let file, let error):
      "cannot read \(file): \(error.reason)"
    case .namedFileMissing(let file):
      "GHLOGIN_CONFIG names \(file), which does not exist; create it"
        + (remedies.command(.setConfig(.clientID, host: nil, value: "YOUR_CLIENT_ID")).map { " with '\($0)'" } ?? "")
        + ", or unset GHLOGIN_CONFIG"
    case .ambiguousHost(let file, let endpoints):
      "\(file): the endpoints are not on one host (\(EndpointAuthority.list(endpoints, remedies))), so the host "
        + "this login is for is unclear; "
        + (remedies.namesSettingsByKey
          ? "add \"host\": \"HOST\" naming the server that issues the tokens"
          : "set \(remedies.name(.host)) to the server that issues the tokens")
    case .invalidEnvironment(let variable, let reason):
      "\(variable) \(reason)"
    }
  }
}
