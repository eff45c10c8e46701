/// The environment variables a command reads: this process's own, looked up in `environ` one
/// name at a time, or a fixed set (tests, a library caller's ``Environment``).
///
/// The process's variables are not copied into a dictionary at start-up: a desktop session has
/// 40 to 80 of them, and hashing them all cost `token` more than the rest of its own work
/// (bench/RESULTS.md, issue 19) for the dozen names it reads. ``all`` copies them for the few places that
/// hand the whole environment on (a child process's environment, the `config` help topic).
package struct EnvironmentVariables: Sendable, ExpressibleByDictionaryLiteral {
  private enum Source: Sendable {
    case process
    case fixed([String: String])
  }
  private var source: Source

  /// This process's variables, read where they are (`environ`) each time one is asked for.
  /// ghlogin never changes its own environment (no `setenv`), so reads from any thread agree.
  package static var process: EnvironmentVariables { EnvironmentVariables(source: .process) }

  private init(source: Source) { self.source = source }

  /// A fixed set of variables, as a dictionary.
  package init(_ variables: [String: String]) { source = .fixed(variables) }

  package init(dictionaryLiteral elements: (String, String)...) {
    source = .fixed(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }

  /// The value of `name`, or nil when it is not set. Setting one turns a process environment
  /// into a fixed copy with that change (the process's own environment is never written).
  package subscript(name: String) -> String? {
    get {
      switch source {
      case .process: ProcessState.environmentVariable(name)
      case .fixed(let variables): variables[name]
      }
    }
    set {
      var variables = all
      variables[name] = newValue
      source = .fixed(variables)
    }
  }

  /// Every variable, as a dictionary (a copy of `environ` for the process).
  package var all: [String: String] {
    switch source {
    case .process: ProcessState.environmentVariables()
    case .fixed(let variables): variables
    }
  }
}
