/// One undoable edit: the models at `index ..< index + before.count` were replaced by `after`.
/// Adding is `before: []`, deleting is `after: []`, updating is one model each.
struct Edit {
    var label: String
    var index: Int
    var before: [Model]
    var after: [Model]

    /// Replaces `replaced` models at `index` with `inserted`; `false` (and no change) when the
    /// range does not fit.
    static func replace(_ models: inout [Model], at index: Int, removing count: Int, inserting: [Model]) -> Bool {
        guard index >= 0, count >= 0, index <= models.count, count <= models.count - index else { return false }
        models.replaceSubrange(index..<(index + count), with: inserting)
        return true
    }

    /// Applies the edit (redo direction).
    func apply(to models: inout [Model]) -> Bool {
        Self.replace(&models, at: index, removing: before.count, inserting: after)
    }

    /// Reverts the edit (undo direction).
    func revert(_ models: inout [Model]) -> Bool {
        Self.replace(&models, at: index, removing: after.count, inserting: before)
    }
}

/// The undo and redo stacks of a document. Models are never changed in place once in the
/// document (an update puts a new Model in), so an edit can keep the very objects it removed and
/// undo puts them back: the archive is then byte for byte what it was.
struct EditHistory {
    /// At most this many edits are kept; older ones are dropped.
    static let limit = 100

    /// Oldest first; the last is undone next.
    var undoStack: [Edit] = []
    /// Oldest first; the last is redone next.
    var redoStack: [Edit] = []

    /// Records a new edit, dropping the redo stack.
    mutating func record(_ edit: Edit) {
        undoStack.append(edit)
        if undoStack.count > Self.limit { undoStack.removeFirst(undoStack.count - Self.limit) }
        redoStack.removeAll()
    }
}
