import { expect, it } from 'vitest'
import { connectionLines } from '../../src/cli/emulator-env'
import { DEMO_SEED } from '../../src/emulator/demo-seed'

it("the emulator's lines name the first project and the first user allowed in its account, shell-quoted, never a seed file's secret", () => {
  const lines = connectionLines(
    {
      users: [
        { userIdentifier: 'other', userSecret: 'x', accountUids: ['b'] },
        { userIdentifier: 'ci user', userSecret: "it's $ecret" },
      ],
      accounts: [
        { accountUid: 'empty', projects: [] },
        {
          accountUid: 'a',
          projects: [
            { projectId: 'web', sourceLocaleId: 'en-US', targetLocaleIds: ['fr-FR'] },
            { projectId: 'app', sourceLocaleId: 'en-US', targetLocaleIds: ['de-DE'] },
          ],
        },
        { accountUid: 'b', projects: [{ projectId: 'docs', sourceLocaleId: 'en', targetLocaleIds: ['ja'] }] },
      ],
    },
    'http://127.0.0.1:4870',
    'ci/seed.json',
  )
  expect(lines).toEqual([
    '# Point a build or the tms CLI at this emulator: paste these lines into its shell',
    'export TMS_BASE_URL=http://127.0.0.1:4870',
    'export TMS_PROJECT_ID=web',
    '# web translates en-US into fr-FR',
    "export TMS_USER_IDENTIFIER='ci user'",
    '# and TMS_USER_SECRET: the userSecret of ci user in ci/seed.json (not printed)',
    '# other projects of the seed: app, docs',
  ])
})

it('a seed without a project or a user says what to add', () => {
  expect(connectionLines({ users: [], accounts: [] }, 'http://127.0.0.1:1', 'seed.json')).toEqual([
    '# Point a build or the tms CLI at this emulator: paste these lines into its shell',
    'export TMS_BASE_URL=http://127.0.0.1:1',
    '# (the seed has no project: add one to accounts[].projects)',
    '# (the seed has no user for this project: add one to users[])',
  ])
})

it("prints the built-in demo seed's secret (public, in the docs), shell-quoted", () => {
  const lines = connectionLines(
    { ...DEMO_SEED, users: [{ userIdentifier: 'demo user', userSecret: "it's $ecret" }] },
    'http://127.0.0.1:4870',
    undefined,
  )
  expect(lines.slice(4, 6)).toEqual([
    "export TMS_USER_IDENTIFIER='demo user'",
    `export TMS_USER_SECRET='it'\\''s $ecret'`,
  ])
})
