import Testing
@testable import TypedStream

/// ``MovingStack``: elements leave in order and exactly once, however many there are, and the
/// stack releases what it still holds.
@Suite struct MovingStackTests {
    /// Counts live instances, so a lost or doubled release shows.
    final class Tracked {
        let value: Int
        let counter: Counter
        init(_ value: Int, _ counter: Counter) {
            self.value = value
            self.counter = counter
            counter.live += 1
        }
        deinit { counter.live -= 1 }
    }

    final class Counter { var live = 0 }

    @Test(arguments: [0, 1, 2, 3, 63, 64, 65, 200])
    func popArrayMovesTheTopInOrder(count: Int) {
        let counter = Counter()
        do {
            let stack = MovingStack<Tracked>(capacity: 4)
            for value in 0..<count { stack.push(Tracked(value, counter)) }
            #expect(stack.count == count)
            let split = count / 3
            let top = stack.popArray(from: split)
            #expect(top.map(\.value) == Array(split..<count))
            #expect(stack.count == split)
            #expect(counter.live == count)
            let bottom = stack.popArray(from: 0)
            #expect(bottom.map(\.value) == Array(0..<split))
            #expect(stack.count == 0)
            #expect(stack.popArray(from: 0).isEmpty)
        }
        #expect(counter.live == 0)
    }

    @Test func popLastAndUpdateLast() {
        let counter = Counter()
        do {
            let stack = MovingStack<[Tracked]>(capacity: 1)
            stack.push([Tracked(1, counter)])
            stack.push([])
            stack.updateLast { $0.append(Tracked(2, counter)); $0.append(Tracked(3, counter)) }
            #expect(stack.popLast().map(\.value) == [2, 3])
            #expect(counter.live == 1)
            #expect(stack.count == 1)
            #expect(stack.popLast().map(\.value) == [1])
            #expect(stack.count == 0)
        }
        #expect(counter.live == 0)
    }

    @Test func remainingElementsAreReleasedWithTheStack() {
        let counter = Counter()
        do {
            let stack = MovingStack<Tracked>(capacity: 2)
            for value in 0..<10 { stack.push(Tracked(value, counter)) }
            _ = stack.popArray(from: 7)
            #expect(counter.live == 7)
        }
        #expect(counter.live == 0)
    }
}
