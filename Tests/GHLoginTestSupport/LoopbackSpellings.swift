import Testing

/// R98: spellings of a host in a plain `http://` URL, with what ghlogin must
/// make of each, shared by the unit tests (URL check, config decoding, the library's
/// configuration, the connection) and the end-to-end tests (`config set`, a load).
public enum LoopbackSpelling {
  /// What becomes of `http://HOST/...`.
  public enum Outcome: Sendable, Equatable {
    /// A literal loopback address: accepted, and connected as parsed.
    case loopback
    /// Not a literal loopback address: refused as plain http (exit 2).
    case insecure
    /// Not a URL at all: refused with this parse reason (exit 2).
    case invalid(String)
  }

  /// One spelling as a test argument, named by its host.
  public struct Case: CustomTestStringConvertible, Sendable {
    public let host: String
    public let outcome: Outcome
    public var testDescription: String { host }
  }

  /// ``table`` as test arguments.
  public static let cases = table.map { Case(host: $0.host, outcome: $0.outcome) }

  /// `(host as written in the URL, outcome)`.
  public static let table: [(host: String, outcome: Outcome)] = [
    ("127.0.0.1", .loopback),
    ("127.255.255.254", .loopback),
    ("127.0.0.0", .loopback),
    ("127.10.0.200", .loopback),
    ("[::1]", .loopback),
    ("[0:0::1]", .loopback),
    ("[0:0:0:0:0:0:0:1]", .loopback),
    ("[0000:0000:0000:0000:0000:0000:0000:0001]", .loopback),
    ("[::0.0.0.1]", .loopback),
    // glibc's getaddrinfo does not take these as numbers; some go to DNS (the attack).
    ("127.0.0.08", .insecure),
    ("127.0.0.010", .insecure),
    ("127.000.000.001", .insecure),
    ("0177.0.0.1", .insecure),
    ("127.1", .insecure),
    ("127.0.1", .insecure),
    ("0x7f.0.0.1", .insecure),
    ("0x7f000001", .insecure),
    ("2130706433", .insecure),
    ("127.0.0.256", .insecure),
    ("127.0.0.1.0", .insecure),
    ("128.0.0.1", .insecure),
    ("10.0.0.1", .insecure),
    ("localhost", .insecure),
    ("127.0.0.1.nip.io", .insecure),
    ("[::ffff:127.0.0.1]", .insecure),
    ("[::ffff:7f00:1]", .insecure),
    ("[::]", .insecure),
    ("[::2]", .insecure),
    ("[1::1]", .insecure),
    ("127.0.0.1.", .invalid("'127.0.0.1.' is not a valid host name")),
    ("127..0.1", .invalid("'127..0.1' is not a valid host name")),
  ]

  /// The config keys that hold a URL, each checked by the same rule.
  public static let urlKeys = ["authorize_url", "token_url", "device_code_url", "api_url"]
}
