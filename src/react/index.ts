/**
 * The React binding of unplugin-tms (`unplugin-tms/react`): a hook that re-renders on every locale
 * switch and catalog hot update, a hook that switches inside a transition, and `<T>`, whose children
 * are one message. It imports only React and the runtime, as the bare specifier the plugin resolves
 * to the build's one runtime module, so the app's lookups and this binding share one locale.
 */
import { createElement, Fragment, type ReactNode, useSyncExternalStore, useTransition } from 'react'
import {
  type Formatted,
  getLocale,
  type Locale,
  type MessageDescriptor,
  onLocaleChange,
  setLocale,
  type Values,
} from 'unplugin-tms/runtime'
import { withElementValues } from './element-values'

/**
 * Bumped on every change the runtime announces: a switch, and a dev catalog hot update, where the
 * locale string stays the same and a snapshot of it alone would not re-render anything. Registered
 * first, so it has counted before any component's listener runs.
 */
let version = 0
onLocaleChange(() => {
  version++
})

const subscribe = (changed: () => void): (() => void) => onLocaleChange(changed)
const snapshot = (): number => version

/**
 * The current locale; the component re-renders after each `setLocale` and each catalog hot update in
 * the dev server. No provider is needed: the runtime is the store.
 */
export function useLocale(): Locale {
  useSyncExternalStore(subscribe, snapshot, snapshot)
  return getLocale()
}

/**
 * `[switchLocale, isPending]`: `switchLocale(locale)` runs `setLocale` as a transition (React 19), so
 * `isPending` is true while the locale's catalog chunk loads; the page keeps the current locale until
 * the catalog is there, then every message changes at once.
 */
export function useSwitchLocale(): [switchLocale: (locale: Locale) => void, isPending: boolean] {
  const [isPending, startTransition] = useTransition()
  const switchLocale = (locale: Locale): void => {
    startTransition(() => setLocale(locale))
  }
  return [switchLocale, isPending]
}

/** Props of {@link T}. */
export interface TProps {
  /** The message: text, `{name}` expressions and elements, which become the message's tags. */
  children?: ReactNode
  /** Read at build time: tells two equal texts apart (a literal). */
  variant?: string
  /** Read at build time: a note for the translator (a literal). */
  instruction?: string
  /** Read at build time: the longest translation the UI has room for (a literal). */
  maxLength?: number
  /**
   * A message defined outside the render with `msg(...)`: `<T msg={label} />` renders it in the current
   * locale, with `values` (tag functions among them may return elements).
   */
  // biome-ignore lint/suspicious/noExplicitAny: any descriptor, whatever values its text asks for.
  msg?: MessageDescriptor<any>
  /** The values of `msg`'s placeholders (React elements among them) and tags. */
  values?: Values
  /** @internal The plugin's lookup of the message, with the original elements as tag functions. */
  _?: () => Formatted
}

/**
 * A message written as JSX: `<T>Hello <b>{name}</b>, see <a href="/docs">the docs</a></T>` is one
 * message, `Hello <b>{name}</b>, see <a>the docs</a>`, for the translator. The plugin rewrites it into
 * a lookup that renders the translation with the original elements; untransformed (an app's own unit
 * tests), it renders its children. `<T msg={label} values={...} />` renders a descriptor. It re-renders
 * on a locale switch by itself.
 */
export function T(props: TProps): ReactNode {
  useLocale()
  const out = props._
    ? props._()
    : props.msg
      ? withElementValues(props.values, props.msg as (values?: Values) => Formatted)
      : props.children
  return createElement(Fragment, null, out as ReactNode)
}
