/// The value types the library shares with the layers below it (``AccessToken``,
/// ``LoginOptions``, ``LoginEvent``, ``ExitStatus`` and the rest), public in GHLoginCore, are
/// part of GHLoginKit's API: `import GHLoginKit` is all a tool writes.
@_exported import GHLoginCore
