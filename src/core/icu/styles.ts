import { BUILT_IN_FORMATS, type FormatKind, type Formats, styleReading } from '../model/formats'
import { eachFormatted, type FormattedElement } from './formatting'
import { cannotBeIcu, type MessageFormatElement, parseIcu, TYPE } from './parse'

/**
 * Style names in messages (`{price, number, GBP}`): each must be built in or in the `formats` option.
 * intl-messageformat reads an unknown name as no style at all (a plain `123.457` for `£123.46`), and so
 * would the compiled form: the build says so instead, as it does of a skeleton `Intl` refuses.
 */

/** `number`, `date` or `time` then a style that is not a skeleton (`::`): a name, maybe. */
const MAY_NAME_A_STYLE = /\b(?:number|date|time)\s*,\s*(?!::)[^\s}]/

/**
 * Whether a message text may name a style, without parsing it: most do not, and a build start asks
 * this of every message (the extraction counts them, so a warm start reads no message when none may).
 */
export function mayNameAStyle(text: string): boolean {
  return !cannotBeIcu(text) && MAY_NAME_A_STYLE.test(text)
}

const kindOf = (el: FormattedElement): FormatKind =>
  el.type === TYPE.number ? 'number' : el.type === TYPE.date ? 'date' : 'time'

/** Each style name a message uses that neither the built-in styles nor `formats` know, as `kind:name`. */
export function unknownStylesOf(elements: readonly MessageFormatElement[], formats: Formats): Set<string> {
  const out = new Set<string>()
  eachFormatted(elements, (el) => {
    const kind = kindOf(el)
    if (typeof el.style === 'string' && !styleReading(kind, el.style, formats)) out.add(`${kind}:${el.style}`)
  })
  return out
}

/** The sentence for an unknown style name: what it is, and the two ways to fix it. */
export function describeUnknownStyle(kind: FormatKind, name: string, written: string): string {
  const builtIn = Object.keys(BUILT_IN_FORMATS[kind]).join(', ')
  const options = kind === 'number' ? 'Intl.NumberFormatOptions' : 'Intl.DateTimeFormatOptions'
  return `${written} names the ${kind} format "${name}", which is neither built in (${builtIn}) nor in the formats option: add formats.${kind}.${JSON.stringify(name).slice(1, -1)} (${options}) to the plugin options, or write a skeleton (${kind === 'number' ? '::currency/EUR' : '::yMMMd'})`
}

/**
 * A source message's first unknown style name, quoted from the message, with its offset; undefined
 * when every name is known (or the message does not parse: the syntax check says so).
 */
export function unknownStyleProblem(
  text: string,
  formats: Formats,
): { problem: string; offset: number } | undefined {
  const parsed = parseIcu(text, undefined, true)
  if (!parsed.ok) return undefined
  let found: { problem: string; offset: number } | undefined
  eachFormatted(parsed.ast, (el) => {
    const kind = kindOf(el)
    if (found || typeof el.style !== 'string' || styleReading(kind, el.style, formats)) return
    const at = el.location
    const written = at ? text.slice(at.start.offset, at.end.offset) : `{${el.value}, ${kind}, ${el.style}}`
    found = { problem: describeUnknownStyle(kind, el.style, written), offset: at?.start.offset ?? 0 }
  })
  return found
}
