import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { negotiateLocale, rememberLocale, setLocale } from 'unplugin-tms/runtime'
import { App } from './App'

// The reader's locale (`?lang=fr-FR`, else the last one chosen) is loaded before the first render, so
// the page never shows the source text first; each switch is remembered for the next visit.
await setLocale(negotiateLocale({ from: ['query', 'storage'] }))
rememberLocale({ from: ['storage'] })

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
