import { gzipSync } from 'node:zlib'
import { expect, test } from 'vitest'
import { minifiedBundle } from '../helpers/bundle'

const repo = new URL('../../', import.meta.url).pathname

/** The benchmark's "same job" (bench/sections/runtime-size.ts): the call a built bundle makes. */
test('the runtime with the ICU interpreter stays within 1 KB min+gzip, without the reader of untransformed t', async () => {
  const bytes = await minifiedBundle(`import { _l, setLocale } from '${repo}dist/runtime.mjs'
        setLocale('fr-FR')
        console.log(_l('k2Xq81', ["You have ",["count",4,0,{"0":"no files","one":[0," file"],"other":[0," files"]}]], { count: 2 }))`)
  const code = new TextDecoder().decode(bytes)
  expect(gzipSync(bytes, { level: 9 }).length).toBeLessThanOrEqual(1024)
  expect(code).toContain('PluralRules')
  expect(code).toContain('DateTimeFormat')
  expect(code).not.toContain('untransformed')
  expect(code).not.toContain('selectordinal')
})
