import Testing

import GHLoginTestSupport

@testable import GHLoginCore

/// `EnvironmentVariables.process` looks variables up in `environ` one at a time, instead of
/// copying them all at start-up: each answer must be the one the copy would have given.
@Suite struct EnvironmentVariablesTests {
  @Test func everyVariableOfThisProcessReadsAsTheCopyHoldsIt() {
    let copy = ProcessState.environmentVariables()
    #expect(!copy.isEmpty)
    let process = EnvironmentVariables.process
    for (name, value) in copy {
      #expect(process[name] == value, "\(name)")
    }
    #expect(process.all == copy)
  }

  @Test func aPrefixOrExtensionOfASetNameIsNotThatVariable() {
    let copy = ProcessState.environmentVariables()
    let process = EnvironmentVariables.process
    for name in copy.keys where name.count > 1 {
      let shorter = String(name.dropLast())
      #expect(process[shorter] == copy[shorter], "\(shorter)")
      #expect(process[name + "X"] == copy[name + "X"], "\(name)X")
    }
  }

  @Test(arguments: ["", "=", "PATH=", "PATH=/usr/bin", "PA\u{0}TH", "GHLOGIN_NO_SUCH_VARIABLE_SET"])
  func aNameNoEntryCanHaveIsNotSet(name: String) {
    #expect(EnvironmentVariables.process[name] == nil)
    #expect(ProcessState.environmentVariable(name) == nil)
  }

  @Test func settingOneMakesACopyAndLeavesTheProcessAlone() throws {
    let name = try #require(ProcessState.environmentVariables().keys.sorted().first)
    let before = ProcessState.environmentVariable(name)
    var variables = EnvironmentVariables.process
    variables[name] = "changed"
    variables["GHLOGIN_TEST_ADDED"] = "added"
    #expect(variables[name] == "changed")
    #expect(variables["GHLOGIN_TEST_ADDED"] == "added")
    #expect(variables.all.count == ProcessState.environmentVariables().count + 1)
    #expect(ProcessState.environmentVariable(name) == before)
    #expect(ProcessState.environmentVariable("GHLOGIN_TEST_ADDED") == nil)
  }

  @Test func aFixedSetAnswersFromItsDictionary() {
    let literal: EnvironmentVariables = ["HOME": "/first", "PATH": "/bin", "HOME": "/last"]
    #expect(literal["HOME"] == "/last")
    #expect(literal["PATH"] == "/bin")
    #expect(literal["SHELL"] == nil)
    #expect(EnvironmentVariables(["A": "1"]).all == ["A": "1"])
  }
}
