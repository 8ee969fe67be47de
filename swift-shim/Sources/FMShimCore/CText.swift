import FMShimC

/// Text across the C ABI: borrowed inputs become Swift strings, outputs go
/// into the caller's buffers. No memory of the shim ever reaches the caller.
package enum CText {

    /// The NUL-terminated UTF-8 string at `pointer`; nil for NULL or invalid UTF-8.
    package static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(validatingCString: pointer)
    }

    /// The `length` UTF-8 bytes at `pointer` (NUL bytes included); nil for a
    /// NULL pointer with a positive length, a negative length or invalid UTF-8.
    package static func string(_ pointer: UnsafePointer<CChar>?, length: Int64) -> String? {
        if length == 0 { return "" }
        guard let pointer, length > 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: Int(length))
        return String(validating: bytes, as: UTF8.self)
    }

    /// Writes `text` with snprintf semantics and returns its whole length in bytes.
    package static func put(_ text: String, into buffer: UnsafeMutablePointer<CChar>?, capacity: Int64) -> Int64 {
        let bytes = Array(text.utf8)
        if let buffer, capacity > 0 {
            copy(bytes, count: min(bytes.count, Int(capacity) - 1), into: buffer)
        }
        return Int64(bytes.count)
    }

    /// Writes a NUL-terminated detail, cut at a character boundary to fit.
    package static func putDetail(_ text: String, into buffer: UnsafeMutablePointer<CChar>?, capacity: Int64) {
        guard let buffer, capacity > 0 else { return }
        let bytes = Array(text.utf8)
        var count = min(bytes.count, Int(capacity) - 1)
        // Back up over continuation bytes so that no character is cut in two.
        while count > 0 && count < bytes.count && (bytes[count] & 0xC0) == 0x80 {
            count -= 1
        }
        copy(bytes, count: count, into: buffer)
    }

    private static func copy(_ bytes: [UInt8], count: Int, into buffer: UnsafeMutablePointer<CChar>) {
        let target = UnsafeMutableRawPointer(buffer)
        if count > 0 {
            bytes.withUnsafeBytes { source in
                target.copyMemory(from: source.baseAddress!, byteCount: count)
            }
        }
        target.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
    }
}
