import COpenSSL

/// A private key's bytes (PEM text), held in memory of their own and zeroed when released
/// (R114). Nothing else keeps a copy: ``init(taking:)`` zeroes the array it was given.
package final class PrivateKeyBytes: @unchecked Sendable {
  private let storage: UnsafeMutableRawBufferPointer

  /// How many bytes the key has.
  package let count: Int

  /// Takes `bytes` into memory of its own and zeroes `bytes`.
  package init(taking bytes: inout [UInt8]) {
    count = bytes.count
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
    storage.initializeMemory(as: UInt8.self, repeating: 0)
    bytes.withUnsafeBytes { source in storage.copyMemory(from: source) }
    bytes.withUnsafeMutableBytes { Self.clear($0) }
  }

  /// Calls `body` with the key's bytes; they must not be copied out.
  func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws(RSASigning.Failure) -> Result)
    throws(RSASigning.Failure) -> Result
  {
    try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<count]))
  }

  /// Calls `body` with the key as a NUL-terminated C string (for the keyring), in memory that
  /// is zeroed and freed when `body` returns.
  package func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: count + 1, alignment: 1)
    copy.initializeMemory(as: UInt8.self, repeating: 0)
    defer {
      Self.clear(copy)
      copy.deallocate()
    }
    copy.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<count]))
    return body(copy.baseAddress!.assumingMemoryBound(to: CChar.self))
  }

  /// Whether the key's bytes hold a NUL (a PEM file never does; the keyring stores C strings).
  package var containsNUL: Bool {
    UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<count]).contains(0)
  }

  deinit {
    Self.clear(storage)
    storage.deallocate()
  }

  /// Zeroes `memory`: with `OPENSSL_cleanse` when OpenSSL loads (a store the compiler cannot
  /// drop), else byte by byte.
  private static func clear(_ memory: UnsafeMutableRawBufferPointer) {
    guard let base = memory.baseAddress, memory.count > 0 else { return }
    if ghl_openssl_load() == 1 {
      OPENSSL_cleanse(base, memory.count)
    } else {
      for index in 0..<memory.count { memory[index] = 0 }
    }
  }
}

/// RSASSA-PKCS1-v1_5 signatures with SHA-256 (JWT's `RS256`), over OpenSSL's libcrypto.
package enum RSASigning {
  /// Why nothing was signed; never holds the key or any part of it.
  package enum Failure: Error, Equatable {
    /// OpenSSL could not be loaded (``TLSLibrary/LoadError``'s text).
    case load(String)
    /// The bytes are not a PEM private key OpenSSL reads without a passphrase.
    case notAPrivateKey
    /// The key is not an RSA key (`RS256` needs one).
    case notRSA
    /// OpenSSL failed to sign.
    case signing
  }

  /// The `RS256` signature of `message` with `key` (PKCS#1 v1.5 padding, SHA-256).
  ///
  /// Reads the key with `PEM_read_bio_PrivateKey` from a memory BIO over the key's own bytes
  /// (no copy), with a passphrase callback that gives none (an encrypted key is refused, never
  /// prompted for), then `EVP_DigestSignInit` with `EVP_sha256()` and the one-shot
  /// `EVP_DigestSign`. The key object is freed (OpenSSL clears its private numbers) before
  /// returning.
  package static func signSHA256(_ message: [UInt8], key: PrivateKeyBytes) throws(Failure) -> [UInt8] {
    do {
      try TLSLibrary.load()
    } catch {
      throw .load(error.description)
    }
    ERR_clear_error()
    defer { ERR_clear_error() }
    return try key.withBytes { bytes throws(Failure) -> [UInt8] in
      guard bytes.count > 0, bytes.count <= Int(Int32.max),
        let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count))
      else { throw .notAPrivateKey }
      defer { BIO_free_all(bio) }
      guard let pkey = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else { throw .notAPrivateKey }
      defer { EVP_PKEY_free(pkey) }
      guard EVP_PKEY_get_base_id(pkey) == NID_rsaEncryption else { throw .notRSA }
      guard let context = EVP_MD_CTX_new() else { throw .signing }
      defer { EVP_MD_CTX_free(context) }
      guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pkey) == 1 else { throw .signing }
      var length = 0
      let sized = message.withUnsafeBufferPointer { EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }
      guard sized == 1, length > 0 else { throw .signing }
      var signature = [UInt8](repeating: 0, count: length)
      let signed = signature.withUnsafeMutableBufferPointer { output in
        message.withUnsafeBufferPointer {
          EVP_DigestSign(context, output.baseAddress, &length, $0.baseAddress, $0.count)
        }
      }
      guard signed == 1, length > 0, length <= signature.count else { throw .signing }
      return Array(signature.prefix(length))
    }
  }
}
