import FMShimC

/// The DELTA/RESET rule of fmshim.h: the framework streams snapshots of the
/// whole answer so far; the host gets what each adds (a DELTA), or the whole
/// text when a snapshot does not extend the one before (a RESET).
package struct SnapshotDiff {

    /// One answer event: its kind (FMSHIM_EVENT_*) and bytes.
    package struct Event: Equatable, Sendable {
        package let kind: Int32
        package let bytes: [UInt8]

        package init(kind: Int32, bytes: [UInt8]) {
            self.kind = kind
            self.bytes = bytes
        }
    }

    private var previous: [UInt8] = []

    package init() {}

    /// The event for the next snapshot; nil when it adds nothing.
    package mutating func next(_ snapshot: String) -> Event? {
        let current = Array(snapshot.utf8)
        defer { previous = current }
        if current.starts(with: previous) {
            // Bytes, not characters: a DELTA may end inside a UTF-8 sequence, which the host reassembles.
            return current.count > previous.count
                ? Event(kind: FMSHIM_EVENT_DELTA, bytes: Array(current[previous.count...])) : nil
        }
        return Event(kind: FMSHIM_EVENT_RESET, bytes: current)
    }
}
