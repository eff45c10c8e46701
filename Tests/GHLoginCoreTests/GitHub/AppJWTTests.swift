import Foundation
import Testing

import GHLoginTestSupport
@testable import GHLoginCore

/// Issue 34 §1, R114, T99: the app's JWT is signed RS256 with OpenSSL and verifies with the real
/// `openssl` command; the key is read only from a 0600 file the user owns.
@Suite struct AppJWTTests {
  let directory: TemporaryDirectory
  let keyFile: String

  init() throws {
    directory = try TemporaryDirectory(prefix: "ghlogin-appjwt")
    keyFile = directory.at("app.pem")
    try #require(Self.openssl(["genrsa", "-out", keyFile, "2048"]).status == 0)
    #expect(chmod(keyFile, 0o600) == 0)
  }

  /// Runs `openssl ARGS`; its status and stdout.
  static func openssl(_ arguments: [String], input: [UInt8]? = nil) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return (-1, "") }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  static func base64URLDecode(_ text: Substring) -> [UInt8]? {
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    #expect(!standard.contains("="))
    while standard.count % 4 != 0 { standard += "=" }
    return Data(base64Encoded: standard).map { Array($0) }
  }

  @Test func aJWTSignedWithTheKeyFileVerifiesWithOpenSSL() throws {
    let key = try AppKeyFile.read(keyFile)
    let now = 1_800_000_000.75
    let jwt = try AppJWT.make(app: "Iv23liTestClient", now: now, key: key)
    let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
    try #require(parts.count == 3)
    let header = try #require(Self.base64URLDecode(parts[0]))
    #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"RS256","typ":"JWT"}"#)
    let claims = try #require(Self.base64URLDecode(parts[1]))
    let object = try #require(try JSON.parse(claims).objectValue)
    #expect(object["iat"] == .number("1799999940"))
    #expect(object["exp"] == .number("1800000540"))
    #expect(object["iss"] == .string("Iv23liTestClient"))
    let signature = try #require(Self.base64URLDecode(parts[2]))
    #expect(signature.count == 256)
    let signatureFile = directory.at("jwt.sig")
    let inputFile = directory.at("jwt.input")
    let publicFile = directory.at("app.pub")
    try writeFile(signatureFile, signature)
    try writeFile(inputFile, Array("\(parts[0]).\(parts[1])".utf8))
    #expect(Self.openssl(["rsa", "-in", keyFile, "-pubout", "-out", publicFile]).status == 0)
    let verified = Self.openssl(["dgst", "-sha256", "-verify", publicFile, "-signature", signatureFile, inputFile])
    #expect(verified.status == 0)
    #expect(verified.output == "Verified OK\n")
    // A changed claim does not verify: the test can fail.
    try writeFile(inputFile, Array("\(parts[0]).\(parts[1])x".utf8))
    #expect(
      Self.openssl(["dgst", "-sha256", "-verify", publicFile, "-signature", signatureFile, inputFile]).status != 0)
  }

  @Test func aNumericAppIDIsANumberClaim() throws {
    let key = try AppKeyFile.read(keyFile)
    let jwt = try AppJWT.make(app: "123456", now: 1_800_000_000, key: key)
    let claims = try #require(Self.base64URLDecode(jwt.split(separator: ".")[1]))
    #expect(String(decoding: claims, as: UTF8.self) == #"{"iat":1799999940,"exp":1800000540,"iss":123456}"#)
  }

  @Test func aKeyFileOthersCanReadIsRefusedNamingTheFix() throws {
    #expect(chmod(keyFile, 0o644) == 0)
    let expected =
      "refusing to read the app's private key \(keyFile): its permissions 0644 let group or others read it; "
      + "run chmod 600 \(keyFile)"
    #expect(throws: AppKeyError(.tooOpen(mode: 0o644), source: .file(keyFile))) { try AppKeyFile.read(keyFile) }
    #expect(AppKeyError(.tooOpen(mode: 0o644), source: .file(keyFile)).message == expected)
    #expect(AppKeyError(.tooOpen(mode: 0o644), source: .file(keyFile)).exitStatus == .failure)
    #expect(chmod(keyFile, 0o640) == 0)
    #expect(throws: AppKeyError(.tooOpen(mode: 0o640), source: .file(keyFile))) { try AppKeyFile.read(keyFile) }
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to give the file away"))
  func aKeyFileOfAnotherUserIsRefused() throws {
    #expect(chown(keyFile, 65534, 65534) == 0)
    let error = AppKeyError(.notOwned(owner: 65534), source: .file(keyFile))
    #expect(throws: error) { try AppKeyFile.read(keyFile) }
    #expect(
      error.message
        == "refusing to read the app's private key \(keyFile): it belongs to another user (uid 65534); the key "
        + "file must be yours: copy it into a file you own and run chmod 600 on that file")
  }

  @Test func aLinkAMissingFileAndNotAKeyAreRefused() throws {
    let link = directory.at("link.pem")
    #expect(symlink(keyFile, link) == 0)
    #expect(throws: AppKeyError(.symbolicLink, source: .file(link))) { try AppKeyFile.read(link) }
    let missing = directory.at("missing.pem")
    #expect(throws: AppKeyError(.missing, source: .file(missing))) { try AppKeyFile.read(missing) }
    let text = directory.at("text.pem")
    try writeFile(text, "not a key\n")
    let key = try AppKeyFile.read(text)
    #expect(throws: RSASigning.Failure.notAPrivateKey) { try AppJWT.make(app: "1", now: 0, key: key) }
    let ec = directory.at("ec.pem")
    #expect(Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", ec]).status == 0)
    #expect(chmod(ec, 0o600) == 0)
    #expect(throws: RSASigning.Failure.notRSA) { try AppJWT.make(app: "1", now: 0, key: try AppKeyFile.read(ec)) }
  }

  @Test func anEncryptedKeyIsRefusedNotPromptedFor() throws {
    let encrypted = directory.at("encrypted.pem")
    let made = Self.openssl(["rsa", "-in", keyFile, "-aes256", "-passout", "pass:secret", "-out", encrypted])
    try #require(made.status == 0)
    #expect(chmod(encrypted, 0o600) == 0)
    let key = try AppKeyFile.read(encrypted)
    #expect(throws: RSASigning.Failure.notAPrivateKey) { try AppJWT.make(app: "1", now: 0, key: key) }
  }

  @Test func theBytesTakenAreZeroed() {
    var bytes: [UInt8] = Array("-----BEGIN PRIVATE KEY-----".utf8)
    let key = PrivateKeyBytes(taking: &bytes)
    #expect(key.count == 27)
    #expect(bytes == [UInt8](repeating: 0, count: 27))
  }

  @Test func appIdentifiers() {
    #expect(AppJWT.isAppIdentifier("Iv1.0123456789abcdef"))
    #expect(AppJWT.isAppIdentifier("123456"))
    #expect(!AppJWT.isAppIdentifier(""))
    #expect(!AppJWT.isAppIdentifier("a b"))
    #expect(!AppJWT.isAppIdentifier("Iv1\u{1B}[31m"))
  }
}
