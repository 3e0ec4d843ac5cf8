import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { _l, _m, _r, setLocale } from 'unplugin-tms/runtime'
import { expect, test } from 'vitest'
import { T } from '../../src/react/index'

/**
 * A descriptor (`msg(...)`, in the form the build writes it) defined outside any component and rendered
 * by React: `<T msg={label} values={...} />` and a plain call in a component give the current locale's
 * text, before and after a switch.
 */

// The catalog as the build compiles it: `Bonjour <b>{name}</b> !`.
const FRENCH = { greet: ['Bonjour ', ['b', 6, [['name']]], ' !'], red: 'Rouge' }
_r('en', { fr: async () => ({ default: FRENCH as never }) })
const greet = _m((values) => _l('greet', ['Hello ', ['b', 6, [['name']]], '!'], values))
const red = _m((values) => _l('red', 'Red', values))

function Swatch() {
  return createElement('span', null, red())
}

test('<T msg={label} /> and a call in a component render the current locale, tags as elements', async () => {
  const page = () =>
    renderToStaticMarkup(
      createElement('p', null, [
        createElement(T, {
          key: 'greet',
          msg: greet,
          values: {
            name: 'Ada',
            b: (chunks: unknown[]) => createElement('b', { key: 'b' }, ...(chunks as string[])),
          },
        }),
        createElement(Swatch, { key: 'swatch' }),
      ]),
    )
  expect(page()).toBe('<p>Hello <b>Ada</b>!<span>Red</span></p>')
  await setLocale('fr')
  expect(page()).toBe('<p>Bonjour <b>Ada</b> !<span>Rouge</span></p>')
})
