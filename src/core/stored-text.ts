/**
 * Text a cache file holds (the extraction cache's payloads, the transform memo's code): a string once
 * made, or the file's bytes until something reads it. A warm start reads such files as bytes and
 * decodes only the fields it needs: one string of megabytes costs more to make than the few it uses.
 */
export type StoredText = string | Buffer

export function textOf(text: StoredText): string {
  return typeof text === 'string' ? text : text.toString('utf8')
}

/** The length in bytes of `text` as a file holds it (UTF-8), without decoding bytes. */
export function byteLengthOf(text: StoredText): number {
  return typeof text === 'string' ? Buffer.byteLength(text) : text.length
}
