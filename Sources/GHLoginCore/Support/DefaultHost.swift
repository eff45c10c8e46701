/// The host meant when nothing names one (no `--host`, `GH_HOST` or config `host`): github.com.
/// Here, below every layer, so that a hint can leave `--host` out for it without reaching up
/// to the config.
package enum DefaultHost {
  package static let name = "github.com"
}
