import {
  APP_PLACEHOLDER_SOURCE,
  type ParsedText,
  type PlaceholderMatch,
  type PlaceholderSpec,
  parsedFrom,
  parsePlaceholders,
  scanPlaceholders,
} from '../model/placeholders'
import { cannotBeIcu, type MessageFormatElement, parseIcu, TYPE } from './parse'

/**
 * The placeholders of an ICU message decided by its structure, not by the app's regex. The regex
 * (`APP_PLACEHOLDER_SOURCE`) cannot tell the branch body of `one {file}` from the argument `{file}`,
 * nor a quoted `'{name}'` from a real one; the parse can. Where both readings agree (nearly every
 * message) nothing changes: same parsed text, same request, same hashcode. Where they differ, the
 * message is sent with a spec of its own that makes the service find exactly its real placeholders
 * ({@link appMessageSpec}), so its `parsedStringText` keeps the bodies and its translations pass.
 * Pure functions of the text: a worker and the main thread give the same answers.
 */

/** A simple argument as the app's regex spells it: `{name}` or `{0}` (never `{ name }`). */
const APP_ARGUMENT = /^\{(?:[A-Za-z_$][\w$]*|\d+)\}$/
/** A tag name the app's regex reads: `<name>`, `</name>`. */
const APP_TAG_NAME = /^[A-Za-z0-9_-]+$/

/** Whether a spec is the app's own default (`{name}`, `{0}`, tags), the one read by structure. */
export function isAppSpec(spec: PlaceholderSpec): boolean {
  return spec.custom === APP_PLACEHOLDER_SOURCE
}

/**
 * The real placeholders of an ICU text in order: simple arguments written `{name}`/`{0}`, and each
 * open and close of a tag. Undefined when the text does not parse (the regex reading then stands:
 * extraction refuses such a source anyway, and a broken translation is refused by the ICU check).
 */
export function structuralPlaceholders(text: string): PlaceholderMatch[] | undefined {
  const read = parseIcu(text, undefined, true)
  if (!read.ok) return undefined
  const found: PlaceholderMatch[] = []
  const add = (start: number, end: number): void => {
    found.push({ text: text.slice(start, end), start, end })
  }
  const walk = (elements: readonly MessageFormatElement[]): void => {
    for (const el of elements) {
      const at = el.location
      if (el.type === TYPE.argument) {
        if (at && APP_ARGUMENT.test(text.slice(at.start.offset, at.end.offset))) {
          add(at.start.offset, at.end.offset)
        }
      } else if (el.type === TYPE.tag) {
        const open = `<${el.value}>`
        const close = `</${el.value}>`
        const named = APP_TAG_NAME.test(el.value)
        if (at && named && text.startsWith(open, at.start.offset)) {
          add(at.start.offset, at.start.offset + open.length)
        }
        walk(el.children)
        if (at && named && text.startsWith(close, at.end.offset - close.length)) {
          add(at.end.offset - close.length, at.end.offset)
        }
      } else if (el.type === TYPE.select || el.type === TYPE.plural) {
        for (const option of Object.values(el.options)) walk(option.value)
      }
    }
  }
  walk(read.ast)
  return found.sort((a, b) => a.start - b.start)
}

function sameMatches(a: readonly PlaceholderMatch[], b: readonly PlaceholderMatch[]): boolean {
  return a.length === b.length && a.every((m, i) => m.start === b[i]!.start && m.end === b[i]!.end)
}

/**
 * The real placeholders of a text under the app's spec, or undefined when the regex reads the same
 * (a text with no ICU syntax, one that does not parse, or one whose structure agrees).
 */
function differingPlaceholders(text: string): PlaceholderMatch[] | undefined {
  if (cannotBeIcu(text)) return undefined
  const structural = structuralPlaceholders(text)
  if (structural === undefined) return undefined
  return sameMatches(structural, scanPlaceholders(text, { custom: APP_PLACEHOLDER_SOURCE }))
    ? undefined
    : structural
}

/**
 * A message's parsed text and placeholders under `spec`: by structure for the app's spec, by the
 * spec's regex otherwise. Equal to `parsePlaceholders` for every text where the two readings agree.
 */
export function messagePlaceholders(text: string, spec: PlaceholderSpec): ParsedText {
  if (isAppSpec(spec)) {
    const real = differingPlaceholders(text)
    if (real !== undefined) return parsedFrom(text, real)
  }
  return parsePlaceholders(text, spec)
}

/** Texts whose own spec was asked for, and the answer; bounded (a dev server meets ever new texts). */
const specs = new Map<string, PlaceholderSpec>()

/**
 * The spec a message is created with: the app's `spec` itself, except for an app-spec message whose
 * regex reading differs from its structure. That one gets a spec under which the service finds
 * exactly its real placeholders: `none` when it has none, else a regex of those tokens (see
 * {@link exactPattern}). Same text, same answer, in any thread.
 */
export function appMessageSpec(text: string, spec: PlaceholderSpec): PlaceholderSpec {
  if (!isAppSpec(spec) || cannotBeIcu(text)) return spec
  const known = specs.get(text)
  if (known !== undefined) return known.custom === APP_PLACEHOLDER_SOURCE ? spec : known
  const real = differingPlaceholders(text)
  const own: PlaceholderSpec =
    real === undefined
      ? { format: null, custom: APP_PLACEHOLDER_SOURCE }
      : real.length === 0
        ? { format: 'none', custom: null }
        : { format: null, custom: exactPattern(text, real) }
  if (specs.size >= 10_000) specs.clear()
  specs.set(text, own)
  return real === undefined ? spec : own
}

/** A key telling specs apart, for grouping messages into requests. */
export function specKey(spec: PlaceholderSpec): string {
  return spec.custom != null && spec.custom !== ''
    ? `custom:${spec.custom}`
    : `format:${spec.format ?? 'none'}`
}

/** Escapes what has a meaning in a pattern; valid under the `u` flag and in Java's syntax alike. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/**
 * A regex whose matches in `text` are exactly `real`: the alternation of the distinct tokens, each
 * guarded, when the same token also stands elsewhere as text (`file {file}` beside an argument
 * `{file}`), by a negative lookbehind of the shortest text before that other place that no real one
 * has. The guard is the branch's selector as a rule, which a translation keeps, so the service reads a
 * translation's placeholders alike. Lookbehinds of fixed literal text are valid in Java's syntax too.
 */
export function exactPattern(text: string, real: readonly PlaceholderMatch[]): string {
  const tokens = [...new Set(real.map((m) => m.text))]
  const parts = tokens.map((token) => {
    const starts = new Set(real.filter((m) => m.text === token).map((m) => m.start))
    const guards: string[] = []
    for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) {
      if (!starts.has(at)) guards.push(guardBefore(text, at, [...starts]))
    }
    return [...new Set(guards)].map((g) => `(?<!${g})`).join('') + literal(token)
  })
  return parts.join('|')
}

/** The length of what stands right before a branch body: its selector (`one `, `=0 `), or a quote. */
function selectorLength(text: string, at: number): number {
  let i = at
  while (i > 0 && /\s/.test(text[i - 1]!)) i--
  while (i > 0 && !/[\s{}]/.test(text[i - 1]!)) i--
  return at - i
}

/**
 * The shortest text before `at`, from the selector (or quote) right before it on, that no place of
 * `starts` has before it, as a pattern. Never shorter than the selector: a translation keeps the
 * selector, while the single character before a body (a space) stands before its real ones too.
 */
function guardBefore(text: string, at: number, starts: readonly number[]): string {
  for (let k = Math.max(1, selectorLength(text, at)); k <= at; k++) {
    // Never half a surrogate pair: under the `u` flag it would match nothing.
    if (isLowSurrogate(text.charCodeAt(at - k)) && k < at) continue
    const before = text.slice(at - k, at)
    if (starts.every((s) => s < k || text.slice(s - k, s) !== before)) return literal(before)
  }
  // Every real place has the whole text before this one before it too: only the start tells them.
  return `^${literal(text.slice(0, at))}`
}
