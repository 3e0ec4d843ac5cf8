/**
 * Text a cache file holds (the extraction cache's payloads, the transform memo's code): a string once
 * made, or the file's bytes until something reads it. A warm start reads such files as bytes and
 * decodes only the fields it needs: one string of megabytes costs more to make than the few it uses.
 */
export type StoredText = string | Buffer

export function textOf(text: StoredText): string {
  return typeof text === 'string' ? text : text.toString('utf8')
}

/**
 * The offsets of the next `count` tabs of `bytes` from `at` (the ends of a record's fields), or
 * undefined when fewer follow.
 */
export function tabsFrom(bytes: Buffer, at: number, count: number): number[] | undefined {
  const tabs: number[] = []
  for (let from = at; tabs.length < count; ) {
    const tab = bytes.indexOf(0x09, from)
    if (tab < 0) return undefined
    tabs.push(tab)
    from = tab + 1
  }
  return tabs
}
