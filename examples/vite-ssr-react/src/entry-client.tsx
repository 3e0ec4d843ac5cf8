import { hydrateRoot } from 'react-dom/client'
import { rememberLocale, setLocale } from 'unplugin-tms/runtime'
import { App } from './App'
import { route } from './locales'

// The one line: start in the locale the server rendered, its catalog loaded before React hydrates.
await setLocale(document.documentElement.lang)
// Each switch from here on is written to the `lang` cookie: the server's `/` starts the next visit there.
rememberLocale({ from: ['cookie'] })

const page = route(location.pathname)?.page ?? ''
// The server rendered the cart after its count arrived; the browser asks for it again.
const cart = Promise.resolve(3)
hydrateRoot(document.getElementById('root')!, <App page={page} cart={cart} />)
