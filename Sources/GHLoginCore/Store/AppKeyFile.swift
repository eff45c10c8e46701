/// A GitHub App's private key, read only from a regular file the user owns with no group or
/// other permission bits (R114, T99), the way the credentials file is read
/// (``SecureFile/readRegularFile(_:limit:)``: never through a symbolic link, never blocking on
/// a FIFO). The bytes go straight into ``PrivateKeyBytes`` and the read buffer is zeroed.
package enum AppKeyFile {
  /// A PEM RSA key of 4096 bits is about 3.3 KB; anything past this is not a key.
  static let maximumSize = 64 * 1024

  /// The key in `path`; throws ``AppKeyError`` (naming the file, never its contents) before any
  /// request is made.
  package static func read(_ path: String) throws(AppKeyError) -> PrivateKeyBytes {
    let source = AppKeyError.Source.file(path)
    var contents: (bytes: [UInt8], status: FileStatus)
    do {
      contents = try SecureFile.readRegularFile(path, limit: maximumSize)
    } catch {
      switch error {
      case .missing: throw AppKeyError(.missing, source: source)
      case .symbolicLink: throw AppKeyError(.symbolicLink, source: source)
      case .notRegularFile: throw AppKeyError(.notRegularFile, source: source)
      case .tooLarge: throw AppKeyError(.tooLarge, source: source)
      case .system(let systemError): throw AppKeyError(.unreadable(systemError.reason), source: source)
      }
    }
    let key = PrivateKeyBytes(taking: &contents.bytes)
    guard contents.status.owner == ProcessState.userID else {
      throw AppKeyError(.notOwned(owner: contents.status.owner), source: source)
    }
    guard contents.status.permissions & FileMode.groupOrOtherAny == 0 else {
      throw AppKeyError(.tooOpen(mode: contents.status.permissions), source: source)
    }
    return key
  }
}

/// A GitHub App private key that cannot be used: refused before any request (R114). The message
/// names the file (or the keyring item), never anything read from it.
package struct AppKeyError: ReportableError, Equatable {
  /// Where the key was to come from.
  package enum Source: Sendable, Equatable {
    case file(String)
    /// The Secret Service item of the app (`ghlogin app key import`).
    case keyring(app: String)

    var described: String {
      switch self {
      case .file(let path): "the app's private key \(Sanitize.terminal(path))"
      case .keyring(let app): "the private key of the app \(Sanitize.terminal(app)) in the keyring"
      }
    }
  }

  package enum Reason: Sendable, Equatable {
    case missing
    case symbolicLink
    case notRegularFile
    case tooLarge
    case unreadable(String)
    /// The file belongs to the user `owner`, not to the one running ghlogin.
    case notOwned(owner: UInt32)
    /// The file's mode has group or other bits.
    case tooOpen(mode: UInt32)
    /// No PEM private key OpenSSL reads without a passphrase.
    case notAPrivateKey
    /// A private key, but not RSA.
    case notRSA
    /// OpenSSL could not sign, or could not be loaded (its reason).
    case signing(String?)
  }

  package var reason: Reason
  package var source: Source

  package init(_ reason: Reason, source: Source) {
    self.reason = reason
    self.source = source
  }

  /// A failure of ``RSASigning/signSHA256(_:key:)`` with the key from `source`.
  package init(_ failure: RSASigning.Failure, source: Source) {
    switch failure {
    case .notAPrivateKey: self.init(Reason.notAPrivateKey, source: source)
    case .notRSA: self.init(Reason.notRSA, source: source)
    case .signing: self.init(Reason.signing(nil), source: source)
    case .load(let reason): self.init(Reason.signing(reason), source: source)
    }
  }

  package var exitStatus: ExitStatus {
    switch reason {
    case .missing, .notAPrivateKey, .notRSA: .usage
    default: .failure
    }
  }

  package var errorKind: ErrorKind {
    switch reason {
    case .missing, .notAPrivateKey, .notRSA: .configuration
    case .signing: .system
    default: .store
    }
  }

  package var message: String {
    let key = source.described
    let path: String? = if case .file(let path) = source { path } else { nil }
    switch reason {
    case .missing:
      return "\(key) does not exist; give the .pem file GitHub generated for the app"
    case .symbolicLink:
      return "refusing to read \(key): it is a symbolic link; give the file itself"
    case .notRegularFile:
      return "refusing to read \(key): it is not a regular file"
    case .tooLarge:
      return "refusing to read \(key): it is larger than 64 KiB, which no private key is"
    case .unreadable(let reason):
      return "cannot read \(key): \(reason)"
    case .notOwned(let owner):
      return "refusing to read \(key): it belongs to another user (uid \(owner)); the key file must be yours: "
        + "copy it into a file you own and run chmod 600 on that file"
    case .tooOpen(let mode):
      return "refusing to read \(key): its permissions \(FileMode.octal(mode)) let group or others read it; "
        + "run \(CommandHint.line(["chmod", "600", path ?? ""]))"
    case .notAPrivateKey:
      return "\(key) is not a PEM private key that can be read without a passphrase "
        + "(GitHub gives a .pem file beginning with -----BEGIN RSA PRIVATE KEY-----)"
    case .notRSA:
      return "\(key) is not an RSA key; a GitHub App's key is RSA (its JWTs are signed RS256)"
    case .signing(let reason?):
      return "cannot sign the app's JWT: \(reason); nothing was sent"
    case .signing(nil):
      return "OpenSSL could not sign the app's JWT with \(key); nothing was sent"
    }
  }
}
