import { describe, expect, it, vi } from 'vitest'

/**
 * Time zones of dates and times (src/runtime/icu.ts `zoned`, `setTimeZone`, runWithLocale's `timeZone`):
 * a server and a browser in different zones format the same instant alike once the app sets one.
 * 2026-03-01T22:30:00Z is 1 March in UTC and 2 March, 07:30, in Tokyo.
 */

const INSTANT = Date.UTC(2026, 2, 1, 22, 30)
// `{when, date, medium} {when, time, short}`, compiled as the plugin writes it.
const DATE_TIME = [
  ['when', 2, { month: 'short', day: 'numeric', year: 'numeric' }],
  ' ',
  ['when', 2, { hour: 'numeric', minute: 'numeric' }],
] as never

async function browserRuntime() {
  vi.resetModules()
  return await import('../src/runtime/index')
}
async function serverRuntime() {
  vi.resetModules()
  return await import('../src/runtime/node')
}

describe('setTimeZone (the page, the process)', () => {
  it('formats dates and times in the zone set, and in the environment zone again with undefined', async () => {
    const rt = await browserRuntime()
    rt._r('en-US', {})
    const own = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: 'numeric' }).format(INSTANT)
    expect(rt._l('a', DATE_TIME, { when: INSTANT })).toBe(
      `${new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(INSTANT)} ${own}`,
    )
    rt.setTimeZone('Asia/Tokyo')
    expect(rt.getTimeZone()).toBe('Asia/Tokyo')
    expect(rt._l('a', DATE_TIME, { when: INSTANT })).toBe('Mar 2, 2026 7:30 AM')
    rt.setTimeZone('UTC')
    expect(rt._l('a', DATE_TIME, { when: INSTANT })).toBe('Mar 1, 2026 10:30 PM')
    rt.setTimeZone('America/Los_Angeles')
    expect(rt._l('a', DATE_TIME, { when: INSTANT })).toBe('Mar 1, 2026 2:30 PM')
    rt.setTimeZone(undefined)
    expect(rt.getTimeZone()).toBeUndefined()
    expect(
      rt._l('a', [['when', 2, { hour: 'numeric', minute: 'numeric' }]] as never, { when: INSTANT }),
    ).toBe(own)
  })

  it("keeps a message's own zone and leaves numbers alone", async () => {
    const rt = await browserRuntime()
    rt._r('en-US', {})
    rt.setTimeZone('Asia/Tokyo')
    const pinned = [['when', 2, { hour: 'numeric', minute: 'numeric', timeZone: 'UTC' }]] as never
    expect(rt._l('a', pinned, { when: INSTANT })).toBe('10:30 PM')
    expect(rt._l('a', [['n', 1, { maximumFractionDigits: 1 }]] as never, { n: 1234.56 })).toBe('1,234.6')
  })

  it('refuses a zone the environment does not know, naming it and the fix', async () => {
    const rt = await browserRuntime()
    expect(() => rt.setTimeZone('Mars/Olympus_Mons')).toThrow(
      `[unplugin-tms] unknown time zone "Mars/Olympus_Mons": give an IANA name such as "Europe/Paris" or "UTC" (Intl.supportedValuesOf('timeZone') lists them)`,
    )
    expect(rt.getTimeZone()).toBeUndefined()
  })
})

describe('runWithLocale(locale, fn, { timeZone })', () => {
  it("gives each request its zone across awaits while others run at once; the process's zone elsewhere", async () => {
    const rt = await serverRuntime()
    rt._r('en-US', { 'ja-JP': async () => ({ default: { a: DATE_TIME } }) })
    rt.setTimeZone('UTC')
    const zones = ['Asia/Tokyo', 'America/Los_Angeles', undefined] as const
    const render = async () => {
      const before = rt._l('a', DATE_TIME, { when: INSTANT })
      await new Promise((resolve) => setTimeout(resolve, 1))
      return `${rt.getTimeZone()}|${before}|${rt._l('a', DATE_TIME, { when: INSTANT })}`
    }
    const pages = await Promise.all(
      Array.from({ length: 30 }, (_, i) => rt.runWithLocale('en-US', render, { timeZone: zones[i % 3] })),
    )
    expect(new Set(pages)).toEqual(
      new Set([
        'Asia/Tokyo|Mar 2, 2026 7:30 AM|Mar 2, 2026 7:30 AM',
        'America/Los_Angeles|Mar 1, 2026 2:30 PM|Mar 1, 2026 2:30 PM',
        // No zone for the request: the process's (setTimeZone outside any request).
        'UTC|Mar 1, 2026 10:30 PM|Mar 1, 2026 10:30 PM',
      ]),
    )
    expect(rt._l('a', DATE_TIME, { when: INSTANT })).toBe('Mar 1, 2026 10:30 PM')
    // Inside a request, setTimeZone switches that request only.
    const inside = await rt.runWithLocale('ja-JP', () => {
      rt.setTimeZone('Asia/Tokyo')
      return rt._l('a', DATE_TIME, { when: INSTANT })
    })
    expect(inside).toBe('2026年3月2日 7:30')
    expect(rt.getTimeZone()).toBe('UTC')
  })

  it('rejects an unknown zone before running fn', async () => {
    const rt = await serverRuntime()
    rt._r('en-US', {})
    const fn = vi.fn()
    await expect(rt.runWithLocale('en-US', fn, { timeZone: 'Nowhere/Town' })).rejects.toThrow(
      '[unplugin-tms] unknown time zone "Nowhere/Town"',
    )
    expect(fn).not.toHaveBeenCalled()
  })
})
