import Foundation
import TypedStreamExport

/// The one place an error becomes the line the user reads. Errors of this package already say
/// what they mean; errors from Foundation (`Error Domain=NSCocoaErrorDomain Code=513 …`) are
/// turned into "cannot write 'PATH': Permission denied", with the system's words for the
/// underlying `errno` where there is one.
enum ErrorText {
    /// One line for `error`, without the `error:` prefix.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as CustomStringConvertible where !(error is NSError) && !(error is CocoaError):
            return error.description
        default:
            return describeFoundation(error as NSError)
        }
    }

    /// "cannot read/write 'PATH': reason" for a Foundation error.
    private static func describeFoundation(_ error: NSError) -> String {
        let reason = systemReason(error)
        guard let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path else {
            return reason
        }
        return "cannot \(isRead(error) ? "read" : "write") '\(path)': \(reason)"
    }

    /// `strerror` text for the error or the POSIX error beneath it, else a short phrase for
    /// the Cocoa code, else Foundation's own description.
    private static func systemReason(_ error: NSError) -> String {
        var current: NSError? = error
        while let candidate = current {
            if candidate.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(candidate.code))) }
            current = candidate.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        if error.domain == NSCocoaErrorDomain, let code = posixCode(forCocoa: error.code) { return String(cString: strerror(code)) }
        return error.localizedDescription
    }

    /// The `errno` a Cocoa file error stands for.
    private static func posixCode(forCocoa code: Int) -> Int32? {
        switch CocoaError.Code(rawValue: code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: EACCES
        case .fileWriteOutOfSpace: ENOSPC
        case .fileWriteVolumeReadOnly: EROFS
        case .fileWriteFileExists: EEXIST
        case .fileReadTooLarge: EFBIG
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: EINVAL
        default: nil
        }
    }

    private static func isRead(_ error: NSError) -> Bool {
        error.domain == NSCocoaErrorDomain && (256..<512).contains(error.code)
    }
}
