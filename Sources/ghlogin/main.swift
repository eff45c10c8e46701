import GHLoginKit

#if canImport(Glibc)
  import Glibc
#endif

let status = GHLogin.main(environment: .process())
exit(status.rawValue)
