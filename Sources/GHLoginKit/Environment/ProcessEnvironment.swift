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
    let captured = variables
    var environment = Environment(
      arguments: Array(CommandLine.arguments.dropFirst()),
      variables: variables,
      stdout: FileOutput(fd: STDOUT_FILENO),
      stderr: FileOutput(fd: STDERR_FILENO),
      stdin: FileInput(fd: STDIN_FILENO),
      clock: SystemClock(),
      browser: SystemBrowser(),
      transport: { caFile in HTTPClient(variables: captured, caFile: caFile, userAgent: GHLogin.userAgent) },
      interruptDescriptor: {
        let fd = Interrupt.install()
        return fd >= 0 ? fd : nil
      }
    )
    let path = variables["PATH"]
    environment.resolveExecutablePath = {
      ExecutablePath.resolve(argument0: CommandLine.arguments.first ?? "ghlogin", path: path)
    }
    return environment
  }
}
