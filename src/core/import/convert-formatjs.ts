import { convertEntry, emptyConversion } from './finish'
import type { ConvertedCatalog, ImportedCatalog } from './types'

/**
 * FormatJS messages are ICU with named tags and arguments, our form already: converting them is
 * checking them with our checks (a FormatJS-only construct, such as a self-closing tag, is refused).
 */
export function convertFormatjs(catalog: ImportedCatalog): ConvertedCatalog {
  const converted = emptyConversion(catalog)
  for (const entry of catalog.entries) convertEntry(converted, entry, (text) => ({ text }))
  return converted
}
