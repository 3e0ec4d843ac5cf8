import { _r, _u, getLocale, onLocaleChange, setLocale } from 'unplugin-tms/runtime'
import { expect, test } from 'vitest'
import { computed, createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { compileText } from '../../src/runtime/parse'
import { _l, T, useLocale } from '../../src/vue/index'

/**
 * unplugin-tms/vue over the runtime it imports (the same `unplugin-tms/runtime` module as this test):
 * the lookup .vue files import and useLocale follow a switch and a hot update, which leaves the
 * locale string as it was; `<T>` renders its tags with the slots of their names.
 */

const FRENCH = { greet: 'Bonjour', rich: ['Lisez les ', ['link', 6, 'conditions'], '.'] }

_r('en', { fr: async () => ({ default: FRENCH as never }) })

test('a computed that looked a message up runs again after a switch and after a hot update', async () => {
  const greeting = computed(() => _l('greet', 'Hello'))
  const locale = useLocale()
  const seen = computed(() => locale.value)
  expect([greeting.value, seen.value]).toEqual(['Hello', 'en'])
  await setLocale('fr')
  expect([greeting.value, seen.value]).toEqual(['Bonjour', 'fr'])
  // A dev hot update: same locale, new catalog.
  _u('fr', { ...FRENCH, greet: 'Salut' } as never)
  expect([greeting.value, seen.value]).toEqual(['Salut', 'fr'])
  // Assigning the ref switches, once the catalog has loaded.
  const switched = new Promise<void>((resolve) => {
    const off = onLocaleChange(() => {
      off()
      resolve()
    })
  })
  locale.value = 'en'
  await switched
  expect(getLocale()).toBe('en')
  expect([greeting.value, seen.value]).toEqual(['Hello', 'en'])
})

const render = (vnode: () => ReturnType<typeof h>) => renderToString(createSSRApp({ render: vnode }))

/** `msg` as the build binds a static `<T msg="...">`: the lookup of its id, the compiled source as fallback. */
const bound = (text: string) => (values: Record<string, unknown>) =>
  _l('not-in-catalog', compileText(text), values)

test('<T> renders each tag with its slot; chunks are a string for plain text, else the pieces', async () => {
  const link = { link: ({ chunks }: { chunks: unknown }) => [h('a', { href: '/terms' }, chunks as string)] }
  expect(
    await render(() => h(T, { msg: bound('Read the <link>terms</link>.'), tag: 'p', id: 'x' }, link)),
  ).toBe('<p id="x">Read the <a href="/terms">terms</a>.</p>')
  const seen: unknown[] = []
  const nested = {
    b: ({ chunks }: { chunks: unknown }) => {
      seen.push(chunks)
      return [
        h(
          'b',
          null,
          h(() => chunks as never),
        ),
      ]
    },
    i: ({ chunks }: { chunks: unknown }) => [h('i', null, chunks as string)],
  }
  expect(await render(() => h(T, { msg: bound('A <b>bold <i>word</i></b>'), tag: 'span' }, nested))).toBe(
    '<span>A <b><!--[-->bold <i>word</i><!--]--></b></span>',
  )
  expect(typeof seen[0]).toBe('object')
  // Values and plurals; a tag without a slot shows its content.
  expect(
    await render(() =>
      h(T, { msg: bound('{n, plural, one {# <em>file</em>} other {# <em>files</em>}}'), values: { n: 2 } }),
    ),
  ).toBe('2 files')
})

test('<T> with a dynamic msg (no id, no ICU parser shipped): its `{name}` values filled in', async () => {
  expect(await render(() => h(T, { msg: 'Hello {name}', values: { name: 'Ada' }, tag: 'b' }))).toBe(
    '<b>Hello Ada</b>',
  )
})

test('<T> with the bound message the plugin writes: the lookup by id, in the current locale', async () => {
  await setLocale('fr')
  const bound = (values: Record<string, unknown>) =>
    _l('rich', ['Read the ', ['link', 6, 'terms'], '.'], values)
  const link = { link: ({ chunks }: { chunks: unknown }) => [h('a', null, chunks as string)] }
  expect(await render(() => h(T, { msg: bound, tag: 'p' }, link))).toBe('<p>Lisez les <a>conditions</a>.</p>')
  await setLocale('en')
})
