/**
 * unplugin-tms/vue: Vue 3 over the runtime. Its only imports are vue and unplugin-tms/runtime (which
 * the plugin resolves to the app's one runtime module), so the app, its lookups and this binding share
 * one locale and one catalog.
 *
 * One shallowRef counter, bumped by the runtime's `onLocaleChange` (after every `setLocale` and every
 * dev catalog hot update, where the locale string stays the same), is read by every lookup of a .vue
 * file: a render or a computed that looked a message up depends on it and runs again.
 */
import {
  type CompiledMessage,
  type Formatted,
  getLocale,
  type Locale,
  _l as lookup,
  type MessageDescriptor,
  onLocaleChange,
  setLocale,
  _t as track,
  type Values,
} from 'unplugin-tms/runtime'
import {
  customRef,
  type DefineSetupFnComponent,
  defineComponent,
  type EmitsOptions,
  h,
  type Ref,
  type SlotsType,
  shallowRef,
  type VNode,
  type VNodeChild,
} from 'vue'

export { getLocales, negotiateLocale, rememberLocale, setLocale, t } from 'unplugin-tms/runtime'

const version = shallowRef(0)
onLocaleChange(() => {
  version.value++
})
// A descriptor (`msg(...)`, defined in any module) called in a render or a computed reads the counter
// too: `{{ label() }}` and `<T :msg="label">` run again after a switch.
track(() => {
  void version.value
})

/**
 * @internal The lookup the plugin writes into .vue files (templates and scripts): the runtime's, read
 * by whatever render or computed calls it, so that it runs again after a switch or a hot update.
 */
export function _l(id: string, text?: CompiledMessage | 0, values?: Values): Formatted {
  void version.value
  return lookup(id, text, values)
}

const locale: Ref<Locale> = customRef<Locale>(() => ({
  get() {
    void version.value
    return getLocale()
  },
  set(next) {
    // The value changes once the locale's catalog has loaded, with every text of the page.
    void setLocale(next)
  },
}))

/**
 * The current locale as a ref: read it in a template or a computed to follow switches (and dev hot
 * updates); assign it to switch (`locale.value = 'fr-FR'` is `setLocale('fr-FR')`: the value changes
 * once the catalog has loaded). No provider or plugin to install; one ref for the whole app.
 */
export function useLocale(): Ref<Locale> {
  return locale
}

/** What a tag's slot receives: its content, a string when it is plain text, else the pieces to render. */
export interface TagSlotProps {
  chunks: string | VNodeChild[]
}

/** A message function the plugin binds `msg` to: the message's lookup, given the values. */
export type BoundMessage = (values: Record<string, unknown>) => Formatted

/** The props of `<T>`. */
export interface MessageProps {
  /**
   * The message, ICU with tags: `Read the <link>terms</link>`. A static attribute is extracted; a
   * descriptor made with `msg(...)` (`:msg="label"`) renders in the current locale.
   */
  // biome-ignore lint/suspicious/noExplicitAny: any descriptor, whatever values its text asks for.
  msg: string | BoundMessage | MessageDescriptor<any>
  /** Values of its `{name}` placeholders (and tag functions, besides the slots). */
  values?: Record<string, unknown>
  /** Render the message inside this element (`p`, `span`...): attributes fall through to it. */
  tag?: string
  /** Build-time metadata the extractor reads from static attributes; unused at run time. */
  variant?: string
  instruction?: string
}

/** The slots of `<T>`: one per tag of the message, named after it. */
export type MessageSlots = SlotsType<Record<string, (props: TagSlotProps) => VNode[]>>

function slotChunks(chunks: unknown[]): string | VNodeChild[] {
  return chunks.every((c) => typeof c === 'string') ? chunks.join('') : (chunks as VNodeChild[])
}

/**
 * `<T msg="Read the <link>terms</link>"><template #link="{ chunks }"><a href="/terms">{{ chunks }}</a></template></T>`:
 * one message whose tags are rendered by the slots of the same names.
 */
export const T: DefineSetupFnComponent<MessageProps, EmitsOptions, MessageSlots> = defineComponent(
  (props: MessageProps, { slots }) =>
    () => {
      const values: Record<string, unknown> = { ...props.values }
      for (const name of Object.keys(slots)) {
        const slot = slots[name]
        if (name !== 'default' && slot)
          values[name] = (chunks: unknown[]) => slot({ chunks: slotChunks(chunks) })
      }
      const { msg } = props
      // A static msg is bound to its lookup by the build. A dynamic one has no id: it is formatted as
      // the source text of a missing translation is, `{name}` values only, so that no ICU parser
      // ships with the component.
      const out = typeof msg === 'function' ? (msg as BoundMessage)(values) : lookup('', msg, values)
      return props.tag ? h(props.tag, null, out as never) : (out as VNodeChild)
    },
  {
    // biome-ignore lint/style/useVueMultiWordComponentNames: the one-letter name is the point: <T msg="...">.
    name: 'T',
    props: ['msg', 'values', 'tag', 'variant', 'instruction'],
    slots: Object as MessageSlots,
  },
)
