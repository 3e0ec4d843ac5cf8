import { lazy, Suspense, useSyncExternalStore } from 'react'
import { T, useLocale } from 'unplugin-tms/react'
import { t } from 'unplugin-tms/runtime'
import { Cart } from './Cart'
import { LocaleSwitcher } from './LocaleSwitcher'

// A route of its own chunk: its messages are in the same lazy catalog as the rest of the app's.
const Help = lazy(() => import('./Help'))

const onHashChange = (changed: () => void) => {
  window.addEventListener('hashchange', changed)
  return () => window.removeEventListener('hashchange', changed)
}

export function App() {
  // Re-renders this component on a switch; <T> and the other components need nothing of the kind.
  const locale = useLocale()
  const route = useSyncExternalStore(onHashChange, () => window.location.hash)
  const name = 'Ada'
  return (
    <main lang={locale} dir={locale === 'ar-XB' ? 'rtl' : 'ltr'}>
      <LocaleSwitcher />
      <h1>{t('Welcome to the demo store')}</h1>
      <p id="greeting">{t('Hello {name}!', { name })}</p>
      <p id="signed-in">{t`Signed in as ${name}`}</p>
      {route === '#/help' ? (
        <Suspense fallback={<p id="loading">{t('Loading…')}</p>}>
          <Help />
        </Suspense>
      ) : (
        <>
          <p id="help-link">
            <T>
              Read our <a href="#/help">help pages</a> before you check out.
            </T>
          </p>
          <Cart items={1} />
          <p id="contact">
            {t('Questions? <mail>Write to us</mail>.', {
              mail: (chunks) => (
                <a key="mail" href="mailto:shop@example.com">
                  {chunks}
                </a>
              ),
            })}
          </p>
        </>
      )}
    </main>
  )
}
