// Exporters live here.
import TypedStream
