import FMShimC
import FMShimCore
import XCTest

/// The DELTA/RESET rule: what each snapshot of the whole answer adds.
final class SnapshotDiffTests: XCTestCase {

    private func events(_ snapshots: [String]) -> [SnapshotDiff.Event] {
        var diff = SnapshotDiff()
        return snapshots.compactMap { diff.next($0) }
    }

    private func delta(_ text: String) -> SnapshotDiff.Event {
        SnapshotDiff.Event(kind: FMSHIM_EVENT_DELTA, bytes: Array(text.utf8))
    }

    private func reset(_ text: String) -> SnapshotDiff.Event {
        SnapshotDiff.Event(kind: FMSHIM_EVENT_RESET, bytes: Array(text.utf8))
    }

    func testASnapshotThatExtendsTheLastIsADeltaOfWhatItAdds() {
        XCTAssertEqual(events(["The", "The answer", "The answer is 42."]),
                       [delta("The"), delta(" answer"), delta(" is 42.")])
    }

    func testASnapshotThatAddsNothingIsNoEvent() {
        XCTAssertEqual(events(["", "Hi", "Hi", "Hi!"]), [delta("Hi"), delta("!")])
    }

    func testASnapshotThatRewritesTheTextIsAResetWithAllOfIt() {
        XCTAssertEqual(events(["Hello wrold", "Hello w", "Hello world"]),
                       [delta("Hello wrold"), reset("Hello w"), delta("orld")])
    }

    func testANewSegmentAfterAToolCallIsAReset() {
        XCTAssertEqual(events(["Let me look.", "It is sunny."]), [delta("Let me look."), reset("It is sunny.")])
    }

    func testADeltaMayEndInsideAUtf8SequenceWhenTheSnapshotDoes() {
        // Snapshots are Strings, so whole characters; bytes still go as bytes, never re-encoded.
        let parts = events(["\u{e9}", "\u{e9}\u{20ac}", "\u{e9}\u{20ac}\u{1F600}"])
        XCTAssertEqual(parts.map(\.bytes), [[0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80]])
        XCTAssertEqual(Set(parts.map(\.kind)), [FMSHIM_EVENT_DELTA])
    }

    func testAComposedCharacterChangedByTheNextSnapshotIsStillAByteExtension() {
        // "e" then "e" + combining acute: the bytes extend, so a DELTA; the host decodes the pair.
        XCTAssertEqual(events(["e", "e\u{301}"]), [delta("e"), SnapshotDiff.Event(kind: FMSHIM_EVENT_DELTA, bytes: [0xCC, 0x81])])
    }
}
