import { Suspense, use, useSyncExternalStore } from 'react'
import { getLocale, onLocaleChange, setLocale, t } from 'unplugin-tms/runtime'
import { dirOf, LOCALES, type Page } from './locales'

/** The current locale as React state: the request's on the server, the page's in the browser. */
function useLocale(): string {
  return useSyncExternalStore(onLocaleChange, getLocale, getLocale)
}

async function switchLocale(locale: string, page: Page): Promise<void> {
  await setLocale(locale)
  document.documentElement.lang = locale
  document.documentElement.dir = dirOf(locale)
  document.title = t('Welcome to the demo store')
  history.replaceState(null, '', `/${locale}/${page}`)
}

export function App({ page, cart }: { page: Page; cart: Promise<number> }) {
  const locale = useLocale()
  const name = 'Ada'
  return (
    <main>
      <label>
        {t('Language')}{' '}
        <select id="locale" value={locale} onChange={(event) => void switchLocale(event.target.value, page)}>
          {LOCALES.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <h1 id="welcome">{t('Welcome to the demo store')}</h1>
      <p id="greeting">{t('Hello {name}!', { name })}</p>
      <p id="signed-in">{t`Signed in as ${name}`}</p>
      {page === 'cart' ? (
        // The cart's count arrives later: the text below it renders after an await on the server.
        <Suspense fallback={<p>…</p>}>
          <Cart count={cart} />
        </Suspense>
      ) : (
        <a id="to-cart" href={`/${locale}/cart`}>
          {t('Your cart')}
        </a>
      )}
    </main>
  )
}

function Cart({ count }: { count: Promise<number> }) {
  const items = use(count)
  return (
    <section id="cart">
      <h2>{t('Your cart')}</h2>
      <p id="items">{t('You have {count} items in your cart', { count: items })}</p>
      <button type="button">{t('Checkout')}</button>
    </section>
  )
}
