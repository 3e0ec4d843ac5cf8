import { describe, expect, it } from 'vitest'
import { buildReport, formatReport, thresholdFailure } from '../../src/core/report'

const report = buildReport(
  {
    coverage: {
      'fr-FR': { messages: 10, translated: 10, missing: 0, coverage: 100 },
      'de-DE': { messages: 10, translated: 7, missing: 3, coverage: 70 },
      'en-XA': { messages: 10, translated: 10, missing: 0, coverage: 100 },
    },
    pushed: 4,
  },
  12,
)

describe('report', () => {
  it('formats one aligned line per locale, sorted', () => {
    expect(formatReport(report)).toBe(
      [
        'locale  messages  translated  missing  coverage',
        'de-DE         10           7        3     70.0%',
        'en-XA         10          10        0    100.0%',
        'fr-FR         10          10        0    100.0%',
        '4 new strings pushed, 12 requests made',
      ].join('\n'),
    )
  })

  it('fails on missing or low coverage, naming the option', () => {
    const locales = ['fr-FR', 'de-DE']
    expect(thresholdFailure(report, { failOnMissing: false, minCoverage: 0, locales })).toBeUndefined()
    expect(thresholdFailure(report, { failOnMissing: true, minCoverage: 0, locales })).toBe(
      '[unplugin-tms] failOnMissing: de-DE misses 3 of 10 messages. Publish the translations, or set failOnMissing: false.',
    )
    expect(thresholdFailure(report, { failOnMissing: false, minCoverage: 80, locales })).toBe(
      '[unplugin-tms] minCoverage: de-DE 70% below 80%. Publish more translations, or lower minCoverage.',
    )
    expect(thresholdFailure(report, { failOnMissing: false, minCoverage: 70, locales })).toBeUndefined()
  })

  it('ends with what to do about strings that wait for an authorization', () => {
    const waiting = buildReport(
      {
        coverage: { 'fr-FR': { messages: 10, translated: 7, missing: 3, coverage: 70 } },
        pushed: 0,
        unauthorized: { strings: 3, locales: { 'fr-FR': 3 } },
      },
      4,
    )
    expect(formatReport(waiting).split('\n').slice(2)).toEqual([
      '0 new strings pushed, 4 requests made',
      '3 strings await authorization on the service (fr-FR 3) and get no translation until authorized: authorize them in the dashboard, or set job: { name, authorize: true } so that pushes authorize new strings',
    ])
    expect(formatReport(report)).not.toContain('authoriz')
  })
})
