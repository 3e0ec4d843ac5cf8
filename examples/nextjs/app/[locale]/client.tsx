'use client'

import { useRouter } from 'next/navigation'
import { type ReactNode, use, useState } from 'react'
import { useLocale } from 'unplugin-tms/react'
import { enterLocale, rememberLocale, setLocale, setTimeZone, t } from 'unplugin-tms/runtime'
import { dirOf, LOCALES, TIME_ZONE } from '../locales'

/**
 * The locale of the client components below: on the server, the request's (while Next renders them to
 * HTML); in the browser, the page's, its catalog loaded before they hydrate, so the first render in
 * the browser is the server's text.
 */
export function ClientLocale({ locale, children }: { locale: string; children: ReactNode }) {
  use(enterLocale(locale))
  return children
}

// Before any client component renders: the server's default for its render, the page's for hydration.
setTimeZone(TIME_ZONE)

/** Late in the evening in UTC: already the next day in Tokyo, so a zone left to the browser shows. */
const ORDERED_AT = new Date(Date.UTC(2026, 2, 1, 22, 30))

// The `lang` cookie follows each switch: the proxy sends the next visit of `/` to the locale chosen.
if (typeof window !== 'undefined') rememberLocale({ from: ['cookie'] })

export function Cart() {
  const locale = useLocale()
  const router = useRouter()
  const [count, setCount] = useState(3)
  async function switchTo(next: string): Promise<void> {
    await setLocale(next)
    document.documentElement.lang = next
    document.documentElement.dir = dirOf(next)
    router.push(`/${next}`)
  }
  return (
    <section id="cart">
      <label>
        {t('Language')}{' '}
        <select id="locale" value={locale} onChange={(event) => void switchTo(event.target.value)}>
          {LOCALES.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <h2>{t('Your cart')}</h2>
      <p id="placed">{t('Ordered on {when, date, long} at {when, time, short}', { when: ORDERED_AT })}</p>
      <p id="items">{t('You have {count} items in your cart', { count })}</p>
      <button id="add" type="button" onClick={() => setCount((c) => c + 1)}>
        {t('Add an item')}
      </button>
    </section>
  )
}
