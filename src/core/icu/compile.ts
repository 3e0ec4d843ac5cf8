import type { Branch, CompiledMessage, Part } from '../../runtime/icu'
import { jsString } from '../js-string'
import { type Formats, styleReading } from '../model/formats'
import { depthProblem } from './limits'
import { cannotBeIcu, isPlainAst, type MessageFormatElement, parseIcu, TYPE } from './parse'

/**
 * The icu folder: ICU MessageFormat at build time. `parse.ts` (the parser, and a cheap "cannot be ICU"
 * test), this file (the compact form the runtime interprets), `forms.ts` (each text compiled once per
 * locale), `check.ts` (source messages and ICU translations: arguments, kinds, tags, `other`),
 * `limits.ts` (depth and size bounds), `formatting.ts` (numbers and dates tried with `Intl`, currencies),
 * `restore.ts` (a translation's service placeholders restored, a branch body such as `{1}` left as text),
 * `styles.ts` (style names that neither the built-in styles nor the `formats` option know).
 */
/**
 * ICU messages compiled at build time into the runtime's compact form (see src/runtime/icu.ts): small
 * nested arrays, JSON-able, written into catalog chunks and transformed modules as JS literals.
 */

export type { CompiledMessage }

/** A message that is not valid ICU: its reason and the offset inside the message. */
export class IcuSyntaxError extends Error {
  readonly offset: number
  constructor(problem: string, offset: number) {
    super(problem)
    this.name = 'IcuSyntaxError'
    this.offset = offset
  }
}

/**
 * Whether a message needs ICU formatting: false for plain text with `{name}` arguments at most, and
 * for a text that is not ICU at all (another placeholder format's `{0:N2}`; with the app's own format,
 * extraction reports it as an error).
 */
export function isIcuMessage(text: string): boolean {
  if (cannotBeIcu(text)) return false
  const parsed = parseIcu(text)
  return parsed.ok && !isPlainAst(text, parsed.ast)
}

/**
 * The compact form of a message in a locale (the locale decides date skeletons' hour cycle): the text
 * itself when it is plain. A style name (`{n, number, GBP}`) is read from the built-in styles and
 * `formats` (the option), its `Intl` options written into the form: the runtime knows no names.
 * Throws {@link IcuSyntaxError} for a message that does not parse.
 */
export function compileMessage(text: string, locale?: string, formats?: Formats): CompiledMessage {
  if (cannotBeIcu(text)) return text
  const parsed = parseIcu(text, locale)
  if (!parsed.ok) throw new IcuSyntaxError(parsed.problem, parsed.offset)
  if (isPlainAst(text, parsed.ast)) return text
  // The checks refuse such a message first; this keeps any other caller's stack safe too.
  const deep = depthProblem(parsed.ast)
  if (deep) throw new IcuSyntaxError(deep, 0)
  const parts = compileElements(parsed.ast, formats)
  // An ICU message whose parts are one literal (`It''s`) is still an array: a top-level string is
  // read as a plain text.
  return typeof parts === 'string' ? [parts] : parts
}

function compileElements(elements: readonly MessageFormatElement[], formats: Formats | undefined): Branch {
  const parts: Part[] = []
  for (const el of elements) {
    const part = compileElement(el, formats)
    const last = parts[parts.length - 1]
    if (typeof part === 'string' && typeof last === 'string') parts[parts.length - 1] = last + part
    else parts.push(part)
  }
  if (parts.length === 0) return ''
  return parts.length === 1 && typeof parts[0] === 'string' ? parts[0] : parts
}

/**
 * A plural's `=N` branch is keyed by N alone: the runtime looks it up by the number itself, with no
 * string made per call (src/runtime/icu.ts). A select's keys are its selectors as written.
 */
function branches(
  options: Record<string, { value: MessageFormatElement[] }>,
  formats: Formats | undefined,
  plural = false,
): Record<string, Branch> {
  const out: Record<string, Branch> = {}
  for (const [selector, option] of Object.entries(options)) {
    const key = plural && selector.startsWith('=') ? selector.slice(1) : selector
    const branch = compileElements(option.value, formats)
    if (key === '__proto__') {
      // An own property (assigning would set the prototype), and an array: in the JS literal the key
      // sets the prototype, where the runtime finds it (src/runtime/icu.ts, `pick`).
      const value = typeof branch === 'string' ? [branch] : branch
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
    } else out[key] = branch
  }
  return out
}

/**
 * One element's part; a plural, select or tag's branches compiled with it. A style name that is neither
 * built in nor in `formats` is read as intl-messageformat reads it (no options: a plain number, the
 * default date); the build warns of it (`unknownStyleDiagnostics`, src/core/check/styles.ts).
 */
export function compileElement(el: MessageFormatElement, formats?: Formats): Part {
  switch (el.type) {
    case TYPE.literal:
      return el.value
    case TYPE.pound:
      return 0
    case TYPE.argument:
      return [el.value]
    case TYPE.number: {
      const options =
        typeof el.style === 'string'
          ? styleReading('number', el.style, formats)
          : el.style
            ? el.style.parsedOptions
            : undefined
      return options ? [el.value, 1, { ...options }] : [el.value, 1]
    }
    case TYPE.date:
    case TYPE.time: {
      const kind = el.type === TYPE.date ? 'date' : 'time'
      const options =
        typeof el.style === 'string'
          ? styleReading(kind, el.style, formats)
          : el.style
            ? el.style.parsedOptions
            : kind === 'time'
              ? styleReading('time', 'medium', formats)
              : undefined
      return options ? [el.value, 2, { ...options }] : [el.value, 2]
    }
    case TYPE.select:
      return [el.value, 3, branches(el.options, formats)]
    case TYPE.plural:
      return [
        el.value,
        el.pluralType === 'ordinal' ? 5 : 4,
        el.offset ?? 0,
        branches(el.options, formats, true),
      ]
    case TYPE.tag:
      return [el.value, 6, compileElements(el.children, formats)]
    default:
      throw new IcuSyntaxError(`unsupported element type ${(el as { type: number }).type}`, 0)
  }
}

/**
 * A compiled message that formats in `locale` whatever the page's locale: a source message standing
 * in for a missing or rejected translation keeps the source locale's plural rules ("1 file", not the
 * "1 files" of a locale whose only category is `other`). A plain text needs no locale.
 */
export function inLocale(form: CompiledMessage, locale: string): CompiledMessage {
  return typeof form === 'string' ? form : [[locale, 7, form]]
}

/**
 * The JS literal of a compiled message. Every string goes through `jsString`, so a translation can
 * never leave its literal; keys are quoted the same way.
 */
export function compiledLiteral(form: CompiledMessage | Part | Record<string, unknown> | unknown): string {
  if (typeof form === 'string') return jsString(form)
  if (typeof form === 'number' || typeof form === 'boolean') return String(form)
  if (Array.isArray(form)) return `[${form.map(compiledLiteral).join(',')}]`
  if (form && typeof form === 'object') {
    const entries = Object.entries(form as Record<string, unknown>).filter(([, v]) => v !== undefined)
    return `{${entries.map(([k, v]) => `${jsString(k)}:${compiledLiteral(v)}`).join(',')}}`
  }
  return 'null'
}
