import { use } from 'react'
import { enterLocale, t } from 'unplugin-tms/runtime'
import { Cart } from './client'

/** A fixed instant at noon UTC: the same day in every time zone a test runs in. */
const ORDER_DATE = new Date(Date.UTC(2026, 0, 15, 12))

// A page renders apart from its layout (Next streams them as separate parts): it enters its locale too.
export default function Home({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = use(params)
  use(enterLocale(locale))
  return (
    <main>
      <h1 id="welcome">{t('Welcome to the Next.js store')}</h1>
      <p id="greeting">{t('Hello {name}!', { name: 'Ada' })}</p>
      <p id="ordered">{t('Order placed on {date, date, long}', { date: ORDER_DATE })}</p>
      <Cart />
    </main>
  )
}
