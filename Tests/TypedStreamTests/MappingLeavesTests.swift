import Testing
import TypedStream

/// `ArchivedValue.mappingLeaves`, the one walk coders use to renumber a copied group's values.
@Suite struct MappingLeavesTests {
    private struct Refused: Error, Equatable { let value: Int64 }

    @Test("Leaves inside arrays and structures are replaced; the nesting is kept")
    func replacesNestedLeaves() throws {
        let value = ArchivedValue.structure([
            .integer(1, width: nil),
            .array([.integer(2, width: nil), .structure([.integer(3, width: nil), .byte(9)])]),
        ])
        let doubled = value.mappingLeaves { leaf in
            guard case .integer(let n, _) = leaf else { return leaf }
            return .integer(n * 10, width: nil)
        }
        guard case .structure(let top) = doubled, top.count == 2,
              case .integer(10, _) = top[0],
              case .array(let inner) = top[1], inner.count == 2,
              case .integer(20, _) = inner[0],
              case .structure(let innermost) = inner[1], innermost.count == 2,
              case .integer(30, _) = innermost[0],
              case .byte(9) = innermost[1] else {
            Issue.record("unexpected shape: \(doubled)")
            return
        }
    }

    @Test("A leaf's error ends the walk with that error")
    func throwsTheLeafsError() {
        let value = ArchivedValue.array([.integer(1, width: nil), .integer(7, width: nil), .integer(8, width: nil)])
        var visited: [Int64] = []
        #expect(throws: Refused(value: 7)) {
            _ = try value.mappingLeaves { (leaf) throws(Refused) -> ArchivedValue in
                guard case .integer(let n, _) = leaf else { return leaf }
                visited.append(n)
                if n == 7 { throw Refused(value: n) }
                return leaf
            }
        }
        #expect(visited == [1, 7])
    }
}
