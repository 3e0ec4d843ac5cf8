import { FORMAT_CALLEE, LOOKUP_CALLEE } from '../core/extract/nodes'
import { jsString } from '../core/js-string'

/**
 * How one call site's lookup is written. It is built once per site, and every kind of site asks it
 * for its pieces (transform.ts: calls, tagged templates, Vue's `<T msg>`; jsx.ts: React's `<T>`), so
 * the modes differ here and nowhere else:
 *
 *   mode            head                                 values  bare                         tail
 *   runtime         __tms_l("<id>", <text or form>       `, `    `)`                          `)`
 *   inline, ICU     __tms_f(__tms_l("<id>", "<text>")    `, `    `, void 0, __tms_locale())`  `, __tms_locale())`
 *   sourceCatalog   __tms_l("<id>"                       `,0,`   `)`                          `)`
 *
 * A site with values becomes `head + values + <values> + tail`, one without `head + bare`. A descriptor
 * (`msg(...)`) puts the lookup in a function of the values, `__tms_m((values) => <lookup>, <bound>)`,
 * so each mode's lookup runs at each call: the current catalog's text in runtime mode and with
 * `sourceCatalog`, the copy's own text in inline mode.
 * `head` is `open + text + close`; a call whose text literal can stay where it is (its source
 * mapping with it) takes `open` and `close` around the literal instead.
 */
export interface Lookup {
  head: string
  /** Closes the lookup when there are no values (inline mode's formatting gets `void 0` for them). */
  bare: string
  /** Between `head` and the values object (`sourceCatalog`'s `0` stands in for the missing text). */
  values: string
  /** Closes the lookup after the values. */
  tail: string
  /** `head` up to the text argument. */
  open: string
  /**
   * What takes the place of the text literal: the source's compiled form (ICU, runtime mode), nothing
   * (`sourceCatalog`: the source locale's catalog holds the text); undefined: the literal as written,
   * and in `head` (for a site with no literal: a `<T>`, a tagged template) the quoted source text.
   */
  text: string | undefined
  /** After the text inside `head`: the `)` of inline mode's inner lookup. */
  close: string
  /**
   * The lookup takes a call's arguments where the call has them (runtime mode: `t('Hi', v)` ->
   * `__tms_l("<id>", 'Hi', v)`), so only the callee is replaced and the rest keeps its mapping. Else
   * the call is written around its values.
   */
  inPlace: boolean
}

/** How one call site is looked up: its catalog id, and for tagged templates the text in `{name}` form. */
export interface SiteLookup {
  id: string
  text: string
  /**
   * An ICU message: the JS literal of the source text's compiled form, the fallback a lookup gets in
   * place of the text. Inline mode wraps the site in the runtime's formatting instead.
   */
  form?: string
  /** Plural keywords: the plural text's id. */
  pluralId?: string
}

/** The local name of the runtime's lookup in transformed modules; a name no app declares. */
export const LOOKUP_LOCAL: string = LOOKUP_CALLEE

/** The runtime's maker of a lazy message descriptor (`_m`), as transformed modules name it. */
export const DESCRIPTOR_LOCAL = '__tms_m'

/** The runtime's formatting of a compiled message in inline mode, as transformed modules name it. */
export const FORMAT_LOCAL: string = FORMAT_CALLEE

/** The inline runtime's locale marker (inline/markers.ts LOCALE_MARKER), replaced in each copy. */
const INLINE_LOCALE = '__tms_locale()'

/** What a site's lookup depends on besides its message. */
export interface LookupMode {
  /**
   * Inline mode and an ICU message: the runtime's formatting wraps a lookup of the text, whose place
   * each locale's copy fills with its compiled form.
   */
  wrap: boolean
  /** `sourceCatalog`: the lookup holds only the id. */
  idOnly: boolean
}

/** The lookup of message `id` (source `text`, `form` its compiled literal when ICU) at one site. */
export function siteLookup(id: string, text: string, form: string | undefined, mode: LookupMode): Lookup {
  if (mode.idOnly) {
    const open = `${LOOKUP_LOCAL}(${jsString(id)}`
    return { head: open, bare: ')', values: ',0,', tail: ')', open, text: '', close: '', inPlace: false }
  }
  if (mode.wrap) {
    const open = `${FORMAT_LOCAL}(${LOOKUP_LOCAL}(${jsString(id)}, `
    const tail = `, ${INLINE_LOCALE})`
    const head = `${open}${jsString(text)})`
    return {
      head,
      bare: `, void 0${tail}`,
      values: ', ',
      tail,
      open,
      text: undefined,
      close: ')',
      inPlace: false,
    }
  }
  return new RuntimeLookup(`${LOOKUP_LOCAL}(${jsString(id)}, `, form, text)
}

/**
 * A Vue template site's lookup in inline mode. A template names only what its component binds (Vue
 * reads any other name off the component), never a free global, so the site's lookup is written into
 * `<script setup>` as a function of the values (of none, for a message without placeholders), where it
 * is the free global call the copies replace:
 *
 *   const __tms_v0 = (values) => __tms_l("<id>", "Hi {name}", values)
 *
 * and the template calls that function: `{{ __tms_v0({ name }) }}`, `<T :msg="(values) => __tms_v0(values)">`.
 */
export function setupBoundLookup(
  name: string,
  lookup: Lookup,
  takesValues: boolean,
): { template: Lookup; definition: string } {
  const call = `${name}(`
  const body = takesValues
    ? `(values) => ${lookup.head}${lookup.values}values${lookup.tail}`
    : `() => ${lookup.head}${lookup.bare}`
  return {
    // `text: ''`: an argument the lookup replaces (a keyword's text) becomes `head + bare` whole.
    template: {
      head: call,
      bare: ')',
      values: '',
      tail: ')',
      open: call,
      text: '',
      close: '',
      inPlace: false,
    },
    definition: `const ${name} = ${body};`,
  }
}

/**
 * Runtime mode's lookup, which most sites (calls, whose text literal stays) take without its head:
 * the source text is quoted only when a site without a literal asks for the head.
 */
class RuntimeLookup implements Lookup {
  readonly bare = ')'
  readonly values = ', '
  readonly tail = ')'
  readonly close = ''
  readonly inPlace = true
  constructor(
    readonly open: string,
    readonly text: string | undefined,
    private readonly source: string,
  ) {}

  get head(): string {
    return this.open + (this.text ?? jsString(this.source))
  }
}
