import type { Edit } from './markers'

/**
 * The source map of a locale copy of a chunk: the bundler's map with its generated positions moved
 * past each replaced range.
 *
 * Only generated columns change, so the VLQ stream is rewritten in one pass: every segment is kept and
 * in order, its first field re-encoded, the other fields (source, line, column, name: relative to the
 * previous segment) copied as they are. The first segment inside a replaced range (the marker call's
 * own tokens) moves to the range's start, where the replacement begins; the others of the range are
 * dropped (their relative fields added to the next segment kept), since a lookup takes the last segment
 * at or before a column and would otherwise land on the end of the original call. This is a
 * composition with "each replacement maps to the start of what it replaced", at the cost of reading
 * the map once per copy, which a general remapping (decode both maps, trace every segment, encode)
 * does several times over.
 */

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

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DIGIT = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE64.length; i++) DIGIT[BASE64.charCodeAt(i)] = i

function encodeVlq(value: number): string {
  let v = value < 0 ? (-value << 1) | 1 : value << 1
  let out = ''
  do {
    let digit = v & 31
    v >>>= 5
    if (v > 0) digit |= 32
    out += BASE64[digit]
  } while (v > 0)
  return out
}

/** Offsets where each line of `code` starts. */
export function lineStarts(code: string): number[] {
  const starts = [0]
  for (let at = code.indexOf('\n'); at >= 0; at = code.indexOf('\n', at + 1)) starts.push(at + 1)
  return starts
}

const COMMA = 44
const SEMICOLON = 59

/** The VLQ fields of a segment's text (relative values, as stored). */
function decodeFields(text: string): number[] {
  const fields: number[] = []
  let value = 0
  let shiftBits = 0
  for (let i = 0; i < text.length; i++) {
    const digit = DIGIT[text.charCodeAt(i)]!
    if (digit < 0) throw new Error('[unplugin-tms] inline mode: a source map has invalid mappings')
    value |= (digit & 31) << shiftBits
    if (digit & 32) shiftBits += 5
    else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
      value = 0
      shiftBits = 0
    }
  }
  return fields
}

/**
 * `mappings` of a chunk whose code had the lines `before` (line start offsets), after the edits (sorted,
 * not overlapping) turned it into code with the lines `after`.
 */
export function shiftMappings(
  mappings: string,
  before: readonly number[],
  edits: readonly Edit[],
  after: readonly number[],
): string {
  if (edits.length === 0) return mappings
  let out = ''
  let line = 0
  let col = 0
  let outLine = 0
  let outCol = 0
  let firstInLine = true
  let edit = 0
  let shift = 0
  let newLine = 0
  let lastOffset = -1
  // The edit whose range has had its one segment; the relative fields (source, line, column, name) of
  // the segments dropped since, owed to the next segments kept.
  let keptIn = -1
  const carried = [0, 0, 0, 0]
  let carrying = false
  const n = mappings.length
  let i = 0
  while (i < n) {
    const c = mappings.charCodeAt(i)
    if (c === SEMICOLON) {
      line++
      col = 0
      i++
      continue
    }
    if (c === COMMA) {
      i++
      continue
    }
    // The generated column, relative to the previous segment of the line.
    let value = 0
    let shiftBits = 0
    let digit: number
    do {
      digit = DIGIT[mappings.charCodeAt(i++)]!
      if (digit < 0) throw new Error('[unplugin-tms] inline mode: a source map has invalid mappings')
      value |= (digit & 31) << shiftBits
      shiftBits += 5
    } while (digit & 32)
    col += value & 1 ? -(value >>> 1) : value >>> 1
    const restStart = i
    while (i < n) {
      const d = mappings.charCodeAt(i)
      if (d === COMMA || d === SEMICOLON) break
      i++
    }
    const rest = mappings.slice(restStart, i)

    const offset = (before[line] ?? before[before.length - 1]!) + col
    if (offset < lastOffset) {
      // Out-of-order segments (allowed, rare): walk the edits and lines again from the start.
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
    if (inside && keptIn === edit) {
      if (rest !== '') {
        decodeFields(rest).forEach((v, f) => {
          carried[f]! += v
        })
        carrying = true
      }
      continue
    }
    if (inside) keptIn = edit
    let fields = rest
    if (carrying && rest !== '') {
      const relative = decodeFields(rest).map((v, f) => {
        const sum = v + carried[f]!
        carried[f] = 0
        return sum
      })
      fields = relative.map(encodeVlq).join('')
      carrying = carried.some((v) => v !== 0)
    }
    const moved = inside ? current.start + shift : offset + shift
    while (newLine + 1 < after.length && after[newLine + 1]! <= moved) newLine++
    const newCol = moved - after[newLine]!
    if (newLine > outLine) {
      out += ';'.repeat(newLine - outLine)
      outLine = newLine
      outCol = 0
      firstInLine = true
    } else if (newLine < outLine) {
      // Only out-of-order input gets here; keep the segment on the current line.
      outCol = 0
    }
    if (!firstInLine) out += ','
    out += encodeVlq(newCol - outCol) + fields
    outCol = newCol
    firstInLine = false
  }
  return out
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
