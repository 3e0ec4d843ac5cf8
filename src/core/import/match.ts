import { relative } from 'node:path'
import { closestName } from '../closest'
import type { Message } from '../extract/types'
import type { Formats } from '../model/formats'
import { translationProblem } from './check'
import { renameIcu } from './icu-text'
import { type MessageShape, renamingBetween, shapeOf } from './shape'
import type { ConvertedCatalog, ConvertedMessage } from './types'

/**
 * Each imported translation meets the message of this app it translates, as our extraction gives
 * it: the same text and variant (Lingui's context), or, when the spelling differs, the same shape
 * (see shape.ts: Lingui's `<0>` is our `<a>`, its `{0}` our `{name}`). The translation is then
 * renamed into our names and checked against our text as a build would check it. Nothing is
 * guessed: a text with no such message, or with two, is listed with where it is and why.
 */

/** A translation ready for the service: our message, our names, checked. */
export interface MatchedTranslation {
  message: Message
  locale: string
  text: string
  /** Where the translation was read (`locales/fr/messages.po:12`). */
  from: string
  /** The catalog's text differed from ours (names, tags, ICU written another way). */
  converted: boolean
}

/** An imported message left out, with both places when there are two. */
export interface ImportProblem {
  /** `file:line` in the catalog. */
  from: string
  key?: string
  source?: string
  locale: string
  reason: string
  /** `file:line` of our message, when the problem is with one (a refused check, a near text). */
  ours?: string
}

export interface MatchResult {
  matched: MatchedTranslation[]
  unmatched: ImportProblem[]
  refused: ImportProblem[]
}

const variantKey = (variant: string | null | undefined): string => variant ?? ''

interface Ours {
  message: Message
  shape: MessageShape
}

/** Where our message is, relative to the project root. */
export function placeOf(message: Message, root: string): string {
  let place = places.get(message)
  if (place === undefined) {
    const at = message.locations[0]
    place = at ? `${relative(root, at.file).split('\\').join('/')}:${at.line}` : '(no location)'
    places.set(message, place)
  }
  return place
}

/** Each message's place, made once: a message is reported once per locale. */
const places = new WeakMap<Message, string>()

// Above this many comparisons the nearest text is not looked for: it is a hint, not worth minutes.
const NEAREST_BUDGET = 2_000_000

/**
 * Matches every converted target catalog against our messages; a translation is checked with the
 * config's `formats`, as the build checks it, so what the build would reject is refused here.
 */
export function matchCatalogs(
  targets: readonly (ConvertedCatalog & { locale: string })[],
  messages: readonly Message[],
  root: string,
  formats?: Formats,
): MatchResult {
  const byText = new Map<string, Message>()
  const byShape = new Map<string, Ours[]>()
  // A message by its shape whatever its variant: to say why a text that is there did not match.
  const anyVariant = new Map<string, Message>()
  for (const message of messages) {
    byText.set(`${variantKey(message.variant)}\u0000${message.text}`, message)
    const shape = shapeOf(message.text)
    const key = `${variantKey(message.variant)}\u0000${shape.key}`
    if (!anyVariant.has(shape.key)) anyVariant.set(shape.key, message)
    const list = byShape.get(key) ?? []
    list.push({ message, shape })
    byShape.set(key, list)
  }
  // Each source text is shaped once, though every locale's catalog names it.
  const shapes = new Map<string, MessageShape>()
  const result: MatchResult = { matched: [], unmatched: [], refused: [] }
  const pending: ImportProblem[] = []
  const unmatchedReadings = new Map<string, ImportProblem[]>()
  const matchedReadings = new Set<string>()
  for (const catalog of targets) {
    for (const m of catalog.messages) {
      const from = `${catalog.file}:${m.line}`
      const problem = (reason: string, ours?: Message): ImportProblem => {
        const p: ImportProblem = { from, locale: catalog.locale, reason }
        if (m.key !== undefined) p.key = m.key
        if (m.source !== undefined) p.source = m.source
        if (ours) p.ours = placeOf(ours, root)
        return p
      }
      const found = findOurs(m, byText, byShape, anyVariant, shapes)
      const reading = m.reading === undefined ? undefined : `${catalog.file}\u0000${m.reading}`
      if ('reason' in found) {
        const p = problem(found.reason)
        if (reading !== undefined) {
          // Reported below only when no other reading of its i18next context family matched.
          const list = unmatchedReadings.get(reading) ?? []
          list.push(p)
          unmatchedReadings.set(reading, list)
        } else result.unmatched.push(p)
        if (found.ours) p.ours = found.ours.map((o) => placeOf(o, root)).join(', ')
        else pending.push(p)
        continue
      }
      const renamed = found.renaming ? renameIcu(m.text, found.renaming) : { text: m.text, problems: [] }
      const checked =
        renamed.problems.length > 0
          ? renamed.problems.join('; ')
          : translationProblem(found.message.text, renamed.text, catalog.locale, formats)
      if (checked) {
        result.refused.push(problem(checked, found.message))
        continue
      }
      if (reading !== undefined) matchedReadings.add(reading)
      result.matched.push({
        message: found.message,
        locale: catalog.locale,
        text: renamed.text,
        from,
        converted: renamed.text !== m.text || m.source !== found.message.text,
      })
    }
  }
  for (const [reading, problems] of unmatchedReadings)
    if (!matchedReadings.has(reading)) result.unmatched.push(...problems)
  nearest(pending, messages, root)
  return result
}

type Found =
  | { message: Message; renaming?: { tags: Record<string, string>; arguments: Record<string, string> } }
  | { reason: string; ours?: Message[] }

function findOurs(
  m: ConvertedMessage,
  byText: ReadonlyMap<string, Message>,
  byShape: ReadonlyMap<string, Ours[]>,
  otherVariants: ReadonlyMap<string, Message>,
  shapes: Map<string, MessageShape>,
): Found {
  const source = m.source!
  const variant = variantKey(m.context)
  const exact = byText.get(`${variant}\u0000${source}`)
  if (exact) return { message: exact }
  let shape = shapes.get(source)
  if (!shape) {
    shape = shapeOf(source)
    shapes.set(source, shape)
  }
  const candidates = byShape.get(`${variant}\u0000${shape.key}`) ?? []
  if (candidates.length === 1) {
    const ours = candidates[0]!
    return { message: ours.message, renaming: renamingBetween(shape, ours.shape) }
  }
  if (candidates.length > 1)
    return {
      reason: `its text ${JSON.stringify(source)} has the shape of ${candidates.length} messages of this app (${candidates.map((c) => JSON.stringify(c.message.text)).join(', ')}); which one it translates is not guessed`,
      ours: candidates.map((c) => c.message),
    }
  const context = m.context === undefined ? '' : ` with the context ${JSON.stringify(m.context)}`
  const reason = `no message of this app has the text ${JSON.stringify(source)}${context}`
  const elsewhere = otherVariants.get(shape.key)
  if (elsewhere) {
    const variant =
      elsewhere.variant === null ? 'no variant' : `the variant ${JSON.stringify(elsewhere.variant)}`
    return {
      reason: `${reason}; ${JSON.stringify(elsewhere.text)} has ${variant} (a variant is part of a message's identity)`,
      ours: [elsewhere],
    }
  }
  return { reason }
}

/** Adds to each unmatched problem the nearest message of this app, when one is close: the usual typo. */
function nearest(problems: ImportProblem[], messages: readonly Message[], root: string): void {
  if (problems.length === 0 || problems.length * messages.length > NEAREST_BUDGET) return
  const texts = messages.map((m) => m.text)
  for (const p of problems) {
    const source = p.source
    if (source === undefined || source.length > 200) continue
    // closestName allows at most 3 edits: only texts of a near length can be it.
    const near = closestName(
      source,
      texts.filter((t) => Math.abs(t.length - source.length) <= 3),
    )
    if (near === undefined) {
      const squeezed = source.replace(/\s+/g, ' ').trim()
      const same = messages.find((m) => m.text.replace(/\s+/g, ' ').trim() === squeezed)
      if (same) {
        p.reason += `; ${placeOf(same, root)} differs from it in white space only`
        p.ours = placeOf(same, root)
      }
      continue
    }
    const ours = messages.find((m) => m.text === near)!
    p.reason += `; the nearest is ${JSON.stringify(near)} at ${placeOf(ours, root)}`
    p.ours = placeOf(ours, root)
  }
}

/**
 * Where this app's message of a text is, by its shape, when exactly one has it: for the report of an
 * entry refused before the matching (its translation failed against its own source text).
 */
export function placeFinder(
  messages: readonly Message[],
  root: string,
): (text: string) => string | undefined {
  let byShape: Map<string, Message | null> | undefined
  return (text) => {
    if (!byShape) {
      byShape = new Map()
      for (const m of messages) {
        const key = shapeOf(m.text).key
        byShape.set(key, byShape.has(key) ? null : m)
      }
    }
    const found = byShape.get(shapeOf(text).key)
    return found ? placeOf(found, root) : undefined
  }
}
