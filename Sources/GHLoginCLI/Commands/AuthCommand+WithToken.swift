import GHLoginCore

/// `ghlogin auth --with-token`: store a token made elsewhere (a classic or fine-grained personal
/// access token, or a GitHub App user token) after GitHub has said whose it is (R81).
///
/// The token comes only from standard input (R81: never argv). From a pipe or a file it is the
/// whole input with surrounding whitespace removed; from a terminal it is one line read with the
/// echo off (``TerminalSecret``), after a prompt on stderr. `GET /user` checks it before
/// anything is stored: rejected → exit 4 and nothing stored. The login, id and the
/// `X-OAuth-Scopes` GitHub reports are recorded. No client ID or secret is needed.
extension AuthCommand {
  /// The most bytes read from standard input: tokens are far shorter.
  static let maximumTokenInput = 16 * 1024

  /// Why `--with-token` stored nothing, reading standard input or asking at the terminal (exit
  /// 2 unless said otherwise); what asking GitHub found is ``GivenTokenError``.
  struct WithTokenError: ReportableError, Equatable {
    enum Kind: Equatable {
      case empty
      case tooLarge
      case severalWords
      case unusable
      case cannotHideInput(String)
      case interrupted
      case kept(login: String, host: String)
    }

    var kind: Kind

    var message: String {
      switch kind {
      case .empty:
        return "no token on standard input; pipe one in, for example: ghlogin auth --with-token < token.txt"
      case .tooLarge:
        return "standard input is larger than 16 KiB; it is not a token. Nothing was stored"
      case .severalWords:
        return "standard input holds more than one word; give the token alone (one line). Nothing was stored"
      case .unusable:
        return "standard input is not a token: it has characters tokens never have (control characters, "
          + "non-ASCII or '='). Nothing was stored"
      case .cannotHideInput(let reason):
        return "cannot turn off the echo of this terminal (\(reason)), so the token is not read from it; "
          + "pipe it in instead: ghlogin auth --with-token < token.txt"
      case .interrupted:
        return "interrupted; nothing was stored"
      case .kept(let login, let host):
        return "kept the refreshable login of \(Sanitize.terminal(login)) on \(host); nothing was stored"
      }
    }

    var exitStatus: ExitStatus {
      switch kind {
      case .interrupted: .interrupted
      case .kept: .failure
      default: .usage
      }
    }

    var errorKind: ErrorKind {
      switch kind {
      case .interrupted, .kept: .cancelled
      default: .configuration
      }
    }
  }

  /// Stores the token read from standard input through the one login pipeline: the plan (the
  /// store checked, the host validated, before the token is read) with the token as its source,
  /// then the login, which checks it with `GET /user`, stores it, revokes what it replaced and
  /// reports the events printed here.
  func runWithToken(in environment: Environment) throws -> ExitStatus {
    let workspace = try Workspace(environment)
    let given = GivenToken(
      read: {
        let token = try Self.readToken(from: environment)
        // Ctrl-C from here on: the check stops at once, nothing is stored, exit as interrupted.
        _ = environment.interruptDescriptor()
        return token
      },
      confirmReplacing: { old, new, host in try Self.confirmReplacing(old, by: new, on: host, in: environment) })
    let plan = try workspace.plan(LoginOptions(host: host, expectedLogin: expectedLogin), givenToken: given)
    let login = try workspace.login(plan, remedies: .ghlogin) { event in
      for line in event.lines {
        guard case .loggedIn = event else {
          environment.stderr.write(line + "\n")
          continue
        }
        environment.stderr.write(line + " (token from standard input)\n")
      }
    } warnings: { warning in
      Workspace.printWarning(warning, on: environment)
    }
    if !login.unchanged, let hint = GitSetupHint.line(for: plan.host, workspace: workspace) {
      environment.stderr.write(hint)
    }
    return .success
  }

  /// A token that cannot refresh replacing a login that can: typed at a terminal (stdin and
  /// stderr both terminals), `Replace the refreshable login of LOGIN on HOST? [y/N]` (anything
  /// but y or yes keeps it: exit 1, nothing stored); from a pipe, a warning naming what is lost.
  static func confirmReplacing(
    _ old: Credential, by new: Credential, on host: GitHubHost, in environment: Environment
  ) throws {
    let login = Sanitize.terminal(old.login)
    guard environment.stdin.isTerminal, environment.stderr.isTerminal, let fd = environment.stdin.descriptor else {
      let hours = new.gitHubExpiration.map { expiry in
        let left = max(0, expiry - environment.clock.now())
        return " (it expires in \(Int((left / 3600).rounded(.up))) h)"
      }
      environment.stderr.write(
        "ghlogin: warning: replacing the refreshable login of \(login) on \(host.name) with a token that cannot "
          + "be refreshed: its refresh token is lost, and the new token\(hours ?? "") is not renewed when it "
          + "expires. To keep a refreshable login: \(CommandHint.auth(host: host.name))\n")
      return
    }
    let answer: [UInt8]
    do {
      answer = try TerminalSecret.readLine(
        fd: fd, stopFD: environment.interruptDescriptor(), limit: 64, visible: true
      ) { environment.stderr.write("Replace the refreshable login of \(login) on \(host.name)? [y/N] ") }
    } catch .interrupted {
      throw WithTokenError(kind: .interrupted)
    } catch {
      throw WithTokenError(kind: .kept(login: old.login, host: host.name))
    }
    let text = String(decoding: answer, as: UTF8.self).trimmingASCIIWhitespace().lowercased()
    guard text == "y" || text == "yes" else { throw WithTokenError(kind: .kept(login: old.login, host: host.name)) }
  }

  /// The token on standard input: from a terminal, one line read with the echo off; otherwise
  /// the whole input. Surrounding whitespace (a final newline, CRLF) is removed; what is left
  /// must be one acceptable token (R30). Its text never appears in an error.
  static func readToken(from environment: Environment) throws(WithTokenError) -> String {
    let bytes: [UInt8]
    if environment.stdin.isTerminal {
      guard let fd = environment.stdin.descriptor else {
        throw WithTokenError(kind: .cannotHideInput("no descriptor"))
      }
      do {
        // The prompt once the echo is off: what is typed after it is never flushed away.
        bytes = try TerminalSecret.readLine(
          fd: fd, stopFD: environment.interruptDescriptor(), limit: maximumTokenInput,
          prompt: { environment.stderr.write("Paste the token (it will not be shown), then press Enter:\n") })
      } catch {
        switch error {
        case .cannotHideInput(let systemError): throw WithTokenError(kind: .cannotHideInput(systemError.description))
        case .interrupted: throw WithTokenError(kind: .interrupted)
        case .endOfInput: throw WithTokenError(kind: .empty)
        case .tooLong: throw WithTokenError(kind: .tooLarge)
        }
      }
    } else {
      guard let input = environment.stdin.readAll(limit: maximumTokenInput) else {
        throw WithTokenError(kind: .tooLarge)
      }
      bytes = input
    }
    let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
    guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) })
    else { throw WithTokenError(kind: .empty) }
    let trimmed = bytes[start...end]
    if trimmed.contains(where: isSpace) { throw WithTokenError(kind: .severalWords) }
    guard let token = String(validating: trimmed, as: UTF8.self), Credential.isAcceptableToken(token) else {
      throw WithTokenError(kind: .unusable)
    }
    return token
  }
}
