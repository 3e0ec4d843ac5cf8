import type { LocaleProblem } from '../check/locale'
import type { StoredText } from '../stored-text'
import { MEMO_SCHEMA } from './catalog-memo-keys'
import type { ManifestSums } from './manifest'

/**
 * A catalog memo's file (catalog-memo.ts): the digest of the rest (sealed by `DiskCache.writeMemo`),
 * a header of one line of JSON, then its literals one after the other, each as many bytes as the
 * header says.
 */

/** What a locale's memo holds besides its literals. */
export interface MemoHeader {
  schema: number
  /** The locale's key. */
  key: string
  /** The sync's outcome for the locale (none for a pseudo-locale or the source locale). */
  problems: LocaleProblem[]
  incomplete: string[]
  translated: number
  /** What the manifest says of the messages, when the build that wrote the memo read it whole. */
  manifest?: ManifestSums
  /**
   * Each literal, the last made first: a build may make a locale's literal of two sets of ids
   * (esbuild's of every id, then the bundle's; an inline copy's texts beside a runtime build's
   * literal), each kept, and decoded only when asked.
   */
  literals: MemoLiteral[]
}

/** Where a literal is in a memo file, and what names it. */
export interface MemoLiteral {
  /** Its rows' key (`rowsKey`). */
  rows: string
  /** Its length in bytes. */
  bytes: number
  /** The modules' key of a bundle whose ids are its rows (`modulesKey`), when a build knew it. */
  modules?: string
}

/**
 * How many literals a locale's memo keeps: an app built by turns in runtime mode, with `sourceCatalog`
 * and in inline mode (one cache directory) keeps each one's; esbuild's two and an inline copy's.
 */
export const LITERALS = 3

/** A memo file's text (less the seal). */
export function memoBody(header: MemoHeader, literals: readonly string[]): string {
  return `${JSON.stringify(header)}\n${literals.join('')}`
}

/**
 * The header and literals of a memo file's unsealed bytes, when they answer `key`, a problem names
 * one of `messages` messages, and the literals take the rest of the file exactly. Its literals stay
 * bytes until one is asked: a runtime build reads its catalog's, not an inline copy's.
 */
export function parseMemo(
  body: Buffer,
  key: string,
  messages: number,
): { header: MemoHeader; literals: StoredText[] } | undefined {
  const line = body.indexOf(0x0a)
  if (line < 0) return undefined
  let header: unknown
  try {
    header = JSON.parse(body.toString('utf8', 0, line))
  } catch {
    return undefined
  }
  if (!isHeader(header) || header.key !== key) return undefined
  if (header.problems.some((p) => p.index >= messages)) return undefined
  const literals: StoredText[] = []
  let at = line + 1
  for (const { bytes } of header.literals) {
    literals.push(body.subarray(at, at + bytes))
    at += bytes
  }
  return at === body.length ? { header, literals } : undefined
}

function isHeader(value: unknown): value is MemoHeader {
  if (typeof value !== 'object' || value === null) return false
  const h = value as Partial<MemoHeader>
  return (
    h.schema === MEMO_SCHEMA &&
    typeof h.key === 'string' &&
    typeof h.translated === 'number' &&
    Array.isArray(h.literals) &&
    h.literals.every(isLiteral) &&
    Array.isArray(h.incomplete) &&
    h.incomplete.every((i) => typeof i === 'string') &&
    Array.isArray(h.problems) &&
    h.problems.every(isProblem) &&
    (h.manifest === undefined ||
      (Number.isInteger(h.manifest?.unknown) && Number.isInteger(h.manifest?.absent)))
  )
}

function isLiteral(value: unknown): value is MemoLiteral {
  const l = value as Partial<MemoLiteral> | null
  return (
    typeof l?.rows === 'string' &&
    Number.isInteger(l.bytes) &&
    (l.bytes as number) >= 0 &&
    (l.modules === undefined || typeof l.modules === 'string')
  )
}

function isProblem(value: unknown): value is LocaleProblem {
  if (typeof value !== 'object' || value === null) return false
  const p = value as Record<string, unknown>
  return (
    Number.isInteger(p.index) &&
    (p.index as number) >= 0 &&
    typeof p.hashcode === 'string' &&
    (typeof p.reason === 'string' ||
      typeof p.note === 'string' ||
      (Array.isArray(p.lacks) && p.lacks.every((c) => typeof c === 'string')))
  )
}
