import Foundation
import TypedStream
import TestSupport

/// Archives and corpus access shared by the annotated-dump tests.
enum DumpFixtures {
    /// The worked example of the format notes (§7): `@[@YES, @NO]` as written by NSArchiver
    /// (UET `NSArrayWithBool`), assembled by hand, 93 bytes.
    static let arrayOfTwoBools: [UInt8] = {
        var b: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
        b += [0x84, 0x01, 0x40]                                        // group "@" (ss#0)
        b += [0x84]                                                    // new object #0
        b += [0x84, 0x84, 0x07] + Array("NSArray".utf8) + [0x00]       // class NSArray (#1, ss#1)
        b += [0x84, 0x84, 0x08] + Array("NSObject".utf8) + [0x00]      // superclass NSObject (#2, ss#2)
        b += [0x85]                                                    // no superclass
        b += [0x84, 0x01, 0x69, 0x02]                                  // group "i" (ss#3): 2
        b += [0x92, 0x84]                                              // group "@", new object #3
        b += [0x84, 0x84, 0x08] + Array("NSNumber".utf8) + [0x00]      // class NSNumber (#4, ss#4)
        b += [0x84, 0x84, 0x07] + Array("NSValue".utf8) + [0x00]       // superclass NSValue (#5, ss#5)
        b += [0x94]                                                    // superclass → #2 NSObject
        b += [0x84, 0x01, 0x2A]                                        // group "*" (ss#6)
        b += [0x84, 0x84, 0x01, 0x63]                                  // C string #6, text "c" (ss#7)
        b += [0x99, 0x01]                                              // group "c" (ss ref 7): 1
        b += [0x86]                                                    // end NSNumber
        b += [0x92, 0x84, 0x96]                                        // group "@", new object #7 of class #4
        b += [0x98, 0x98]                                              // group "*", C string ref #6
        b += [0x99, 0x00]                                              // group "c": 0
        b += [0x86, 0x86]                                              // end NSNumber, end NSArray
        return b
    }()

    /// The shared corpus folder (``SharedCorpus``), or `nil` when it is absent.
    static var corpusDirectory: URL? { SharedCorpus.folderIfAvailable }

    /// Every corpus archive with its path relative to the corpus folder, sorted by path.
    static func corpusFiles() -> [(path: String, bytes: [UInt8])] {
        guard let corpus = corpusDirectory,
              let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else { return [] }
        var files: [(path: String, bytes: [UInt8])] = []
        for case let url as URL in walker {
            let relative = String(url.path.dropFirst(corpus.path.count + 1))
            guard relative.hasSuffix(".typedstream") || relative.hasSuffix(".gsarchive"),
                  let data = FileManager.default.contents(atPath: url.path) else { continue }
            files.append((relative, [UInt8](data)))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// One corpus file by its relative path, or `nil` when the corpus is missing.
    static func corpusFile(_ path: String) -> [UInt8]? {
        guard let corpus = corpusDirectory,
              let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(path).path) else { return nil }
        return [UInt8](data)
    }
}

/// Reads the offset and bytes back out of dump lines, so tests can check what a dump shows
/// from its text alone.
enum DumpLineParser {
    /// A line's offset and the bytes in its hex column (empty for marker lines); `nil` for
    /// lines without an offset column (the error line, notes).
    static func parse(_ line: String, bytesPerLine: Int = 16) -> (offset: Int, bytes: [UInt8])? {
        let utf8 = Array(line.utf8.prefix(10 + bytesPerLine * 3 - 1))
        guard utf8.count >= 10, utf8[8] == 0x20, utf8[9] == 0x20, let offset = hexValue(utf8[0..<8]) else { return nil }
        var bytes: [UInt8] = []
        var position = 10
        while position + 1 < utf8.count, utf8[position] != 0x20 {
            guard let byte = hexValue(utf8[position..<position + 2]) else { return nil }
            bytes.append(UInt8(byte))
            position += 3
        }
        return (offset, bytes)
    }

    private static func hexValue(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            switch digit {
            case 0x30...0x39: value = value << 4 | Int(digit - 0x30)
            case 0x61...0x66: value = value << 4 | Int(digit - 0x61 + 10)
            default: return nil
            }
        }
        return value
    }

    /// The annotation of a line (after the offset, hex and ASCII columns), indentation kept.
    static func annotation(_ line: String, bytesPerLine: Int = 16) -> String {
        let column = 10 + (bytesPerLine * 3 - 1) + 2 + (bytesPerLine + 2) + 2
        return String(line.dropFirst(column))
    }

    /// `text` with ANSI colour escapes (`ESC [ … m`) removed.
    static func strippingColor(_ text: String) -> String {
        var out = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
