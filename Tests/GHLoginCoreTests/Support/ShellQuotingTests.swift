import Foundation
import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// Quoting for sh, fish and PowerShell: exact text, and sh read back by a real shell.
@Suite struct ShellQuotingTests {
  @Test(arguments: [
    ("plain", "'plain'"),
    ("", "''"),
    ("it's", "'it'\\''s'"),
    ("a\\b\"c$d`e", "'a\\b\"c$d`e'"),
    ("''", "''\\'''\\'''"),
  ])
  func sh(_ value: String, _ expected: String) {
    #expect(ShellQuoting.quote(value, for: .sh) == expected)
  }

  @Test(arguments: [
    ("plain", "'plain'"),
    ("it's", "'it\\'s'"),
    ("a\\b", "'a\\\\b'"),
    ("$x\"y", "'$x\"y'"),
  ])
  func fish(_ value: String, _ expected: String) {
    #expect(ShellQuoting.quote(value, for: .fish) == expected)
  }

  @Test(arguments: [
    ("plain", "'plain'"),
    ("it's", "'it''s'"),
    ("it\u{2019}s", "'it\u{2019}\u{2019}s'"),
    ("$env:x`n\"", "'$env:x`n\"'"),
  ])
  func powershell(_ value: String, _ expected: String) {
    #expect(ShellQuoting.quote(value, for: .powershell) == expected)
  }

  @Test func exportLines() {
    #expect(ShellQuoting.export("GH_TOKEN", "t'k", for: .sh) == "export GH_TOKEN='t'\\''k'")
    #expect(ShellQuoting.export("GH_TOKEN", "t'k", for: .fish) == "set -gx GH_TOKEN 't\\'k'")
    #expect(ShellQuoting.export("GH_TOKEN", "t'k", for: .powershell) == "$env:GH_TOKEN = 't''k'")
  }

  /// `/bin/sh` reads every printable ASCII character back exactly.
  @Test func shReadsTheQuotedValueBack() throws {
    let value = String((0x21...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }) + " tab\tend"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "printf %s " + ShellQuoting.quote(value, for: .sh)]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(String(decoding: data, as: UTF8.self) == value)
  }
}
