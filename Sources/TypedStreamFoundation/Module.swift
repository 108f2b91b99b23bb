// Class codecs live here.
import TypedStream
