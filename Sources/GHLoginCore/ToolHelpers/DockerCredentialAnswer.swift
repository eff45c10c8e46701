/// What the docker credential-helper protocol (docker/docker-credential-helpers,
/// `credentials/credentials.go`) reads from a helper's standard output.
package enum DockerCredentialAnswer {
  /// docker-credential-helpers' `errCredentialsNotFoundMessage` (`credentials/error.go`): the one
  /// failure text docker, podman, skopeo and buildah treat as "no credentials, go on without".
  /// Any other text on stdout makes containers/image fail the pull, even of a public image.
  package static let notFound = "credentials not found in native keychain\n"

  /// The username docker reads as "the secret is an identity token": never answered.
  static let identityTokenUsername = "<token>"

  /// `get`'s answer: `{"ServerURL":…,"Username":…,"Secret":…}` and a newline (as Go's
  /// `json.Encoder` writes it). Nil for a username docker would misread as an identity token.
  package static func credentials(serverURL: String, username: String, secret: String) -> String? {
    guard !username.isEmpty, username != identityTokenUsername, !secret.isEmpty else { return nil }
    // Written directly into one buffer, not through a JSONObject: the same bytes, without building
    // a tree or a string for each value on the path docker runs for every pull.
    var writer = JSONWriter(pretty: false)
    writer.output.reserveCapacity(serverURL.utf8.count + username.utf8.count + secret.utf8.count + 48)
    writer.append("{\"ServerURL\":")
    writer.writeString(serverURL)
    writer.append(",\"Username\":")
    writer.writeString(username)
    writer.append(",\"Secret\":")
    writer.writeString(secret)
    writer.append("}\n")
    return String(decoding: writer.output, as: UTF8.self)
  }

  /// `list`'s answer: registry → username, never a secret.
  package static func list(_ entries: [(registry: String, username: String)]) -> String {
    JSON.serialize(.object(JSONObject(entries.map { (key: $0.registry, value: JSONValue.string($0.username)) }))) + "\n"
  }

  /// What `store` is handed (`{"ServerURL","Username","Secret"}`), when it is exactly that.
  package static func parseStored(_ bytes: [UInt8]) -> (serverURL: String, username: String, secret: String)? {
    guard let object = (try? JSON.parse(bytes))?.objectValue,
      let server = object["ServerURL"]?.stringValue, let username = object["Username"]?.stringValue,
      let secret = object["Secret"]?.stringValue
    else { return nil }
    return (server, username, secret)
  }
}
