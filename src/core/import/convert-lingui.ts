import { convertEntry, emptyConversion } from './finish'
import { renameIcu } from './icu-text'
import type { ConvertedCatalog, ImportedCatalog, NameMapping } from './types'

/**
 * Lingui's messages are ICU already; what differs is its numbered tags (`<0>…</0>`, self-closing
 * `<0/>`) and positional placeholders (`{0}`), which become the names our extraction gives the same
 * elements and values, through `mapping`. With no mapping the numbers are kept: `<0>` and `{0}` are
 * valid in our form, and a `<0/>` becomes the empty pair `<0></0>`, as our `<T>` writes `<br/>`.
 */
export function convertLingui(catalog: ImportedCatalog, mapping: NameMapping = {}): ConvertedCatalog {
  const converted = emptyConversion(catalog)
  const toOurs = (text: string): { text: string } | { problem: string } => {
    const renamed = renameIcu(text, mapping)
    return renamed.problems.length > 0 ? { problem: renamed.problems.join('; ') } : { text: renamed.text }
  }
  for (const entry of catalog.entries) convertEntry(converted, entry, toOurs)
  return converted
}
