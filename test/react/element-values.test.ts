import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { msg } from 'unplugin-tms/runtime'
import { expect, test, vi } from 'vitest'
import { T } from '../../src/react/index'

/**
 * `<T msg values>` with React elements among the values (react-intl's `values={{ name: <strong>...`,
 * kept as written by `tms migrate`): each element renders where its placeholder is, in the text and
 * inside a tag, with keys (React's development build warns about none), never as "[object Object]".
 */

test('an element value renders as the element, in the text and inside a tag', () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    const strong = createElement('strong', null, 'Ada')
    const page = renderToStaticMarkup(
      createElement('p', null, [
        createElement(T, {
          key: 1,
          msg: msg('Hello {name}, you have {n, plural, one {# message} other {# messages}}, {name}.'),
          values: { name: strong, n: 2 },
        }),
        createElement(T, {
          key: 2,
          msg: msg('<b>Hi {name}</b> ({count})'),
          values: {
            b: (chunks: unknown) => createElement('b', { key: 'b' }, chunks as never),
            name: strong,
            count: 3,
          },
        }),
      ]),
    )
    expect(page).toBe(
      '<p>Hello <strong>Ada</strong>, you have 2 messages, <strong>Ada</strong>.<b>Hi <strong>Ada</strong></b> (3)</p>',
    )
    expect(error).not.toHaveBeenCalled()
  } finally {
    error.mockRestore()
  }
})
