import { getLocale, onLocaleChange, setLocale, t } from 'unplugin-tms/runtime'
import { cartLine } from './cart.js'

const name = 'Ada'

function render() {
  document.querySelector('#app').innerHTML = ''
  const lines = [
    t('Welcome to the demo store'),
    t('Hello {name}!', { name }),
    t`Signed in as ${name}`,
    cartLine(3),
  ]
  for (const text of lines) {
    const p = document.createElement('p')
    p.textContent = text
    document.querySelector('#app').append(p)
  }
  document.querySelector('#locale').value = getLocale()
}

document.querySelector('#locale').addEventListener('change', (event) => setLocale(event.target.value))
onLocaleChange(render)
// The first render once the first locale is loaded: a production build ships even the source
// locale's texts as a catalog.
setLocale(getLocale())
