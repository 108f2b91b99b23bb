// Codable bridge lives here.
import TypedStream
