#if canImport(Glibc)
  import Glibc
#endif

extension Environment {
  /// The environment of this process: its arguments, variables, standard streams and the real clock.
  public static func process() -> Environment {
    var variables: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let pair = String(cString: pointer)
      if let equals = pair.firstIndex(of: "=") {
        variables[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
      }
      entry += 1
    }
    return Environment(
      arguments: Array(CommandLine.arguments.dropFirst()),
      variables: variables,
      stdout: FileOutput(fd: STDOUT_FILENO),
      stderr: FileOutput(fd: STDERR_FILENO),
      stdin: FileInput(fd: STDIN_FILENO),
      clock: SystemClock(),
      browser: UnavailableBrowser(),
      transport: UnavailableTransport(),
      executablePath: CommandLine.arguments.first ?? "ghlogin"
    )
  }
}

/// Placeholder until the real browser launcher lands.
struct UnavailableBrowser: BrowserOpener {
  func open(_ url: WebURL, environment: [String: String]) throws {
    throw SystemError(call: "execve", errno: ENOSYS)
  }
}

/// Placeholder until the real HTTP client lands.
struct UnavailableTransport: HTTPTransport {
  func send(_ request: HTTPRequest, timeout: Double) throws -> HTTPResponse {
    throw SystemError(call: "connect", errno: ENOSYS)
  }
}
