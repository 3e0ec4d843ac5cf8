/**
 * unplugin-tms/svelte: the Svelte 5 binding. Messages re-render on a locale switch and on a dev
 * catalog hot update through one `createSubscriber` over the runtime's `onLocaleChange`: every
 * message read in a reactive place (markup, `$derived`, `$effect`) subscribes to it.
 *
 * The plugin imports this module's `_l` into .svelte files and rune modules in place of the runtime's
 * lookup, so a `t(...)` in markup needs nothing from the app to follow the locale. The runtime is
 * imported by its public specifier, which the plugin resolves to its one runtime module: the app,
 * the lookups and this binding share one locale and one catalog.
 */
import type { Snippet } from 'svelte'
import { createSubscriber } from 'svelte/reactivity'
import {
  type CompiledMessage,
  type Formatted,
  getLocale,
  getLocales,
  type Locale,
  _l as lookup,
  type MessageArgs,
  type MessageResult,
  onLocaleChange,
  setLocale,
  _t as track,
  t as translate,
  type Values,
} from 'unplugin-tms/runtime'
import T from './T.svelte'

/** Reading it inside a reactive place makes that place run again on every `onLocaleChange`. */
const subscribe: () => void = createSubscriber((update) => onLocaleChange(update))
// A descriptor (`msg(...)`, defined in any module) called in markup, `$derived` or `<T message={label}>`
// subscribes too, so it runs again on a switch.
track(subscribe)

/** @internal The lookup the plugin puts in place of `t(...)` in .svelte files: reactive to the locale. */
export function _l(id: string, text?: CompiledMessage | 0, values?: Values): Formatted {
  subscribe()
  return lookup(id, text, values)
}

/**
 * The runtime's `t`, reactive to the locale: for code the plugin does not transform (a test of a
 * component, a file outside `include`). In a build, calls of either `t` become the reactive lookup.
 */
export function t<const S extends string | TemplateStringsArray, const A extends MessageArgs<S>>(
  text: S,
  ...args: A
): MessageResult<A>
export function t(text: string | TemplateStringsArray, ...args: unknown[]): Formatted {
  subscribe()
  return (translate as (text: string | TemplateStringsArray, ...args: unknown[]) => Formatted)(text, ...args)
}

/** The current locale as a reactive value: read `current` in markup or `$derived`, set it to switch. */
export interface ReactiveLocale {
  /** The active locale; setting it calls `setLocale` (the switch lands once its catalog is loaded). */
  current: Locale
  /** The configured locales: the source locale first. */
  readonly all: Locale[]
}

/** The reactive locale; `<select bind:value={locale.current}>` is a locale switcher. */
export const locale: ReactiveLocale = {
  get current(): Locale {
    subscribe()
    return getLocale()
  },
  set current(next: Locale) {
    void setLocale(next)
  },
  get all(): Locale[] {
    return getLocales()
  },
}

/** The reactive locale, for components that prefer a function (the same object as `locale`). */
export function useLocale(): ReactiveLocale {
  return locale
}

/** What a tag made by {@link tag} puts in the pieces of a rich-text message, for `<T>` to render. */
export interface RichPiece {
  readonly snippet: Snippet<[Snippet]>
  readonly chunks: readonly unknown[]
}

/**
 * A tag function of a rich-text message that renders a snippet; the snippet gets the tag's content as
 * its `children` snippet:
 *
 *   {#snippet link(children)}<a href="/terms">{@render children()}</a>{/snippet}
 *   <T message={t('Read the <link>terms</link>', { link: tag(link) })} />
 */
export function tag(snippet: Snippet<[Snippet]>): (chunks: unknown[]) => RichPiece {
  return (chunks) => ({ snippet, chunks })
}

export type { Locale }
export { getLocale, getLocales, onLocaleChange, setLocale, T }
