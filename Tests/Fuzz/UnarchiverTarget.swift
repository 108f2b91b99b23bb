// libFuzzer target "unarchiver": the archive graph and the full unarchiver (object graph and
// every class codec) over arbitrary bytes.
//
// Properties: nothing traps; whatever ArchiveReader accepts, ArchiveWriter writes back to the
// same bytes (the graph loses nothing); the unarchiver with every Foundation, AppKit and
// NeXTSTEP codec either decodes every top-level item or throws, and its streaming decode from
// the bytes gives the same objects or the same error; the graph of an archive is
// freed with it, cycles included (LeakSanitizer checks).
//
// Typed objects in a cycle (an NSArray that contains itself) are Swift reference cycles that
// belong to the caller, as in Objective-C; the target decodes typed objects only for archives
// whose object graph has no cycle, so that leak checking stays meaningful.
import TypedStream
import TypedStreamFoundation

/// Whether some object of `archive` reaches itself through its groups.
func hasObjectCycle(_ archive: Archive) -> Bool {
    var state: [ObjectIdentifier: Bool] = [:]  // false: on the current path, true: finished
    var stack: [(ArchivedObject, [ArchivedObject])] = []
    func children(_ object: ArchivedObject) -> [ArchivedObject] {
        var result: [ArchivedObject] = []
        func visit(_ value: ArchivedValue) {
            switch value {
            case .object(let child?, _): result.append(child)
            case .array(let values), .structure(let values): values.forEach(visit)
            default: break
            }
        }
        for group in object.groups { group.values.forEach(visit) }
        return result
    }
    var roots: [ArchivedObject] = []
    for group in archive.groups {
        for case .object(let object?, _) in group.values { roots.append(object) }
    }
    for root in roots where state[ObjectIdentifier(root)] == nil {
        state[ObjectIdentifier(root)] = false
        stack.append((root, children(root)))
        while !stack.isEmpty {
            if let next = stack[stack.count - 1].1.popLast() {
                switch state[ObjectIdentifier(next)] {
                case false?: return true
                case true?: continue
                case nil:
                    state[ObjectIdentifier(next)] = false
                    stack.append((next, children(next)))
                }
            } else {
                state[ObjectIdentifier(stack.removeLast().0)] = true
            }
        }
    }
    return false
}

@_cdecl("LLVMFuzzerTestOneInput")
public func unarchiverFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    guard let archive = try? ArchiveReader.read(bytes) else { return 0 }
    do {
        let written = try ArchiveWriter.write(archive)
        if written != bytes { fatalError("the graph of an accepted archive wrote different bytes") }
    } catch {
        fatalError("the writer refused a graph the reader produced: \(error)")
    }
    guard !hasObjectCycle(archive) else { return 0 }
    let unarchiver = Unarchiver(archive: archive, registry: .foundation)
    let decoded = Result { () throws(CoderError) in try unarchiver.decodeTopLevelItems() }
    if case .success(let items) = decoded {
        // Natural values walk every typed object (depth-limited).
        for case .object(let object) in items { _ = naturalValue(of: object, maximumObjects: 1 << 16) }
    }
    let graphed = decoded.flatMap { items in Result { () throws(CoderError) in try reencoded(items, header: archive.header) } }
    // The streaming decode gives what the graph decode gives: the same objects (re-encoded to
    // the same bytes) or the same error.
    let streamed = Result { () throws(CoderError) in
        let decoder = try Unarchiver(bytes: bytes, registry: .foundation)
        return try reencoded(decoder.decodeTopLevelItems(), header: archive.header)
    }
    switch (streamed, graphed) {
    case (.success(let a), .success(let b)):
        if a != b { fatalError("streaming and graph decodes re-encode differently") }
    case (.failure(let a), .failure(let b)):
        if a.description != b.description { fatalError("streaming and graph decodes fail differently: \(a) / \(b)") }
    default:
        fatalError("streaming and graph decodes disagree: \(streamed) / \(graphed)")
    }
    return 0
}

/// `items` written again by the archiver.
func reencoded(_ items: [TopLevelItem], header: StreamHeader) throws(CoderError) -> [UInt8] {
    let encoder = Archiver(header: header)
    try encoder.encodeTopLevelItems(items)
    return try encoder.encodedBytes()
}
