import { decode, encode, type SourceMapMappings, type SourceMapSegment } from '@jridgewell/sourcemap-codec'
import type { Edit } from './markers'

/**
 * The source map of a locale copy of a chunk: the bundler's map with its generated positions moved
 * past each replaced range.
 *
 * Only generated positions change: every segment keeps its source fields, and segments stay in order.
 * The first segment inside a replaced range (the marker call's own tokens) moves to the range's start,
 * where the replacement begins; the others of the range are dropped, since a lookup takes the last
 * segment at or before a column and would otherwise land on the end of the original call. This is a
 * composition with "each replacement maps to the start of what it replaced", at the cost of one walk
 * over the decoded segments per copy (decoded once for all copies), which a general remapping (trace
 * every segment through a second map) does several times over.
 */

export type { SourceMapMappings }

export interface RawSourceMap {
  version: number
  file?: string
  sourceRoot?: string
  sources: (string | null)[]
  sourcesContent?: (string | null)[]
  names: string[]
  mappings: string
  [field: string]: unknown
}

/** Offsets where each line of `code` starts. */
export function lineStarts(code: string): number[] {
  const starts = [0]
  for (let at = code.indexOf('\n'); at >= 0; at = code.indexOf('\n', at + 1)) starts.push(at + 1)
  return starts
}

/** A map's `mappings` decoded; a copy of a chunk decodes its map once for every copy. */
export function readMappings(mappings: string): SourceMapMappings {
  if (/[^A-Za-z0-9+/,;]/.test(mappings))
    throw new Error('[unplugin-tms] inline mode: a source map has invalid mappings')
  return decode(mappings)
}

/** `segment` at another generated column (a new segment: the decoded ones serve every copy). */
function movedTo(segment: SourceMapSegment, column: number): SourceMapSegment {
  if (segment.length === 4) return [column, segment[1], segment[2], segment[3]]
  if (segment.length === 5) return [column, segment[1], segment[2], segment[3], segment[4]]
  return [column]
}

/**
 * `mappings` (as text, or decoded) of a chunk whose code had the lines `before` (line start offsets),
 * after the edits (sorted, not overlapping) turned it into code with the lines `after`.
 */
export function shiftMappings(
  mappings: string | SourceMapMappings,
  before: readonly number[],
  edits: readonly Edit[],
  after: readonly number[],
): string {
  if (edits.length === 0) return typeof mappings === 'string' ? mappings : encode(mappings)
  const lines = typeof mappings === 'string' ? readMappings(mappings) : mappings
  const out: SourceMapSegment[][] = []
  let edit = 0
  let shift = 0
  let newLine = 0
  let lastOffset = -1
  // The edit whose range has had its one segment.
  let keptIn = -1
  for (let line = 0; line < lines.length; line++) {
    const start = before[line] ?? before[before.length - 1]!
    for (const segment of lines[line]!) {
      const offset = start + segment[0]
      if (offset < lastOffset) {
        // A column past its line's end (allowed, rare): walk the edits and lines again from the start.
        edit = 0
        shift = 0
        newLine = 0
        keptIn = -1
      }
      lastOffset = offset
      while (edit < edits.length && edits[edit]!.end <= offset) {
        const e = edits[edit++]!
        shift += e.text.length - (e.end - e.start)
      }
      const current = edits[edit]
      const inside = current !== undefined && current.start <= offset
      if (inside) {
        if (keptIn === edit) continue
        keptIn = edit
      }
      const moved = inside ? current.start + shift : offset + shift
      while (newLine + 1 < after.length && after[newLine + 1]! <= moved) newLine++
      while (out.length <= newLine) out.push([])
      out[newLine]!.push(movedTo(segment, moved - after[newLine]!))
    }
  }
  return encode(out)
}

const URL_OR_ABSOLUTE = /^(?:[a-z][\w+.-]*:|\/)/i

/**
 * Source paths one directory deeper: the copy's files sit in `<locale>/` under the output directory,
 * so a relative source path needs one more `../` to reach the same original file.
 */
export function rebaseSources(map: RawSourceMap, depth = 1): Pick<RawSourceMap, 'sources' | 'sourceRoot'> {
  const up = '../'.repeat(depth)
  if (map.sourceRoot) {
    return {
      sources: map.sources,
      sourceRoot: URL_OR_ABSOLUTE.test(map.sourceRoot) ? map.sourceRoot : up + map.sourceRoot,
    }
  }
  return {
    sources: map.sources.map((s) => (s === null || URL_OR_ABSOLUTE.test(s) ? s : up + s)),
    sourceRoot: map.sourceRoot,
  }
}
