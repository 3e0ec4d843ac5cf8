import { _l, _m, _r, setLocale } from 'unplugin-tms/runtime'
import { expect, test } from 'vitest'
import { computed, createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { T } from '../../src/vue/index'

/**
 * A descriptor (`msg(...)`, here in the form the build writes it) defined in a plain module and rendered
 * by Vue: a computed or a render that calls it runs again after a switch (the binding's counter is read
 * by every call), and `<T :msg="label">` renders it in the current locale.
 */

_r('en', { fr: async () => ({ default: { red: 'Rouge', greet: 'Bonjour {name} !' } as never }) })
const red = _m((values) => _l('red', 'Red', values))
const greet = _m((values) => _l('greet', 'Hello {name}!', values))

test('a computed that calls a descriptor runs again after setLocale', async () => {
  const label = computed(() => `${red()} / ${greet({ name: 'Ada' })}`)
  expect(label.value).toBe('Red / Hello Ada!')
  await setLocale('fr')
  expect(label.value).toBe('Rouge / Bonjour Ada !')
  await setLocale('en')
  expect(label.value).toBe('Red / Hello Ada!')
})

test('<T :msg="label" :values> renders the descriptor in the current locale', async () => {
  const render = () =>
    renderToString(createSSRApp({ render: () => h(T, { msg: greet, values: { name: 'Ada' }, tag: 'p' }) }))
  expect(await render()).toBe('<p>Hello Ada!</p>')
  await setLocale('fr')
  expect(await render()).toBe('<p>Bonjour Ada !</p>')
  await setLocale('en')
})
