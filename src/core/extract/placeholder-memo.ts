/**
 * The memo of placeholder parsing: the same texts recur across a codebase, and most hold no
 * placeholder at all, so a text is parsed once per placeholder spec and a text without the spec's
 * trigger is not parsed (nor hashed into the memo) at all. Under the app's own spec an ICU message's
 * placeholders are decided by its structure (`../icu/placeholders.ts`): a one-word branch body is no
 * placeholder.
 */
import { messagePlaceholders } from '../icu/placeholders'
import {
  type ParsedText,
  type PlaceholderSpec,
  placeholderRegex,
  placeholderTrigger,
} from '../model/placeholders'
import type { ResolvedExtractOptions } from './options'

/** One placeholder spec's trigger and the texts parsed under it. */
export interface PlaceholderMemo {
  /**
   * Whether a text may hold a placeholder: a character every placeholder of the spec starts with, or
   * the spec's regex (non-global) when there is no such character; null when the spec knows none.
   */
  trigger: string | RegExp | null
  parsed: Map<string, ParsedText>
}

const parsedMemo = new Map<string, PlaceholderMemo>()

/** What tells that a text may hold a placeholder: the spec's trigger character, else its regex. */
function triggerOf(spec: PlaceholderSpec): string | RegExp | null {
  const trigger = placeholderTrigger(spec)
  if (trigger !== undefined) return trigger
  const re = placeholderRegex(spec)
  return re === null ? null : new RegExp(re.source, re.flags.replace('g', ''))
}

const memoOfOptions = new WeakMap<ResolvedExtractOptions, PlaceholderMemo>()

/** memoFor(options.placeholder), looked up once per resolved options rather than once per file. */
export function memoOf(options: ResolvedExtractOptions): PlaceholderMemo {
  let memo = memoOfOptions.get(options)
  if (memo === undefined) {
    memo = memoFor(options.placeholder)
    memoOfOptions.set(options, memo)
  }
  return memo
}

/** The memo of messagePlaceholders results for one spec: the same texts recur across a codebase. */
function memoFor(spec: PlaceholderSpec): PlaceholderMemo {
  const specKey =
    spec.custom != null && spec.custom !== '' ? `c:${spec.custom}` : `f:${spec.format ?? 'none'}`
  let memo = parsedMemo.get(specKey)
  if (memo === undefined) {
    memo = { trigger: triggerOf(spec), parsed: new Map() }
    parsedMemo.set(specKey, memo)
  }
  return memo
}

/** The placeholders of a text that holds none: one frozen array shared by most texts. */
export const NO_PLACEHOLDERS: readonly string[] = Object.freeze([] as string[])

/**
 * messagePlaceholders through the memo. Most texts hold no placeholder: looking for the trigger (no
 * trigger means the regex finds none, and the structure then none either) is cheaper than hashing the text into the memo.
 */
export function parseCached(text: string, spec: PlaceholderSpec, memo: PlaceholderMemo): ParsedText {
  const trigger = memo.trigger
  if (trigger === null || (typeof trigger === 'string' ? !text.includes(trigger) : !trigger.test(text))) {
    return { parsed: text, placeholders: NO_PLACEHOLDERS as string[] }
  }
  let parsed = memo.parsed.get(text)
  if (parsed === undefined) {
    parsed = messagePlaceholders(text, spec)
    // Bounded: a long-lived dev server meets ever new texts.
    if (memo.parsed.size >= 100_000) memo.parsed.clear()
    memo.parsed.set(text, parsed)
  }
  return parsed
}
