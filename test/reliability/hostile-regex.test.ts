import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  APP_PLACEHOLDER_SOURCE,
  PLACEHOLDER_CACHE_LIMIT,
  placeholderCacheSize,
  placeholderRegex,
} from '../../src/core/model/placeholders'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { CUSTOM_REGEX_TIME_LIMIT_MS } from '../../src/emulator/placeholder-sandbox'
import { PROJECT, SECRET, startCli, USER } from './helpers'

/**
 * A caller's `placeholderFormatCustom` is a regex the emulator runs over the caller's texts. A
 * catastrophic one ((a+)+$ over "aaa...b") once held the emulator's only thread for seconds (28
 * characters) or for good (9,990), deaf to other clients and to SIGTERM; every distinct regex also
 * stayed compiled forever. Now such regexes run in a worker stopped at a time limit.
 */

const CATASTROPHIC = '(a+)+$'
// 9,990 characters: the same, behind 2,496 empty groups.
const HUGE = `${'(?:)'.repeat(2496)}(a+)+$`
const VICTIM = `${'a'.repeat(40)}!`

async function json(url: string, method: string, body?: unknown, token?: string) {
  const r = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {
    status: r.status,
    body: (await r.json()) as {
      // biome-ignore lint/suspicious/noExplicitAny: answers of several routes, read field by field
      response: { code: string; data: any; errors?: { message: string; details?: { field: string } }[] }
    },
  }
}

async function tokenOf(url: string): Promise<string> {
  const r = await json(`${url}/auth-api/v2/authenticate`, 'POST', {
    userIdentifier: USER,
    userSecret: SECRET,
  })
  return r.body.response.data.accessToken
}

describe('a hostile placeholderFormatCustom', () => {
  let emu: RunningEmulator
  let token: string
  const strings = () => `${emu.url}/strings-api/v2/projects/${PROJECT}`
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 })
    token = await tokenOf(emu.url)
  })
  afterAll(() => emu.close())

  it.each([
    ['28 characters', CATASTROPHIC],
    ['9,990 characters', HUGE],
  ])('of %s is stopped with a 400 naming it, while other clients are answered', async (_name, pattern) => {
    // Five variants queue one after the other in the worker, so the hostile work lasts about five
    // time limits: ample time for another client, however loaded the machine.
    let hostileDone = 0
    const hostile = Array.from({ length: 5 }, (_, v) =>
      json(
        strings(),
        'POST',
        { placeholderFormatCustom: `${'(?:)'.repeat(v)}${pattern}`, strings: [{ stringText: VICTIM }] },
        token,
      ).finally(() => {
        hostileDone++
      }),
    )
    const other = await json(
      strings(),
      'POST',
      { placeholderFormat: 'c', strings: [{ stringText: 'Other client: %s' }] },
      token,
    )
    const hostileDoneThen = hostileDone
    expect(other.status).toBe(200)
    expect(other.body.response.data.items[0].parsedStringText).toBe('Other client: {0}')
    expect(hostileDoneThen).toBeLessThan(5)

    const [refused, ...others] = await Promise.all(hostile)
    expect(others.map((r) => r.status)).toEqual([400, 400, 400, 400])
    expect(refused!.status).toBe(400)
    expect(refused!.body.response.code).toBe('VALIDATION_ERROR')
    expect(refused!.body.response.errors![0]!.details!.field).toBe('placeholderFormatCustom')
    expect(HUGE).toHaveLength(9990)
    expect(refused!.body.response.errors![0]!.message).toBe(
      `placeholderFormatCustom: placeholderFormatCustom ran longer than ${CUSTOM_REGEX_TIME_LIMIT_MS} ms and was stopped: a pattern ` +
        'with nested or overlapping repetition, such as (a+)+ or (a|a)*, backtracks without end on some ' +
        'texts; write one that matches each placeholder in a single way',
    )
    // The same regex again is refused at once, whatever the texts.
    const again = await json(
      strings(),
      'POST',
      { placeholderFormatCustom: pattern, strings: [{ stringText: 'aaa' }] },
      token,
    )
    expect(again.status).toBe(400)
    expect(again.body.response.errors![0]!.details!.field).toBe('placeholderFormatCustom')
  })

  it('and in an uploaded file directive is stopped the same way', async () => {
    const form = new FormData()
    form.append('fileUri', 'hostile.json')
    form.append('fileType', 'json')
    form.append('svc.placeholder_format_custom', '(b+)+$')
    form.append('file', new Blob([JSON.stringify({ k: `${'b'.repeat(40)}!` })]), 'hostile.json')
    const r = await fetch(`${emu.url}/files-api/v2/projects/${PROJECT}/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    const body = (await r.json()) as {
      response: { errors: { message: string; details: { field: string } }[] }
    }
    expect(r.status).toBe(400)
    expect(body.response.errors[0]!.details.field).toBe('svc.placeholder_format_custom')
    expect(body.response.errors[0]!.message).toMatch(
      /^svc.placeholder_format_custom: the value ran longer than \d+ ms and was stopped/,
    )
  })

  it('a sane custom regex still finds its placeholders, and matching the empty string is refused', async () => {
    const r = await json(
      strings(),
      'POST',
      { placeholderFormatCustom: String.raw`\$\w+`, strings: [{ stringText: 'Hi $name, $count left' }] },
      token,
    )
    expect(r.body.response.data.items[0].parsedStringText).toBe('Hi {0}, {1} left')
    const empty = await json(
      strings(),
      'POST',
      { placeholderFormatCustom: 'x*', strings: [{ stringText: 'Hi' }] },
      token,
    )
    expect(empty.status).toBe(400)
    expect(empty.body.response.errors![0]!.message).toBe(
      'placeholderFormatCustom: placeholderFormatCustom must not match the empty string',
    )
  })

  it('300 distinct regexes leave the compiled-regex cache at its bound', async () => {
    for (let i = 0; i < 300; i++) {
      const r = await json(
        strings(),
        'POST',
        { placeholderFormatCustom: `\\{p${i}\\}`, strings: [{ stringText: `Text {p${i}}` }] },
        token,
      )
      expect(r.body.response.data.items[0].parsedStringText).toBe('Text {0}')
    }
    expect(placeholderCacheSize()).toBeLessThanOrEqual(PLACEHOLDER_CACHE_LIMIT)
  })
})

describe('the compiled-regex cache', () => {
  it('keeps the most recently used regexes, at most PLACEHOLDER_CACHE_LIMIT', () => {
    const app = placeholderRegex({ custom: APP_PLACEHOLDER_SOURCE })
    for (let i = 0; i < PLACEHOLDER_CACHE_LIMIT * 3; i++) {
      placeholderRegex({ custom: `\\{q${i}\\}` })
      // The app's spec in use all along stays compiled: the same object every time.
      expect(placeholderRegex({ custom: APP_PLACEHOLDER_SOURCE })).toBe(app)
    }
    expect(placeholderCacheSize()).toBe(PLACEHOLDER_CACHE_LIMIT)
  })
})

describe('SIGTERM', () => {
  it('while a hostile regex runs and strings are being saved: the emulator exits 0, no temp file is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tms-sigterm-'))
    const dataFile = join(dir, 'state.json')
    const emulator = startCli(process.cwd(), ['emulator', '--port', '0', '--quiet', '--data', dataFile])
    const url = await new Promise<string>((resolve, reject) => {
      let seen = ''
      emulator.child.stdout!.on('data', (d: Buffer) => {
        seen += d.toString()
        const m = /emulator listening on (http:\/\/\S+)/.exec(seen)
        if (m) resolve(m[1]!)
      })
      emulator.child.on('exit', () => reject(new Error(`emulator exited: ${seen}`)))
    })
    const token = await tokenOf(url)
    const base = `${url}/strings-api/v2/projects/${PROJECT}`
    const hostile = json(
      base,
      'POST',
      { placeholderFormatCustom: HUGE, strings: [{ stringText: VICTIM }] },
      token,
    ).catch(() => null)
    // Writers keep the data file busy: each create changes the state, each change schedules a write.
    let stop = false
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const strings = Array.from({ length: 100 }, (_, k) => ({ stringText: `Busy ${w} ${i} ${k}` }))
        await json(base, 'POST', { placeholderFormat: 'none', strings }, token).catch(() => {
          stop = true
        })
      }
    })
    // Signalled once the data file has been written at least once, with the writers still going.
    while (!readdirSync(dir).includes('state.json')) await new Promise((r) => setTimeout(r, 10))
    emulator.child.kill('SIGTERM')
    const run = await emulator.done
    stop = true
    await Promise.all([hostile, ...writers])

    expect(run.signal).toBeNull()
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    expect(readdirSync(dir)).toEqual(['state.json'])
    const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { version: number }
    expect(saved.version).toBe(1)
  })
})
