import type { Formats } from '../model/formats'
import { compileElement } from './compile'
import { type MessageFormatElement, parseIcu, TYPE } from './parse'

/**
 * Every number, date and time of a message tried at build the way the runtime will format it: the
 * Intl object made from the options its compiled form holds, in the locale it is shown in, formatting
 * a sample value. A skeleton that parses but that Intl refuses (`::currency/XYZ123`, `::unit/furlong`,
 * 101 fraction digits, `currency` with no code) would otherwise throw in the page.
 */

/** A number, date or time element whose Intl object cannot be made or cannot format, and why. */
export interface FormattingProblem {
  /** The element as written (`{n, number, ::currency/XYZ123}`). */
  written: string | undefined
  name: string
  /** Offset of the element in the message as written. */
  offset: number
  /** What Intl said. */
  error: string
}

/** Intl's answer per kind, locale and options: a pull tries the same few options thousands of times. */
const tried = new Map<string, string | null>()
const SAMPLE_DATE = new Date(0)

/** What Intl says of the formatter of one compiled part in `locale`: undefined when it formats. */
function intlRefusal(
  kind: 1 | 2,
  options: Record<string, unknown> | undefined,
  locale: string | undefined,
): string | undefined {
  const key = `${kind}\u0000${locale ?? ''}\u0000${JSON.stringify(options ?? null)}`
  let refusal = tried.get(key)
  if (refusal === undefined) {
    try {
      // As src/runtime/icu.ts makes and uses them (a number's `scale` is applied before formatting).
      if (kind === 1) new Intl.NumberFormat(locale, options as Intl.NumberFormatOptions).format(1)
      else new Intl.DateTimeFormat(locale, options as Intl.DateTimeFormatOptions).format(SAMPLE_DATE)
      refusal = null
    } catch (error) {
      refusal = error instanceof Error ? error.message : String(error)
    }
    tried.set(key, refusal)
  }
  return refusal ?? undefined
}

/** A number, date or time element. */
export type FormattedElement = Extract<MessageFormatElement, { type: TYPE.number | TYPE.date | TYPE.time }>

/** Each number, date and time element, in message order (nesting is bounded before this runs). */
export function eachFormatted(
  elements: readonly MessageFormatElement[],
  each: (el: FormattedElement) => void,
): void {
  for (const el of elements) {
    if (el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) each(el)
    else if (el.type === TYPE.tag) eachFormatted(el.children, each)
    else if (el.type === TYPE.select || el.type === TYPE.plural)
      for (const o of Object.values(el.options)) eachFormatted(o.value, each)
  }
}

/**
 * The first element of a message that Intl would refuse in `locale`, or undefined. `elements` need
 * no locations: only a refused message is read again, with them, to quote the element.
 */
export function formattingProblem(
  text: string,
  elements: readonly MessageFormatElement[],
  locale: string | undefined,
  formats?: Formats,
): FormattingProblem | undefined {
  let index = -1
  let error: string | undefined
  let seen = 0
  eachFormatted(elements, (el) => {
    if (error !== undefined) return
    const part = compileElement(el, formats) as [string, 1 | 2, Record<string, unknown>?]
    error = intlRefusal(part[1], part[2], locale)
    if (error !== undefined) index = seen
    seen++
  })
  if (error === undefined) return undefined
  const located = parseIcu(text, locale, true)
  let found: FormattedElement | undefined
  seen = 0
  if (located.ok)
    eachFormatted(located.ast, (el) => {
      if (seen++ === index) found = el
    })
  const at = found?.location
  return {
    written: at ? text.slice(at.start.offset, at.end.offset) : undefined,
    name: found?.value ?? '',
    offset: at?.start.offset ?? 0,
    error,
  }
}

/** The sentence of a formatting problem: what is refused, and what Intl said. */
export function describeFormattingProblem(problem: FormattingProblem, locale: string | undefined): string {
  const what = problem.written ?? `{${problem.name}}`
  return `${what} cannot be formatted${locale ? ` in ${locale}` : ''}: Intl says "${problem.error}"`
}

/**
 * The currency codes a message formats money in, upper-cased (`::currency/eur` is EUR; a named
 * format's `currency` too).
 */
export function currenciesOf(elements: readonly MessageFormatElement[], formats?: Formats): Set<string> {
  const out = new Set<string>()
  eachFormatted(elements, (el) => {
    if (el.type !== TYPE.number) return
    const options = (compileElement(el, formats) as [string, 1, Record<string, unknown>?])[2]
    if (typeof options?.currency === 'string') out.add(options.currency.toUpperCase())
  })
  return out
}
