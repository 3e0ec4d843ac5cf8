import { connection } from 'next/server'
import { Suspense, use } from 'react'
import { enterLocale, t } from 'unplugin-tms/runtime'
import { Cart } from '../client'

const ORDER_DATE = new Date(Date.UTC(2026, 0, 15, 12))

/** Rendered per request (no static copy): requests in different locales render at once. */
export default function Account({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = use(params)
  use(enterLocale(locale))
  return (
    <main>
      <h1 id="welcome">{t('Welcome to the Next.js store')}</h1>
      <p id="greeting">{t('Hello {name}!', { name: 'Ada' })}</p>
      <Suspense fallback={<p>…</p>}>
        <Orders />
      </Suspense>
      <Cart />
    </main>
  )
}

/** Streamed after the rest: its text renders after awaits, still in the request's locale. */
async function Orders() {
  await connection()
  // A pause of its own length per request, so that the renders of concurrent requests interleave.
  await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 20)))
  return <p id="ordered">{t('Order placed on {date, date, long}', { date: ORDER_DATE })}</p>
}
