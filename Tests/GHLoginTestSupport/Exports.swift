// The unit-test targets reach GHLoginCore's `package` API through this target: each of them
// `@testable import`s only the module it tests (issue 32 §2), and GHLoginCLI and GHLoginKit
// tests still need Core's types (Credential, Environment, HTTPResponse...).
@_exported import GHLoginCore
