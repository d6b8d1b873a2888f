// Bytes that hold exactly their own memory, for whatever a cache keeps. A Buffer can be a view of
// a larger block: node:zlib's synchronous output is a slice of its 16 KiB output chunk, and
// Buffer.from of a short string is a slice of an 8 KiB pool shared with unrelated buffers. A cache
// that keeps the view keeps the whole block, and counts only the view: a cache of compressed files
// held many times the memory it counted.

/** `bytes` when it is the whole of its block, else a copy of it in a block of its own size. */
export function ownedBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(copy);
  return copy;
}

/** The UTF-8 bytes of `text` in a block of their own: encoded once, to keep and to send alike. */
export function ownedUtf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}
