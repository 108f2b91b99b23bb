/// A stack whose top elements leave it together, moved (not copied) into a new array of exactly
/// their number: how ``ArchiveReader`` collects the values of a group, array or struct and the
/// groups of an object while they are open, without growing an array per container (a copy of
/// a value costs a reference count per payload, a grown array an allocation and a copy).
///
/// A class so that its memory is freed, and its remaining elements released, however the
/// reading ends.
final class MovingStack<Element> {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private var capacity: Int
    /// The number of elements on the stack.
    @exclusivity(unchecked) private(set) var count = 0

    /// An empty stack with room for `capacity` elements before it grows.
    init(capacity: Int = 64) {
        precondition(capacity > 0, "a moving stack needs room for one element")
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Pushes `element`.
    @inline(__always)
    func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: consume element)
        count += 1
    }

    /// Moves the top element out. The stack must not be empty.
    @inline(__always)
    func popLast() -> Element {
        precondition(count > 0, "pop from an empty moving stack")
        count -= 1
        return (base + count).move()
    }

    /// Changes the top element in place. The stack must not be empty.
    @inline(__always)
    func updateLast(_ update: (inout Element) -> Void) {
        precondition(count > 0, "update of an empty moving stack")
        update(&base[count - 1])
    }

    /// Moves the elements from position `start` (at most ``count``) to the top onto the end of
    /// `array`, bottom first, and leaves `start` elements on the stack.
    func popAll(from start: Int, appendingTo array: inout [Element]) {
        precondition(start >= 0 && start <= count, "moving stack start out of range")
        let moved = count - start
        count = start
        // No reserveCapacity: it would grow `array` to exactly its new size, every time.
        for position in start..<(start + moved) { array.append((base + position).move()) }
    }

    /// Moves the elements from position `start` (at most ``count``) to the top into a new array,
    /// bottom first, and leaves `start` elements on the stack.
    func popArray(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= count, "moving stack start out of range")
        let moved = count - start
        guard moved > 0 else { return [] }
        count = start
        // Appends into reserved room: `Array(unsafeUninitializedCapacity:)` is not specialized
        // here and looks up the array's type metadata on every call. (The loop is `popAll`'s,
        // written out: calling it costs `graph` about 2 % more instructions.)
        var result: [Element] = []
        result.reserveCapacity(moved)
        for position in start..<(start + moved) { result.append((base + position).move()) }
        return result
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}
