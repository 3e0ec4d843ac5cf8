import { createHash } from 'node:crypto'

/** What {@link messagesDigest} reads of a message (an extracted message, a sync's). */
export interface DigestedMessage {
  key: string
  text: string
  placeholders: readonly string[]
  instruction?: string
  maxLength?: number
}

/**
 * The digest of messages in order: each one's key, text, placeholders and the metadata the service
 * keeps (instruction, maxLength). Made once per merge and kept with the merged line, so that a build
 * whose files did not change reads it rather than hash every message again (the catalog memos' and the
 * ids memo's keys, the transform memo's stamps).
 */
export function messagesDigest(messages: readonly DigestedMessage[]): string {
  const parts = new Array<string>(messages.length + 1)
  parts[0] = String(messages.length)
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    // Lengths first: a text may hold a line break or a NUL, and two lists must not read the same.
    let part = `${m.key.length}:${m.key}${m.text.length}:${m.text}${m.placeholders.join('\u0001')}`
    if (m.instruction !== undefined || m.maxLength !== undefined)
      part += `\u0000${JSON.stringify([m.instruction, m.maxLength])}`
    parts[i + 1] = part
  }
  return createHash('sha256').update(parts.join('\n')).digest('hex')
}
