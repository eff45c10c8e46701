extension Environment {
  /// The environment of this process: its arguments, variables, standard streams and the real clock.
  package static func process() -> Environment {
    let variables = EnvironmentVariables.process
    // The closures below read the process's variables where they are (ghlogin never changes
    // them) and capture nothing: no context for every run to allocate and destroy.
    var environment = Environment(
      arguments: Array(CommandLine.arguments.dropFirst()),
      variables: variables,
      stdout: FileOutput(fd: ProcessState.standardOutput),
      stderr: FileOutput(fd: ProcessState.standardError),
      stdin: FileInput(fd: ProcessState.standardInput),
      clock: SystemClock(),
      browser: SystemBrowser(),
      transport: { caFile in HTTPClient(variables: .process, caFile: caFile, userAgent: Release.userAgent) },
      interruptDescriptor: {
        let fd = Interrupt.install()
        return fd >= 0 ? fd : nil
      },
      installedInterruptDescriptor: { Interrupt.installedFD }
    )
    if let argument0 = CommandLine.arguments.first {
      environment.programName = FilePath.name(of: argument0)
    }
    environment.resolveExecutablePath = {
      ExecutablePath.resolve(
        argument0: CommandLine.arguments.first ?? ProductNames.defaultProgramName,
        path: EnvironmentVariables.process["PATH"])
    }
    return environment
  }
}
