// Model documents live here.
import TypedStream
