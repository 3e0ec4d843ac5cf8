import { useEffect, useState } from 'react'
import { getLocale, onLocaleChange, setLocale, t } from 'unplugin-tms/runtime'
import { Cart } from './Cart'
import { LocaleSwitcher } from './LocaleSwitcher'

export function App() {
  const [locale, setCurrent] = useState(getLocale())
  useEffect(() => onLocaleChange(setCurrent), [])
  const name = 'Ada'
  return (
    <main lang={locale} dir={locale === 'ar-XB' ? 'rtl' : 'ltr'}>
      <LocaleSwitcher locale={locale} onChange={(next) => void setLocale(next)} />
      <h1>{t('Welcome to the demo store')}</h1>
      <p id="greeting">{t('Hello {name}!', { name })}</p>
      <p id="signed-in">{t`Signed in as ${name}`}</p>
      <Cart items={3} />
    </main>
  )
}
