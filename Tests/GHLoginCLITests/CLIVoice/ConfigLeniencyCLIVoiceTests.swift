import GHLoginTestSupport
import Testing

@testable import GHLoginCLI

/// ConfigLeniencyTests' warning as the command line prints it (`cliLines`): `ghlogin: warning:`
/// and the commands that refuse the file. Which keys a lenient load leaves out is ConfigLeniencyTests'.
@Suite struct ConfigLeniencyCLIVoiceTests {
  @Test func unknownKeysAreListedWithTheCommandsThatRefuseThem() throws {
    let directory = try TemporaryDirectory()
    let file = directory.at("config.json")
    try writeFile(
      file,
      #"{"client_id": "id", "scopse": ["x"], "hosts": {"ghe.test": {"clinet_id": "y", "scopes": ["repo"]}}, "zzz": 1}"#)
    let paths = ConfigPaths(configFile: file, credentialsFile: directory.at("credentials.json"), home: nil)
    let config = try Config.load(paths: paths, variables: [:], unknownKeys: .lenient)
    #expect(
      config.ignoredKeysWarnings.cliLines
        == "ghlogin: warning: \(config.file): ignoring unknown keys \"scopse\" (did you mean \"scopes\"?), "
        + "\"hosts.ghe.test.clinet_id\" (did you mean \"client_id\"?), \"zzz\"; fix the file: 'ghlogin auth', "
        + "'setup-git', 'logout' and 'refresh' refuse it\n")
  }
}
