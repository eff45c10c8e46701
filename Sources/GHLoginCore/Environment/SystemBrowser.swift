/// The browser opener of the product: only `https` URLs, or `http` to a loopback address, are
/// opened (R14), by ``BrowserLauncher``; a secret never appears in the URL (it carries only
/// public request values).
struct SystemBrowser: BrowserOpener {
  package init() {}

  package func open(_ url: WebURL, environment: EnvironmentVariables) throws {
    guard url.scheme == .https || url.isLoopback else {
      throw BrowserLauncher.LaunchError(message: "not opening \(url) in a browser: only https URLs are opened")
    }
    try BrowserLauncher.launch(url.description, environment: environment)
  }
}
