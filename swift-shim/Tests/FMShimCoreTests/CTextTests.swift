import FMShimCore
import XCTest

/// Text across the ABI: borrowed inputs in, snprintf-style outputs out.
final class CTextTests: XCTestCase {

    func testPutWritesWhatFitsAndReturnsTheWholeLength() {
        var buffer = [CChar](repeating: 65, count: 4)
        XCTAssertEqual(CText.put("hello", into: &buffer, capacity: 4), 5)
        XCTAssertEqual(String(cString: buffer), "hel")
        XCTAssertEqual(CText.put("hello", into: nil, capacity: 0), 5)
    }

    func testADetailIsCutAtACharacterBoundary() {
        var buffer = [CChar](repeating: 65, count: 5)
        CText.putDetail("a\u{20AC}\u{20AC}", into: &buffer, capacity: 5) // 1 + 3 + 3 bytes
        XCTAssertEqual(String(cString: buffer), "a\u{20AC}")
    }

    func testTextWithNulBytesAndLengthIsReadWhole() {
        let bytes: [CChar] = [104, 0, 105]
        XCTAssertEqual(bytes.withUnsafeBufferPointer { CText.string($0.baseAddress, length: 3) }, "h\u{0}i")
        XCTAssertEqual(CText.string(nil, length: 0), "")
        XCTAssertNil(CText.string(nil, length: 1))
        XCTAssertNil(bytes.withUnsafeBufferPointer { CText.string($0.baseAddress, length: -1) })
    }

    func testInvalidUtf8IsRejected() {
        let bytes: [UInt8] = [0xFF, 0xFE]
        XCTAssertNil(bytes.withUnsafeBytes { CText.string($0.baseAddress?.assumingMemoryBound(to: CChar.self), length: 2) })
    }
}
