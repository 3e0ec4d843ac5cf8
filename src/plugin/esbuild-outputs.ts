import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BuildResult } from 'esbuild'
import { lineStarts, type RawSourceMap, shiftMappings } from './inline/index'
import { applyEdits, type CatalogOf, type CodeEdit, catalogMarkerEdits, hasCatalogMarker } from './virtual'

/**
 * esbuild's output files once the build is done: the catalog markers filled, and each chunk's source
 * map made to describe the filled chunk. esbuild names a plugin's virtual module `<namespace>:<path>`
 * in its maps and in a comment over the module's code, and the ids of this plugin's virtual modules
 * start with a NUL byte (rollup's convention): the byte is taken out of both.
 */

const NUL = '\0'
const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/

/** The edits of a chunk: its markers filled and its NUL bytes removed, sorted by start. */
function chunkEdits(code: string, catalogOf: CatalogOf): CodeEdit[] {
  const edits = catalogMarkerEdits(code, catalogOf)
  for (let at = code.indexOf(NUL); at >= 0; at = code.indexOf(NUL, at + 1)) {
    edits.push({ start: at, end: at + 1, text: '' })
  }
  return edits.sort((a, b) => a.start - b.start)
}

/** The map of a chunk whose code `before` became `after` through `edits`. */
function filledMap(
  json: string,
  before: string,
  edits: CodeEdit[],
  after: string,
  catalogOf: CatalogOf,
): string {
  const map = JSON.parse(json) as RawSourceMap
  map.mappings = shiftMappings(map.mappings, lineStarts(before), edits, lineStarts(after))
  map.sources = map.sources.map((s) => (s === null ? s : s.replaceAll(NUL, '')))
  // The catalog module as it ends up in the chunk, not the placeholder it was built from.
  if (map.sourcesContent) {
    map.sourcesContent = map.sourcesContent.map((content) =>
      content === null ? content : applyEdits(content, catalogMarkerEdits(content, catalogOf)),
    )
  }
  return JSON.stringify(map)
}

/**
 * A chunk filled, with its map (`map` is the text of its map file, when it has one): null when the
 * chunk has nothing to change. An inline map (`sourcemap: 'inline'`) is rewritten in place.
 */
export function fillChunk(
  code: string,
  map: string | undefined,
  catalogOf: CatalogOf,
): { code: string; map: string | undefined } | null {
  if (!hasCatalogMarker(code) && !code.includes(NUL)) return null
  const inline = INLINE_MAP.exec(code)
  const body = inline ? code.slice(0, inline.index) : code
  const edits = chunkEdits(body, catalogOf)
  if (edits.length === 0) return null
  const filled = applyEdits(body, edits)
  if (inline) {
    const json = filledMap(Buffer.from(inline[1]!, 'base64').toString('utf8'), body, edits, filled, catalogOf)
    const url = `//# sourceMappingURL=data:application/json;base64,${Buffer.from(json).toString('base64')}\n`
    return { code: filled + url, map }
  }
  return { code: filled, map: map === undefined ? undefined : filledMap(map, body, edits, filled, catalogOf) }
}

/** Fills the build's JavaScript outputs, in memory (`write: false`) or on disk. */
export function fillOutputs(result: BuildResult, cwd: string, catalogOf: CatalogOf): void {
  const outputs = result.outputFiles
  if (outputs) {
    const byPath = new Map(outputs.map((out, i) => [out.path, i]))
    outputs.forEach((out, i) => {
      if (!/\.[cm]?js$/.test(out.path)) return
      const mapIndex = byPath.get(`${out.path}.map`)
      const filled = fillChunk(
        out.text,
        mapIndex === undefined ? undefined : outputs[mapIndex]!.text,
        catalogOf,
      )
      if (!filled) return
      outputs[i] = textFile(out.path, filled.code, out.hash)
      if (mapIndex !== undefined && filled.map !== undefined) {
        outputs[mapIndex] = textFile(outputs[mapIndex]!.path, filled.map, outputs[mapIndex]!.hash)
      }
    })
    return
  }
  for (const output of Object.keys(result.metafile!.outputs)) {
    if (!/\.[cm]?js$/.test(output)) continue
    const file = join(cwd, output)
    const mapFile = `${file}.map`
    const hasMap = `${output}.map` in result.metafile!.outputs
    const filled = fillChunk(
      readFileSync(file, 'utf8'),
      hasMap ? readFileSync(mapFile, 'utf8') : undefined,
      catalogOf,
    )
    if (!filled) continue
    writeFileSync(file, filled.code)
    if (hasMap && filled.map !== undefined) writeFileSync(mapFile, filled.map)
  }
}

function textFile(path: string, text: string, hash: string): NonNullable<BuildResult['outputFiles']>[number] {
  return { path, contents: new TextEncoder().encode(text), hash, text }
}
