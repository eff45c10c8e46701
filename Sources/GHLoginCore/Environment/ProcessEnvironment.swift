extension Environment {
  /// The environment of this process: its arguments, variables, standard streams and the real clock.
  package static func process() -> Environment {
    let variables = EnvironmentVariables.process
    let captured = variables
    var environment = Environment(
      arguments: Array(CommandLine.arguments.dropFirst()),
      variables: variables,
      stdout: FileOutput(fd: ProcessState.standardOutput),
      stderr: FileOutput(fd: ProcessState.standardError),
      stdin: FileInput(fd: ProcessState.standardInput),
      clock: SystemClock(),
      browser: SystemBrowser(),
      transport: { caFile in HTTPClient(variables: captured, caFile: caFile, userAgent: Release.userAgent) },
      interruptDescriptor: {
        let fd = Interrupt.install()
        return fd >= 0 ? fd : nil
      },
      installedInterruptDescriptor: { Interrupt.installedFD }
    )
    if let argument0 = CommandLine.arguments.first {
      environment.programName = FilePath.name(of: argument0)
    }
    let path = variables["PATH"]
    environment.resolveExecutablePath = {
      ExecutablePath.resolve(argument0: CommandLine.arguments.first ?? ProductNames.defaultProgramName, path: path)
    }
    return environment
  }
}
