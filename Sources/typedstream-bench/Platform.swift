#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

// The C library calls whose names or types differ between Linux and Darwin, in one place.

/// `read(2)`; spelled with its module because the bench's own `read` functions hide it.
func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.read(descriptor, buffer, count)
    #elseif canImport(Darwin)
    Darwin.read(descriptor, buffer, count)
    #endif
}

/// `write(2)`; spelled with its module for the same reason.
func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, buffer, count)
    #elseif canImport(Darwin)
    Darwin.write(descriptor, buffer, count)
    #endif
}

#if canImport(Darwin)
/// `posix_spawn_file_actions_t`: an opaque pointer on Darwin, a structure elsewhere.
typealias SpawnFileActions = posix_spawn_file_actions_t?
/// Storage for `posix_spawn_file_actions_init` to fill in.
func emptySpawnFileActions() -> SpawnFileActions { nil }
#else
/// `posix_spawn_file_actions_t`: an opaque pointer on Darwin, a structure elsewhere.
typealias SpawnFileActions = posix_spawn_file_actions_t
/// Storage for `posix_spawn_file_actions_init` to fill in.
func emptySpawnFileActions() -> SpawnFileActions { posix_spawn_file_actions_t() }
#endif

/// The peak resident size in `rusage.ru_maxrss`, in KB: Linux counts it in kilobytes, Darwin
/// in bytes.
func maximumResidentKB(_ usage: rusage) -> Int {
    #if canImport(Darwin)
    Int(usage.ru_maxrss) / 1024
    #else
    Int(usage.ru_maxrss)
    #endif
}

/// The environment as `posix_spawn` takes it (`environ` is not visible to Swift on Darwin);
/// free each pointer when done.
func spawnEnvironment() -> [UnsafeMutablePointer<CChar>?] {
    ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
}
