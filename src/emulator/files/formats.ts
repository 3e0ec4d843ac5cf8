import { csvFormat } from './csv'
import type { FileFormat } from './format'
import { gettextFormat } from './gettext'
import { jsonFormat } from './json'
import { plainTextFormat } from './plain-text'
import { propertiesFormat } from './properties'
import { yamlFormat } from './yaml'

/** The file types the emulator parses, by the spec's `fileType` identifier. */
export const FILE_FORMATS: ReadonlyMap<string, FileFormat> = new Map(
  [jsonFormat, propertiesFormat, gettextFormat, csvFormat, yamlFormat, plainTextFormat].map((f) => [
    f.fileType,
    f,
  ]),
)

export function formatOf(fileType: string): FileFormat | undefined {
  return FILE_FORMATS.get(fileType)
}
